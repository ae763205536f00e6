package ntfysprig

import (
	"fmt"
	"math"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// ntfyNames is the function list of ntfy's vendored Sprig (util/sprig/functions.go).
// Functions random or environment-dependent (randInt) are left out of the cases anyway.
var ntfyNames = strings.Fields(`ago date date_in_zone date_modify dateInZone dateModify duration
durationRound htmlDate htmlDateInZone must_date_modify mustDateModify mustToDate now toDate unixEpoch
trunc trim upper lower substr trimAll trimSuffix trimPrefix contains hasPrefix hasSuffix quote
squote cat indent nindent replace plural sha1sum sha256sum sha512sum adler32sum toString atoi seq
toDecimal split splitList splitn toStrings until untilStep add1 add sub div mod mul randInt biggest
max min maxf minf ceil floor round join sortAlpha default empty coalesce all any compact mustCompact
ternary typeOf typeIs typeIsLike kindOf kindIs deepEqual base dir clean ext isAbs osBase osClean
osDir osExt osIsAbs b64enc b64dec b32enc b32dec tuple list dict get set unset hasKey pluck keys
pick omit values append push mustAppend mustPush prepend mustPrepend first mustFirst rest mustRest
last mustLast initial mustInitial reverse mustReverse uniq mustUniq without mustWithout has mustHas
slice mustSlice concat dig chunk mustChunk fail regexMatch mustRegexMatch regexFindAll
mustRegexFindAll regexFind mustRegexFind regexReplaceAll mustRegexReplaceAll regexReplaceAllLiteral
mustRegexReplaceAllLiteral regexSplit mustRegexSplit regexQuoteMeta urlParse urlJoin`)

// ntfy renamed the JSON functions (toJson -> toJSON ...).
var ntfyRenamed = map[string]string{
	"fromJSON": "fromJson", "toJSON": "toJson", "toPrettyJSON": "toPrettyJson", "toRawJSON": "toRawJson",
	"mustFromJSON": "mustFromJson", "mustToJSON": "mustToJson", "mustToPrettyJSON": "mustToPrettyJson",
	"mustToRawJSON": "mustToRawJson",
}

// Limits of ntfy's fork (util/sprig/functions.go), which Masterminds' Sprig does not have.
const (
	loopExecutionLimit = 10_000
	stringLengthLimit  = 100_000
)

// FuncMap is ntfy's template function map, re-created on Masterminds Sprig.
func FuncMap() template.FuncMap {
	src := sprig.TxtFuncMap()
	m := template.FuncMap{}
	for _, n := range ntfyNames {
		f, ok := src[n]
		if !ok {
			panic("sprig lacks " + n)
		}
		m[n] = f
	}
	for n, orig := range ntfyRenamed {
		m[n] = src[orig]
	}
	// ntfy's title uses x/text cases (lower-cases the rest of each word), not strings.Title.
	m["title"] = func(s string) string { return cases.Title(language.English).String(s) }
	m["repeat"] = func(count int, str string) string {
		if count > loopExecutionLimit {
			panic(fmt.Sprintf("repeat count %d exceeds limit of %d", count, loopExecutionLimit))
		} else if count*len(str) >= stringLengthLimit {
			panic(fmt.Sprintf("repeat count %d with string length %d exceeds limit of %d", count, len(str), stringLengthLimit))
		}
		return strings.Repeat(str, count)
	}
	untilStep := src["untilStep"].(func(int, int, int) []int)
	limited := func(start, stop, step int) []int {
		if step != 0 {
			if it := math.Abs(float64(stop)-float64(start)) / float64(step); it > loopExecutionLimit {
				panic(fmt.Sprintf("too many iterations in untilStep; max allowed is %d, got %f", loopExecutionLimit, it))
			}
		}
		return untilStep(start, stop, step)
	}
	m["untilStep"] = limited
	m["until"] = func(count int) []int {
		step := 1
		if count < 0 {
			step = -1
		}
		return limited(0, count, step)
	}
	m["seq"] = seq(limited)
	addNtfyNumeric(m)
	return m
}

// seq follows Sprig's seq, with ntfy's iteration limit.
func seq(untilStep func(int, int, int) []int) func(...int) string {
	join := func(v []int) string {
		return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(v)), " "), "[]")
	}
	return func(params ...int) string {
		switch len(params) {
		case 1:
			start, end, inc := 1, params[0], 1
			if end < start {
				inc = -1
			}
			return join(untilStep(start, end+inc, inc))
		case 2:
			start, end, step := params[0], params[1], 1
			if end < start {
				step = -1
			}
			return join(untilStep(start, end+step, step))
		case 3:
			start, step, end, inc := params[0], params[1], params[2], 1
			if end < start {
				inc = -1
				if step > 0 {
					return ""
				}
			}
			return join(untilStep(start, end+inc, step))
		}
		return ""
	}
}

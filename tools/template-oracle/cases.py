"""Source of the conformance cases: (template, data) rows by group. Run gen-cases.sh to rebuild the JSON and expectations."""
import json, os, sys

D = {"s": "hello world", "n": 3, "f": 3.5, "big": 1000000, "neg": -2, "z": 0, "t": True, "no": False, "nul": None,
     "l": [1, 2, 3], "sl": ["b", "a", "c"], "e": [], "m": {"b": 2, "a": 1}, "em": {}, "nested": {"x": {"y": "deep"}},
     "u": "héllo wörld", "title": "Alert: disk 90% full", "mixed": [1, "two", None, True, 2.5]}

syntax = [
    "plain text", "{{/* comment */}}x", "a {{- /* c */ -}} b", "a  {{- .s -}}  b", "{{ .s }}", "{{.}}", "{{.n}}", "{{.f}}",
    "{{.big}}", "{{.neg}}", "{{.z}}", "{{.t}}", "{{.nul}}", "{{.missing}}", "{{.missing.deeper}}", "{{.nested.x.y}}",
    "{{.l}}", "{{.sl}}", "{{.e}}", "{{.m}}", "{{.em}}", "{{.mixed}}", "{{.nested}}", "{{$}}", "{{$.s}}",
    "{{$x := .s}}{{$x}}", "{{$x := 1}}{{$x = 2}}{{$x}}", "{{$x := .nested}}{{$x.x.y}}",
    "{{if .t}}yes{{end}}", "{{if .no}}yes{{else}}no{{end}}", "{{if .z}}a{{else if .n}}b{{else}}c{{end}}",
    "{{if .e}}a{{else if .em}}b{{else}}c{{end}}", "{{if .missing}}a{{else}}b{{end}}", "{{if .nul}}a{{else}}b{{end}}",
    "{{if .s}}{{.s}}{{end}}", "{{if 0}}a{{else}}b{{end}}", "{{if \"\"}}a{{else}}b{{end}}", "{{if 0.0}}a{{else}}b{{end}}",
    "{{with .nested.x}}{{.y}}{{end}}", "{{with .missing}}a{{else}}none{{end}}", "{{with .z}}a{{else with .n}}n={{.}}{{end}}",
    "{{with $v := .s}}{{$v}}{{end}}", "{{range .l}}[{{.}}]{{end}}", "{{range $i, $v := .sl}}{{$i}}:{{$v}} {{end}}",
    "{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}", "{{range .e}}x{{else}}empty{{end}}", "{{range .em}}x{{else}}empty{{end}}",
    "{{range .missing}}x{{else}}nothing{{end}}", "{{range 3}}{{.}}{{end}}", "{{range $i := 4}}{{$i}}{{end}}",
    "{{range $i, $v := .l}}{{if eq $i 1}}{{continue}}{{end}}{{$v}}{{end}}",
    "{{range .l}}{{if eq . 2.0}}{{break}}{{end}}{{.}}{{end}}", "{{range $v := .l}}{{$v}}{{end}}",
    "{{range .mixed}}{{.}}|{{end}}", "{{range .nested}}{{.y}}{{end}}", "{{(.s)}}", "{{(print 1 2)}}",
    "{{ .s | printf \"%s!\" }}", "{{ \"x\" | printf \"%s-%s\" \"y\" }}", "{{ 3 }}", "{{ 3.0 }}", "{{ 1e3 }}", "{{ 0x1F }}",
    "{{ 'a' }}", "{{ -5 }}", "{{ true }}", "{{ \"q\\\"uote\" }}", "{{ `raw\\n` }}", "{{ \"tab\\tnl\\n\" }}", "{{ 010 }}",
    "{{ 1_000 }}", "{{ 0b101 }}", "{{ 0o17 }}", "{{ +7 }}", "{{$x := 1}}{{if true}}{{$x = 5}}{{end}}{{$x}}",
    "{{$x := 1}}{{if true}}{{$x := 5}}{{end}}{{$x}}", "{{range $i, $e := .l}}{{$i}}{{end}}{{range $i := .sl}}{{$i}}{{end}}",
    "{{- \"trim\" -}}", "x\n{{- \"y\" }}\nz", "{{ .s -}}\n\n  end", "a{{\"b\"}}c", "{{.m.a}}{{.m.b}}", "{{.m.zz}}",
    "{{ $.m.a }}", "{{range .l}}{{$.s}}{{end}}", "{{ . | len }}", "{{ .nested.x | len }}",
    "{{ if and .t .n }}both{{ end }}", "{{ or .z .no .s }}", "{{ and .n .z .s }}", "{{ or .z .no }}", "{{ and 1 0 }}",
    "{{ or 0 \"\" }}", "{{ not .t }}", "{{ not .e }}", "{{ not .missing }}", "{{ and .missing.x .s }}",
    # parse errors
    "{{", "{{ .s }", "{{ end }}", "{{ else }}", "{{ if .t }}x", "{{ range .l }}x{{ else }}y{{ else }}z{{ end }}",
    "{{ .s | }}", "{{ | .s }}", "{{ nosuchfunc }}", "{{ $undef }}", "{{ break }}", "{{ continue }}",
    "{{ 1 | 2 }}", "{{ .s.x.y 1 }}", "{{ \"unterminated }}", "{{ /* open", "{{/* c */ x}}", "{{ ( .s }}", "{{ .s ) }}",
    "{{ 1a }}", "{{ 'ab' }}", "{{ .a-b }}", "{{ 99999999999999999999 }}", "{{ if }}{{ end }}", "{{ range $a, $b, $c := .l }}{{ end }}",
    "{{ $x := 1 2 }}", "{{ \"a\".b }}", "{{ nil }}", "{{ with }}{{ end }}", "{{ else if .t }}", "{{ with .t }}{{ else if .t }}{{ end }}",
    # exec errors
    "{{ .s.x }}", "{{ .n.x }}", "{{ .l.x }}", "{{ .nul.x }}", "{{ .s 1 }}", "{{ .m.a 1 }}", "{{ \"x\" 1 }}", "{{ range .n }}x{{ end }}",
    "{{ range .s }}x{{ end }}", "{{ range $i, $v := 3 }}{{ end }}", "{{ (1) 2 }}", "{{ $x := .s }}{{ $x 1 }}",
    # disallowed
    "{{ template \"x\" }}", "{{define \"x\"}}y{{end}}", "{{- call .f }}", "{{ block \"b\" . }}x{{ end }}", "{{ templatex }}",
]

builtins = [
    "{{ eq 1 1 }}", "{{ eq 1 2 }}", "{{ eq .n 3.0 }}", "{{ eq .n 3 }}", "{{ eq .s \"hello world\" }}", "{{ eq .s \"a\" \"hello world\" }}",
    "{{ eq 1 2 3 1 }}", "{{ eq .t true }}", "{{ eq .missing .nul }}", "{{ eq .missing \"x\" }}", "{{ eq .s 1 }}", "{{ eq .l .l }}",
    "{{ eq .m .m }}", "{{ eq 1 }}", "{{ ne 1 2 }}", "{{ ne \"a\" \"a\" }}", "{{ ne .n 3 }}", "{{ lt 1 2 }}", "{{ lt 2 1 }}",
    "{{ lt .n 4.0 }}", "{{ lt .n 4 }}", "{{ lt \"a\" \"b\" }}", "{{ lt true false }}", "{{ lt .missing 1 }}", "{{ le 2 2 }}",
    "{{ le 3 2 }}", "{{ gt 3 2 }}", "{{ gt \"b\" \"a\" }}", "{{ ge 2 2 }}", "{{ ge 1.5 2.5 }}", "{{ lt .l .l }}",
    "{{ len .s }}", "{{ len .u }}", "{{ len .l }}", "{{ len .m }}", "{{ len .e }}", "{{ len .n }}", "{{ len .missing }}",
    "{{ len .nul }}", "{{ index .l 1 }}", "{{ index .sl 0 }}", "{{ index .m \"a\" }}", "{{ index .m \"zz\" }}", "{{ index .l 5 }}",
    "{{ index .l -1 }}", "{{ index .l 1.0 }}", "{{ index .s 0 }}", "{{ index .nested \"x\" \"y\" }}", "{{ index .m 1 }}",
    "{{ index .missing 1 }}", "{{ index .l }}", "{{ index .n 1 }}", "{{ slice .s 1 3 }}", "{{ slice .l 1 }}", "{{ slice .l 0 2 }}",
    "{{ slice .s 2 }}", "{{ slice .l 2 1 }}",
    "{{ print 1 2 }}", "{{ print \"a\" \"b\" }}", "{{ print \"a\" 1 2 \"b\" 3 }}", "{{ print .n .f }}", "{{ print .missing }}",
    "{{ print .nul }}", "{{ print nil }}", "{{ print .l .m }}", "{{ print }}", "{{ println 1 \"a\" 2 }}", "{{ println }}",
    "{{ html \"<a href='x'>&\\\"</a>\" }}", "{{ html 1 2 }}", "{{ js \"it's <b> & \\\"q\\\" = \\\\ \\n\" }}", "{{ js \"é\\u2028\" }}",
    "{{ urlquery \"a b&c=d/é\" }}", "{{ urlquery 1 \"x\" }}", "{{ .s | html }}", "{{ .s | urlquery }}",
    "{{ printf }}", "{{ printf 1 }}", "{{ print 1 | printf \"%s\" }}", "{{ not 1 2 }}", "{{ len 1 2 }}", "{{ index }}",
]

printf = [
    "{{ printf \"%d\" 42 }}", "{{ printf \"%5d|%-5d|%05d\" 42 42 42 }}", "{{ printf \"%+d % d\" 5 5 }}", "{{ printf \"%x %X %o %b\" 255 255 8 5 }}",
    "{{ printf \"%#x %#o %#b %O\" 255 8 5 8 }}", "{{ printf \"%c%c\" 72 105 }}", "{{ printf \"%q\" 65 }}", "{{ printf \"%U\" 9731 }}",
    "{{ printf \"%.3d\" 7 }}", "{{ printf \"%d\" -42 }}", "{{ printf \"%08.3f\" -3.14159 }}", "{{ printf \"%f\" 3.5 }}",
    "{{ printf \"%.2f\" .f }}", "{{ printf \"%.0f %.0f %.0f\" 0.5 1.5 2.5 }}", "{{ printf \"%.2f\" 0.125 }}", "{{ printf \"%.1f\" 0.05 }}",
    "{{ printf \"%e\" 123456.789 }}", "{{ printf \"%E\" 0.000123 }}", "{{ printf \"%.2e\" 1.0 }}", "{{ printf \"%g\" 100000.0 }}",
    "{{ printf \"%g\" 1000000.0 }}", "{{ printf \"%g\" 0.0001 }}", "{{ printf \"%g\" 0.00001 }}", "{{ printf \"%.3g\" 3.14159 }}",
    "{{ printf \"%.3g\" 1234.5 }}", "{{ printf \"%G\" 1e-10 }}", "{{ printf \"%v\" 1e21 }}", "{{ printf \"%v\" 123456789.0 }}",
    "{{ printf \"%v\" .big }}", "{{ printf \"%v %v\" 0.1 0.3 }}", "{{ printf \"%+.2f\" 2.0 }}", "{{ printf \"% .2f\" 2.0 }}",
    "{{ printf \"%10.3f|\" 3.14159 }}", "{{ printf \"%-10.3f|\" 3.14159 }}", "{{ printf \"%6.2f%%\" 99.5 }}",
    "{{ printf \"%s\" \"str\" }}", "{{ printf \"%10s|%-10s|\" \"ab\" \"cd\" }}", "{{ printf \"%.2s\" \"abcdef\" }}", "{{ printf \"%05s\" \"ab\" }}",
    "{{ printf \"%q\" \"a\\\"b\\n\" }}", "{{ printf \"%#q\" \"ab\" }}", "{{ printf \"%+q\" \"é\" }}", "{{ printf \"%q\" \"é☃\" }}",
    "{{ printf \"%x\" \"hi\" }}", "{{ printf \"% x\" \"hi\" }}", "{{ printf \"%X\" \"hi\" }}", "{{ printf \"%v\" \"s\" }}",
    "{{ printf \"%t\" true }}", "{{ printf \"%v\" false }}", "{{ printf \"%d\" \"abc\" }}", "{{ printf \"%s\" 42 }}", "{{ printf \"%d\" 3.5 }}",
    "{{ printf \"%d\" .n }}", "{{ printf \"%f\" 3 }}", "{{ printf \"%s\" true }}", "{{ printf \"%t\" 1 }}", "{{ printf \"%s\" .nul }}",
    "{{ printf \"%d\" .missing }}", "{{ printf \"%v\" .nul }}", "{{ printf \"%s %s\" \"a\" }}", "{{ printf \"%s\" \"a\" \"b\" }}",
    "{{ printf \"%s\" \"a\" 1 .nul }}", "{{ printf \"%z\" 1 }}", "{{ printf \"%\" }}", "{{ printf \"%%\" }}", "{{ printf \"100%%\" }}",
    "{{ printf \"%T %T %T %T %T\" 1 1.5 \"s\" true .nul }}", "{{ printf \"%T %T %T\" .l .m .sl }}", "{{ printf \"%T\" (add 1 2) }}",
    "{{ printf \"%T\" (until 2) }}", "{{ printf \"%T\" (splitList \",\" \"a\") }}", "{{ printf \"%T\" (split \",\" \"a\") }}",
    "{{ printf \"%v\" .l }}", "{{ printf \"%d\" .l }}", "{{ printf \"%s\" .sl }}", "{{ printf \"%q\" .sl }}", "{{ printf \"%v\" .m }}",
    "{{ printf \"%+v\" .m }}", "{{ printf \"%d\" .m }}", "{{ printf \"%v\" .mixed }}", "{{ printf \"%s\" .mixed }}", "{{ printf \"%v\" .nested }}",
    "{{ printf \"%*d|\" 5 42 }}", "{{ printf \"%-*d|\" 5 42 }}", "{{ printf \"%.*f\" 2 3.14159 }}", "{{ printf \"%5t|\" true }}",
    "{{ printf \"%6.2v\" 3.14159 }}", "{{ printf \"%x\" -255 }}", "{{ printf \"%x\" 3.5 }}", "{{ printf \"%c\" .n }}",
    "{{ printf \"%d items\" (len .l) }}", "{{ printf \"%.1f%%\" (mulf 1 1) }}", "{{ printf \"%s=%v\" \"k\" .f }}", "{{ printf \"%3c|\" 65 }}",
    "{{ printf \"%v\" 1e-7 }}", "{{ printf \"%v\" 123456.0 }}", "{{ printf \"%v\" 1234567.0 }}", "{{ printf \"%.10g\" 1234567.0 }}",
    "{{ printf \"%v\" 5e-324 }}", "{{ printf \"%v\" 1.7976931348623157e308 }}", "{{ printf \"%.3e\" 9.9995 }}", "{{ printf \"%g\" 0.0 }}",
]

strings_ = [
    "{{ trim \"  x y  \" }}", "{{ trimAll \"$\" \"$$5.00$\" }}", "{{ trimPrefix \"he\" .s }}", "{{ trimSuffix \"ld\" .s }}",
    "{{ upper .s }}", "{{ lower \"ÀB\" }}", "{{ upper .u }}", "{{ title .s }}", "{{ title \"hELLO wORLD\" }}", "{{ title \"o'neil is-here_now x.y\" }}",
    "{{ title .u }}", "{{ substr 0 5 .s }}", "{{ substr 6 -1 .s }}", "{{ substr -1 5 .s }}", "{{ substr 3 100 .s }}", "{{ substr 5 2 .s }}",
    "{{ substr 0 2 .u }}", "{{ repeat 3 \"ab\" }}", "{{ \"ab\" | repeat 2 }}", "{{ repeat 10001 \"a\" }}", "{{ repeat 50000 \"ab\" }}",
    "{{ repeat -1 \"a\" }}", "{{ trunc 5 .s }}", "{{ trunc -5 .s }}", "{{ trunc 50 .s }}", "{{ trunc 0 .s }}", "{{ contains \"lo w\" .s }}",
    "{{ hasPrefix \"hell\" .s }}", "{{ hasSuffix \"x\" .s }}", "{{ quote \"a\" \"b\\\"c\" }}", "{{ quote .n .nul .l }}", "{{ squote \"a\" 1 }}",
    "{{ cat \"a\" 1 .nul \"b\" .l }}", "{{ cat }}", "{{ indent 2 \"a\\nb\" }}", "{{ nindent 2 \"a\\nb\" }}", "{{ replace \"o\" \"0\" .s }}",
    "{{ replace \"\" \"-\" \"abc\" }}", "{{ .s | replace \" \" \"_\" }}", "{{ plural \"one\" \"many\" 1 }}", "{{ plural \"one\" \"many\" 2 }}",
    "{{ plural \"one\" \"many\" (len .l) }}", "{{ plural \"one\" \"many\" .n }}", "{{ toString 1 }}", "{{ toString .f }}", "{{ toString .l }}",
    "{{ toString .nul }}", "{{ atoi \"42\" }}", "{{ atoi \"x\" }}", "{{ atoi \"-7\" | add 1 }}", "{{ atoi \" 4\" }}",
    "{{ split \",\" \"a,b,c\" }}", "{{ (split \",\" \"a,b,c\")._1 }}", "{{ splitList \",\" \"a,b,,c\" }}", "{{ splitList \"\" \"abc\" }}",
    "{{ splitn \",\" 2 \"a,b,c\" }}", "{{ splitn \",\" 0 \"a,b\" }}", "{{ toStrings .mixed }}", "{{ toStrings .n }}", "{{ join \"-\" .l }}",
    "{{ join \", \" .sl }}", "{{ join \"-\" .mixed }}", "{{ join \"-\" \"x\" }}", "{{ sortAlpha .sl }}", "{{ sortAlpha .mixed }}",
    "{{ sortAlpha \"x\" }}", "{{ sha1sum \"abc\" }}", "{{ sha256sum .s }}", "{{ sha512sum \"\" }}", "{{ adler32sum \"Wikipedia\" }}",
    "{{ upper 1 }}", "{{ upper .n }}", "{{ upper .missing }}", "{{ upper .nul }}", "{{ trunc .n .s }}", "{{ trunc 1.0 .s }}",
    "{{ trunc 1.5 .s }}", "{{ repeat \"2\" \"a\" }}", "{{ contains \"x\" }}",
]

lists = [
    "{{ list 1 \"a\" 2.5 }}", "{{ list }}", "{{ tuple 1 2 }}", "{{ first .l }}", "{{ first .e }}", "{{ first .s }}", "{{ last .l }}",
    "{{ rest .l }}", "{{ rest .e }}", "{{ initial .l }}", "{{ append .l 4 }}", "{{ push .sl \"z\" }}", "{{ prepend .l 0 }}",
    "{{ concat .l .sl (list 9) }}", "{{ concat .l 1 }}", "{{ reverse .sl }}", "{{ uniq (list 1 1 \"a\" \"a\" 2) }}",
    "{{ without .l 2.0 }}", "{{ without .l 2 }}", "{{ has 2.0 .l }}", "{{ has 2 .l }}", "{{ has \"a\" .sl }}", "{{ has 1 .nul }}",
    "{{ compact (list 0 1 \"\" \"a\" .nul false true) }}", "{{ slice .l 1 }}", "{{ slice .l 1 2 }}", "{{ slice .l }}",
    "{{ slice .e }}", "{{ chunk 2 (list 1 2 3 4 5) }}", "{{ chunk 2 .e }}", "{{ len (chunk 3 (until 7)) }}", "{{ mustFirst .n }}",
    "{{ mustLast .e }}", "{{ mustRest .l }}", "{{ mustAppend .l 5 }}", "{{ mustPrepend .l 5 }}", "{{ mustInitial .l }}",
    "{{ mustReverse .l }}", "{{ mustUniq .l }}", "{{ mustWithout .l 1.0 }}", "{{ mustHas 3.0 .l }}", "{{ mustCompact .mixed }}",
    "{{ mustSlice .l 0 1 }}", "{{ mustChunk 1 .l }}", "{{ first (until 3) }}", "{{ has 1 (until 3) }}", "{{ reverse (splitList \",\" \"a,b\") }}",
    "{{ append .n 1 }}", "{{ reverse .m }}", "{{ range (list 3 1 2) }}{{.}}{{end}}", "{{ index (list 1 2) 0 }}",
    "{{ $l := list 1 }}{{ $l = append $l 2 }}{{ $l }}", "{{ toJSON (list 1 \"a\" .nul) }}", "{{ first (list) }}",
    "{{ until 5 }}", "{{ until -3 }}", "{{ until 0 }}", "{{ untilStep 0 10 3 }}", "{{ untilStep 10 0 -4 }}", "{{ untilStep 0 10 0 }}",
    "{{ untilStep 0 10 -1 }}", "{{ until 10001 }}", "{{ len (until 10000) }}", "{{ seq 5 }}", "{{ seq -2 }}", "{{ seq 2 5 }}",
    "{{ seq 5 2 }}", "{{ seq 0 2 10 }}", "{{ seq 10 -3 1 }}", "{{ seq 1 2 -5 }}", "{{ seq }}", "{{ seq 1 2 3 4 }}", "{{ seq 0 }}",
]

math = [
    "{{ add 1 2 }}", "{{ add .n .f }}", "{{ add }}", "{{ add \"3\" \"4\" }}", "{{ add 1 true }}", "{{ add1 .n }}", "{{ add1 .f }}",
    "{{ sub 5 7 }}", "{{ sub .n 1 }}", "{{ mul 2 3 4 }}", "{{ mul .f 2 }}", "{{ div 7 2 }}", "{{ div -7 2 }}", "{{ div 1 0 }}",
    "{{ mod 7 3 }}", "{{ mod -7 3 }}", "{{ mod 1 0 }}", "{{ max 1 5 3 }}", "{{ max .f 1 }}", "{{ min 4 2 8 }}", "{{ biggest 1 9 }}",
    "{{ maxf 1.5 2.5 }}", "{{ minf 1.5 -2 }}", "{{ maxf \"1.5\" 1 }}", "{{ floor 3.7 }}", "{{ floor -3.2 }}", "{{ ceil 3.2 }}",
    "{{ ceil .n }}", "{{ round 3.14159 2 }}", "{{ round 2.5 0 }}", "{{ round -2.5 0 }}", "{{ round 1.2345 3 0.4 }}", "{{ round \"1.26\" 1 }}",
    "{{ toDecimal \"0777\" }}", "{{ toDecimal 777 }}", "{{ toDecimal \"9\" }}", "{{ add 1 2 | printf \"%d\" }}", "{{ typeOf (add 1 2) }}",
    "{{ typeOf (maxf 1 2) }}", "{{ typeOf (floor 1) }}", "{{ add 9223372036854775807 1 }}", "{{ add .big 1 }}", "{{ mul .big .big }}",
    "{{ add 0.9 0.9 }}", "{{ sub \"x\" 1 }}", "{{ div 10 .n }}", "{{ eq (add 1 1) 2 }}", "{{ lt (len .l) 5 }}", "{{ eq (len .l) .n }}",
    "{{ trunc (add 1 1) .s }}", "{{ add 1 .missing }}",
]

defaults = [
    "{{ default \"d\" .missing }}", "{{ default \"d\" .s }}", "{{ .missing | default \"d\" }}", "{{ .z | default 7 }}",
    "{{ .e | default \"empty\" }}", "{{ .no | default \"f\" }}", "{{ .nul | default \"n\" }}", "{{ default \"d\" }}",
    "{{ empty .z }}", "{{ empty .s }}", "{{ empty .em }}", "{{ empty .missing }}", "{{ empty 0.0 }}", "{{ empty .nested }}",
    "{{ coalesce .missing .z .s }}", "{{ coalesce .z .e }}", "{{ all .s .n .t }}", "{{ all .s .z }}", "{{ all }}", "{{ any .z .no .s }}",
    "{{ any }}", "{{ ternary \"y\" \"n\" .t }}", "{{ ternary \"y\" \"n\" false }}", "{{ ternary \"y\" \"n\" .n }}", "{{ .t | ternary 1 2 }}",
    "{{ toJSON . }}", "{{ toJSON .s }}", "{{ toJSON .f }}", "{{ toJSON .big }}", "{{ toJSON 1e21 }}", "{{ toJSON 0.0000001 }}",
    "{{ toJSON \"<a&b>\" }}", "{{ toRawJSON \"<a&b>\" }}", "{{ toJSON \"é\\u2028\\t\\u0001\" }}", "{{ toPrettyJSON .m }}",
    "{{ toPrettyJSON .nested }}", "{{ toPrettyJSON .e }}", "{{ toPrettyJSON (list 1 (dict \"a\" (list))) }}", "{{ toRawJSON .l }}",
    "{{ toJSON .nul }}", "{{ toJSON .missing }}", "{{ toJSON (add 1 2) }}", "{{ toJSON (until 3) }}", "{{ toJSON (split \",\" \"a,b\") }}",
    "{{ mustToJSON .m }}", "{{ mustToPrettyJSON .l }}", "{{ mustToRawJSON .s }}", "{{ fromJSON \"{\\\"a\\\":[1,2]}\" }}",
    "{{ (fromJSON \"{\\\"a\\\":{\\\"b\\\":5}}\").a.b }}", "{{ fromJSON \"bad\" }}", "{{ mustFromJSON \"bad\" }}", "{{ fromJSON \"3\" | typeOf }}",
    "{{ toJSON (fromJSON \"[1,\\\"x\\\",null,true]\") }}", "{{ toJson . }}",
]

dicts = [
    "{{ dict \"a\" 1 \"b\" \"x\" }}", "{{ dict \"a\" }}", "{{ dict 1 2 }}", "{{ dict }}", "{{ get .m \"a\" }}", "{{ get .m \"zz\" }}",
    "{{ get .nested \"x\" }}", "{{ $d := dict \"a\" 1 }}{{ $_ := set $d \"b\" 2 }}{{ $d }}", "{{ set .m \"c\" 3 }}", "{{ unset .m \"a\" }}",
    "{{ hasKey .m \"a\" }}", "{{ hasKey .m \"q\" }}", "{{ pluck \"a\" .m (dict \"a\" 9) (dict \"b\" 1) }}", "{{ pluck \"q\" .m }}",
    "{{ keys .m | sortAlpha }}", "{{ keys .m .nested | sortAlpha }}", "{{ values .em }}", "{{ pick .m \"a\" \"zz\" }}", "{{ omit .m \"a\" }}",
    "{{ dig \"x\" \"y\" \"def\" .nested }}", "{{ dig \"x\" \"q\" \"def\" .nested }}", "{{ dig \"a\" \"d\" .m }}", "{{ dig \"a\" .m }}",
    "{{ dig \"x\" \"y\" \"z\" \"d\" .nested }}", "{{ get .s \"a\" }}", "{{ get (split \",\" \"a\") \"_0\" }}", "{{ hasKey .missing \"a\" }}",
    "{{ set .missing \"a\" 1 }}", "{{ (dict \"k\" \"v\").k }}", "{{ range $k, $v := dict \"b\" 1 \"a\" 2 }}{{$k}}{{$v}}{{end}}",
    "{{ len (dict \"a\" 1) }}", "{{ typeOf (dict) }}", "{{ kindOf (dict) }}", "{{ deepEqual .m (dict \"a\" 1.0 \"b\" 2.0) }}",
    "{{ deepEqual .m (dict \"a\" 1 \"b\" 2) }}", "{{ deepEqual .l .l }}",
]

misc = [
    "{{ typeOf .s }}", "{{ typeOf .n }}", "{{ typeOf 1 }}", "{{ typeOf .l }}", "{{ typeOf .m }}", "{{ typeOf .nul }}", "{{ typeOf .t }}",
    "{{ typeOf (now) }}", "{{ typeOf (list) }}", "{{ kindOf .s }}", "{{ kindOf .n }}", "{{ kindOf 1 }}", "{{ kindOf .l }}", "{{ kindOf .m }}",
    "{{ kindOf .nul }}", "{{ kindOf (now) }}", "{{ kindIs \"slice\" .l }}", "{{ typeIs \"float64\" .n }}", "{{ typeIsLike \"string\" .s }}",
    "{{ deepEqual 1 1.0 }}", "{{ deepEqual \"a\" \"a\" }}", "{{ fail \"boom\" }}", "{{ if .t }}{{ fail \"stop\" }}{{ end }}",
    "{{ base \"/a/b.txt\" }}", "{{ base \"\" }}", "{{ base \"/\" }}", "{{ base \"a/b/\" }}", "{{ dir \"/a/b/c\" }}", "{{ dir \"c\" }}",
    "{{ clean \"a//b/../c/.\" }}", "{{ clean \"/../x\" }}", "{{ clean \"\" }}", "{{ clean \"../../a\" }}", "{{ ext \"f.tar.gz\" }}",
    "{{ ext \"a.b/c\" }}", "{{ isAbs \"/x\" }}", "{{ isAbs \"x\" }}", "{{ osBase \"/a/b\" }}", "{{ osDir \"/a/b\" }}", "{{ osClean \"a/./b\" }}",
    "{{ osExt \"x.y\" }}", "{{ osIsAbs \"/\" }}", "{{ b64enc .s }}", "{{ b64dec \"aGVsbG8=\" }}", "{{ b64dec \"!!!\" }}", "{{ b64dec \"aGVsbG8\" }}",
    "{{ b32enc \"hello\" }}", "{{ b32enc \"hi\" }}", "{{ b32dec \"NBSWY3DP\" }}", "{{ b32dec \"NBUQ====\" }}", "{{ b32dec \"1\" }}",
    "{{ b64enc \"\" }}", "{{ b64enc .u }}", "{{ b64enc .u | b64dec }}",
    "{{ regexMatch \"^h.*d$\" .s }}", "{{ regexMatch \"[\" .s }}", "{{ mustRegexMatch \"[\" .s }}", "{{ regexFind \"o.\" .s }}",
    "{{ regexFindAll \"o.\" .s -1 }}", "{{ regexFindAll \"o.\" .s 1 }}", "{{ regexFindAll \"x*\" \"abc\" -1 }}", "{{ regexFindAll \"[0-9]+\" \"a1b22c333\" 2 }}",
    "{{ regexReplaceAll \"o(.)\" .s \"0$1\" }}", "{{ regexReplaceAll \"(?P<first>\\\\w+) (?P<second>\\\\w+)\" .s \"${second} ${first}\" }}",
    "{{ regexReplaceAll \"a\" \"banana\" \"$1x\" }}", "{{ regexReplaceAll \"a\" \"banana\" \"$$\" }}", "{{ regexReplaceAllLiteral \"a\" \"banana\" \"$1\" }}",
    "{{ regexReplaceAll \"x*\" \"abc\" \"-\" }}", "{{ regexSplit \",\" \"a,b,c\" -1 }}", "{{ regexSplit \",\" \"a,b,c\" 2 }}",
    "{{ regexSplit \"x*\" \"abc\" -1 }}", "{{ regexSplit \",\" \"\" -1 }}", "{{ regexQuoteMeta \"a.b*c\" }}", "{{ regexMatch \"(?i)HELLO\" .s }}",
    "{{ regexFind \"[[:digit:]]+\" \"ab12\" }}", "{{ regexFind \"\\\\d+\" \"ab12\" }}", "{{ mustRegexFind \"(\" \"x\" }}",
    "{{ urlParse \"https://user:pw@example.com:8080/p/a%20th?q=1&r=2#frag\" }}", "{{ (urlParse \"http://h.com/x\").hostname }}",
    "{{ urlParse \"mailto:a@b.c\" }}", "{{ urlJoin (dict \"scheme\" \"https\" \"host\" \"x.org\" \"path\" \"/a b\" \"query\" \"q=1\") }}",
    "{{ urlJoin (dict \"host\" \"x.org\" \"path\" \"p\") }}", "{{ urlJoin (dict \"scheme\" \"http\" \"host\" 1) }}",
    "{{ urlJoin (urlParse \"https://u@h.io/p?x=y#f\") }}",
    "{{ .title | upper }}: {{ .s | title }}", "{{ if gt (len .l) 2 }}many{{ end }}", "{{ range $i, $x := .sl }}{{ if $i }}, {{ end }}{{ $x }}{{ end }}",
    "Disk at {{ .f }}% on {{ .s | upper }}", "{{ with .nested }}{{ with .x }}{{ .y | upper }}{{ end }}{{ end }}",
    "{{ $total := 0 }}{{ range .l }}{{ $total = add $total . }}{{ end }}{{ $total }}", "{{ index .mixed 1 | upper }}",
]

dates = [
    "{{ now | date \"2006\" | len }}", "{{ typeOf now }}", "{{ date \"2006-01-02\" 0 }}", "{{ date \"2006-01-02 15:04:05\" 1700000000 }}",
    "{{ dateInZone \"2006-01-02 15:04 MST\" 1700000000 \"UTC\" }}", "{{ dateInZone \"2006-01-02 15:04 -07:00\" 1700000000 \"America/New_York\" }}",
    "{{ dateInZone \"15:04 MST\" 1700000000 \"America/Los_Angeles\" }}", "{{ dateInZone \"15:04 Z07:00\" 1700000000 \"Asia/Kolkata\" }}",
    "{{ dateInZone \"15:04\" 1700000000 \"Nowhere/City\" }}", "{{ date_in_zone \"2006\" 0 \"UTC\" }}",
    "{{ toDate \"2006-01-02\" \"2024-02-29\" }}", "{{ toDate \"2006-01-02\" \"2024-02-30\" }}", "{{ toDate \"2006-01-02\" \"bad\" }}",
    "{{ mustToDate \"2006-01-02\" \"bad\" }}", "{{ mustToDate \"2006-01-02\" \"2024-13-01\" }}", "{{ toDate \"2006-01-02T15:04:05Z07:00\" \"2024-05-06T07:08:09+02:00\" | date \"2006-01-02 15:04:05 MST\" }}",
    "{{ toDate \"2006-01-02T15:04:05Z07:00\" \"2024-05-06T07:08:09Z\" | unixEpoch }}", "{{ toDate \"Jan 2, 2006 at 3:04pm (MST)\" \"Feb 3, 2013 at 7:54pm (PST)\" }}",
    "{{ toDate \"2006-01-02 15:04:05.000\" \"2024-01-01 10:00:00.123\" | date \"15:04:05.000000\" }}",
    "{{ (toDate \"2006-01-02\" \"2024-03-10\").Format \"Monday, January 2 2006\" }}", "{{ (toDate \"2006-01-02\" \"2024-03-10\").Year }}",
    "{{ (toDate \"2006-01-02\" \"2024-03-10\").Unix }}", "{{ toDate \"2006-01-02\" \"2024-03-10\" | date \"Mon Jan _2 3:04:05 PM 06 .000 .999 002\" }}",
    "{{ toDate \"2006-01-02 15:04\" \"2024-03-10 00:30\" | date \"3pm 03PM 15h\" }}", "{{ toDate \"02/01/2006\" \"31/12/1999\" | htmlDate }}",
    "{{ htmlDateInZone 1700000000 \"Asia/Tokyo\" }}", "{{ htmlDate 86400 }}", "{{ toDate \"2006-01-02\" \"2024-01-01\" | dateModify \"1.5h\" }}",
    "{{ toDate \"2006-01-02\" \"2024-01-01\" | dateModify \"-24h\" | date \"2006-01-02\" }}", "{{ toDate \"2006-01-02\" \"2024-01-01\" | dateModify \"bad\" }}",
    "{{ toDate \"2006-01-02\" \"2024-01-01\" | mustDateModify \"bad\" }}", "{{ toDate \"2006-01-02\" \"2024-01-01\" | date_modify \"90m\" | date \"15:04\" }}",
    "{{ toDate \"2006-01-02\" \"2024-01-01\" | mustDateModify \"1h30m15.5s\" }}", "{{ toDate \"2006-01-02\" \"2024-01-01\" | unixEpoch }}",
    "{{ duration \"95\" }}", "{{ duration 95 }}", "{{ duration (atoi \"3700\") }}", "{{ duration (add 3700 0) }}", "{{ duration \"0\" }}",
    "{{ duration \"86400\" }}", "{{ durationRound \"2h10m\" }}", "{{ durationRound \"400h\" }}", "{{ durationRound \"800h\" }}",
    "{{ durationRound \"9000h\" }}", "{{ durationRound \"59s\" }}", "{{ durationRound \"1ms\" }}", "{{ durationRound (mul 1000000000 90) }}",
    "{{ durationRound \"-3h\" }}", "{{ durationRound \"bad\" }}", "{{ ago (toDate \"2006\" \"2000\") | len | lt 5 }}", "{{ date \"2006\" .f | len }}",
    "{{ toDate \"2006-01-02\" \"2024-03-10\" | date \"2006-01-02T15:04:05Z07:00\" }}", "{{ toDate \"2006-01-02 MST\" \"2024-03-10 CET\" }}",
    "{{ toDate \"15:04\" \"25:00\" }}", "{{ toDate \"2006-01-02\" \"2024-03-10x\" }}", "{{ toJSON (toDate \"2006-01-02\" \"2024-03-10\") }}",
    "{{ eq (toDate \"2006\" \"2020\") (toDate \"2006\" \"2020\") }}", "{{ unixEpoch .s }}", "{{ date \"2006\" (toDate \"2006\" \"1999\") }}",
]

GH = {"action": "opened", "sender": {"login": "octo"}, "repository": {"full_name": "o/r", "stargazers_count": 42},
      "pull_request": {"title": "Fix <bug> & \"quotes\"", "number": 17, "labels": [{"name": "bug"}, {"name": "ui"}]}}
GRAFANA = {"status": "firing", "alerts": [
    {"status": "firing", "labels": {"alertname": "HighCPU", "instance": "web-1"}, "annotations": {"summary": "CPU at 97.5%"}, "values": {"B": 97.5}},
    {"status": "resolved", "labels": {"alertname": "DiskFull", "instance": "db-1"}, "annotations": {}, "values": {"B": 12}}],
    "commonLabels": {"severity": "critical"}, "externalURL": "http://grafana:3000/"}

realistic = [
    ("{{.sender.login}} {{.action}} PR #{{.pull_request.number}}: {{.pull_request.title}}", GH),
    ("{{ .pull_request.title | html }}", GH), ("{{ .pull_request.title | toJSON }}", GH),
    ("{{ range $i, $l := .pull_request.labels }}{{ if $i }}, {{ end }}{{ $l.name }}{{ end }}", GH),
    ("{{ $names := list }}{{ range .pull_request.labels }}{{ $names = append $names .name }}{{ end }}{{ join \",\" $names }}", GH),
    ("⭐ {{ .repository.stargazers_count }} {{ if gt .repository.stargazers_count 40.0 }}popular{{ end }}", GH),
    ("{{ if eq .status \"firing\" }}🔥{{ else }}✅{{ end }} {{ len .alerts }} alert(s)", GRAFANA),
    ("{{ range .alerts }}[{{ .status | upper }}] {{ .labels.alertname }} on {{ .labels.instance }}: {{ .annotations.summary | default \"no summary\" }}\n{{ end }}", GRAFANA),
    ("{{ range .alerts }}{{ printf \"%.1f\" .values.B }} {{ end }}", GRAFANA),
    ("{{ with (index .alerts 0) }}{{ .labels.alertname }}{{ end }}", GRAFANA),
    ("{{ .commonLabels.severity | title }} — {{ .externalURL | trimSuffix \"/\" }}", GRAFANA),
    ("{{ range $k, $v := .commonLabels }}{{ $k }}={{ $v }}{{ end }}", GRAFANA),
    ("{{ (urlParse .externalURL).host }}", GRAFANA),
    ("{{ toPrettyJSON .commonLabels }}", GRAFANA),
    ("{{ .alerts | len | printf \"%03d\" }}", GRAFANA),
]

data = [
    ("{{ . }}", "just a string"), ("{{ . }}", 42), ("{{ . }}", 0.1), ("{{ . }}", None), ("{{ .x }}", None), ("{{ . }}", [1, [2, [3]]]),
    ("{{ .a }}", [1]), ("{{ range . }}{{ . }},{{ end }}", [1.5, "x", False]), ("{{ . }}", -0.0), ("{{ . }}", 1e-7),
    ("{{ . }}", 123456789), ("{{ . }}", 9007199254740993), ("{{ . }}", 1.0), ("{{ . }}", 100000), ("{{ . }}", 1e20), ("{{ . }}", 1e21),
    ("{{ . }}", {"B": 1, "a": 2, "é": 3, "_": 4, "1": 5}), ("{{ range $k, $v := . }}{{ $k }}{{ end }}", {"b": 1, "a": 2, "B": 3, "ä": 4}),
    ("{{ keys . | sortAlpha }}", {"b": 1, "a": 2, "B": 3}), ("{{ .a.b.c }}", {"a": {"b": {"c": None}}}), ("{{ .a.b.c }}", {"a": {"b": None}}),
    ("{{ .a.b.c }}", {"a": {}}), ("{{ if .a.b }}y{{ else }}n{{ end }}", {"a": {"b": [0]}}), ("{{ index . \"key with space\" }}", {"key with space": "v"}),
    ("{{ index . \"a-b\" }}", {"a-b": 1}), ("{{ .emoji }} {{ len .emoji }} {{ upper .emoji }}", {"emoji": "🔔 ring"}),
    ("{{ printf \"%q\" .s }}", {"s": "tab\there \u0007 é 🔔"}), ("{{ printf \"%-6s|%6s|\" .s .s }}", {"s": "héé"}),
    ("{{ trunc 2 .s }}", {"s": "éé"}), ("{{ printf \"%x\" .s }}", {"s": "é"}), ("{{ toJSON . }}", {"s": "é<>&\u2028", "n": 1.5e300, "z": -0.0}),
    ("{{ toJSON . }}", {"n": 1e-7, "m": 123456789012, "k": 0.000001}), ("{{ .s | js }}", {"s": "</script>'\"\u0000"}),
    ("{{ .s | urlquery }}", {"s": "a+b c/d?e=f&g"}), ("{{ .s | html }}", {"s": "\u0000<>"}), ("{{ len . }}", {"a": 1, "b": 2}),
    ("{{ $x := . }}{{ range $x }}{{ . }}{{ end }}", [3, 2, 1]), ("{{ range $i, $v := . }}{{ $i }}{{ $v }}{{ end }}", {"x": [1], "y": {"z": 1}}),
    ("{{ range . }}{{ if eq . \"stop\" }}{{ break }}{{ end }}{{ . }} {{ end }}", ["a", "b", "stop", "c"]),
    ("{{ range . }}{{ range . }}{{ if eq . 2.0 }}{{ continue }}{{ end }}{{ . }}{{ end }};{{ end }}", [[1, 2, 3], [2, 4]]),
    ("{{ range $i, $e := . }}{{ $.x }}{{ end }}", {"x": "X", "y": 1}), ("{{ with .a }}{{ $.b }}{{ . }}{{ end }}", {"a": "A", "b": "B"}),
    ("{{ eq .a .b }}", {"a": "x", "b": "x"}), ("{{ eq .a .b }}", {"a": 1, "b": 1.0}), ("{{ lt .a .b }}", {"a": 1, "b": 2}),
    ("{{ eq .a nil }}", {"a": None}), ("{{ default 5 .a | printf \"%v\" }}", {"a": 0}), ("{{ coalesce .a .b \"c\" }}", {"a": None, "b": ""}),
    ("{{ add .a .b }}", {"a": 1.9, "b": 2.9}), ("{{ add .a 1 }}", {"a": "5"}), ("{{ mul .a 2 }}", {"a": 1e19}), ("{{ round .a 1 }}", {"a": 2.45}),
    ("{{ floor .a }} {{ ceil .a }}", {"a": -0.5}), ("{{ date \"2006-01-02\" (toDate \"2006-01-02T15:04:05Z07:00\" .t) }}", {"t": "2024-02-29T23:59:59-05:00"}),
    ("{{ (toDate \"2006-01-02T15:04:05Z07:00\" .t).UTC }}", {"t": "2024-02-29T23:59:59-05:00"}),
    ("{{ toDate \"2006-01-02T15:04:05.999999999Z07:00\" .t }}", {"t": "2024-02-29T23:59:59.123456789+05:30"}),
    ("{{ dateInZone \"Mon, 02 Jan 2006 15:04:05 -0700\" (toDate \"2006-01-02\" .d) \"Europe/Berlin\" }}", {"d": "2024-07-01"}),
    ("{{ duration .s }}", {"s": "3661"}), ("{{ atoi .s | add1 }}", {"s": "41"}), ("{{ .s | b64dec }}", {"s": "8J+UlA=="}),
    ("{{ regexFindAll \"[a-z]+@[a-z.]+\" .s -1 }}", {"s": "mail a@b.com and c@d.org"}), ("{{ regexReplaceAll \"\\\\s+\" .s \" \" }}", {"s": "a  b\t\nc"}),
    ("{{ splitList \"\\n\" .s | len }}", {"s": "a\nb\nc"}), ("{{ range splitList \",\" .s }}[{{ trim . }}]{{ end }}", {"s": " a, b ,c "}),
    ("{{ .s | nindent 4 }}", {"s": "line1\nline2"}), ("{{ .s | indent 2 | trim }}", {"s": "x\ny"}), ("{{ .s | quote }}", {"s": "say \"hi\"\n"}),
    ("{{ .l | sortAlpha | join \"|\" }}", {"l": ["b", "B", "a", "é", "10", "9"]}), ("{{ .l | uniq }}", {"l": [1, 1.0, "1", True, True]}),
    ("{{ has .n .l }}", {"n": 2, "l": [1, 2]}), ("{{ without .l .n }}", {"n": 2, "l": [1, 2]}), ("{{ .l | toStrings }}", {"l": [1.5, None, "x", {"a": 1}]}),
    ("{{ .m | toRawJSON }}", {"m": {"html": "<b>&</b>", "list": [], "obj": {}}}), ("{{ dig \"a\" \"b\" \"none\" . }}", {"a": {"b": False}}),
    ("{{ pick . \"a\" | toJSON }}", {"a": 1, "b": 2}), ("{{ (omit . \"a\").b }}", {"a": 1, "b": 2}), ("{{ values . }}", {"b": 1, "a": 2}),
    ("{{ (fromJSON .j).x }}", {"j": "{\"x\": [1, {\"y\": 2}]}"}), ("{{ kindOf . }} {{ typeOf . }}", [1]), ("{{ kindOf . }} {{ typeOf . }}", "s"),
]

groups = {"realistic": realistic, "data": data, "syntax": syntax, "builtins": builtins, "printf": printf, "strings": strings_, "lists": lists, "math": math,
          "defaults": defaults, "dicts": dicts, "misc": misc, "dates": dates}

out_dir = sys.argv[1]
for name, rows in groups.items():
    path = os.path.join(out_dir, name + ".json")
    cases = [{"t": r} if isinstance(r, str) else {"t": r[0], "d": r[1]} for r in rows]
    json.dump({"data": D, "cases": cases}, open(path, "w"), indent=2, ensure_ascii=False)
print(sum(len(r) for r in groups.values()), "cases")

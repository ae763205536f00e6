// Command template-oracle renders Tocsin's template conformance cases with Go's
// text/template and ntfy's Sprig subset, and writes the results back as the
// expected values. See README.md.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"text/template"

	"tocsin/tools/template-oracle/ntfysprig"
)

// disallowed mirrors ntfy's templateDisallowedRegex (server.go), plus block.
var disallowed = regexp.MustCompile(`(?m)\{\{-?\s*(call|template|define|block)\b`)

type testCase struct {
	Name string          `json:"name,omitempty"`
	T    string          `json:"t"`
	D    json.RawMessage `json:"d,omitempty"`
	Want *string         `json:"want,omitempty"`
	Err  string          `json:"err,omitempty"`
	Msg  string          `json:"msg,omitempty"`
}

// caseFile holds one group of cases; a case without its own data uses the file's.
type caseFile struct {
	Data  json.RawMessage `json:"data"`
	Cases []*testCase     `json:"cases"`
}

func render(c *testCase, fileData json.RawMessage) {
	c.Want, c.Err, c.Msg = nil, "", ""
	if disallowed.MatchString(c.T) {
		c.Err = "disallowed"
		return
	}
	raw := c.D
	if len(raw) == 0 {
		raw = fileData
	}
	var data any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &data); err != nil {
			panic(err)
		}
	}
	t, err := template.New("t").Funcs(ntfysprig.FuncMap()).Parse(c.T)
	if err != nil {
		c.Err, c.Msg = "parse", err.Error()
		return
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		c.Err, c.Msg = "exec", err.Error()
		return
	}
	s := buf.String()
	c.Want = &s
}

func main() {
	for _, path := range os.Args[1:] {
		raw, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		var file caseFile
		if err := json.Unmarshal(raw, &file); err != nil {
			panic(fmt.Sprintf("%s: %v", path, err))
		}
		for _, c := range file.Cases {
			render(c, file.Data)
		}
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(file); err != nil {
			panic(err)
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d cases\n", path, len(file.Cases))
	}
}

// Command webhooks renders the built-in templates (templates/*.yml) on every webhook fixture
// (test/fixtures/webhooks/TEMPLATE-*.json) as ntfy's renderTemplate does, and writes the
// results to test/fixtures/webhooks.expected.json, the expectations of
// test/integration/templates.test.ts. It renders ntfy's own built-ins on the same payloads
// and fails where ntfy renders a payload and Tocsin's file gives another title or message:
// Tocsin's templates may only differ where ntfy answers with an error.
//
//	go run ./webhooks -ntfy /path/to/ntfy/server/templates -ntfy-ref binwiederhier/ntfy@ae62e0d9
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"gopkg.in/yaml.v2"

	"tocsin/tools/template-oracle/ntfysprig"
)

// templateFile is ntfy's: nil fields are not rendered.
type templateFile struct {
	Title    *string `yaml:"title"`
	Message  *string `yaml:"message"`
	Priority *string `yaml:"priority"`
}

type rendered struct {
	Title, Message, Priority string
}

// expectation is one fixture's entry in the JSON: Tocsin's result (or its error), and
// whether ntfy's built-in gives the same ("same") or fails ("error: ...").
type expectation struct {
	Fixture  string `json:"fixture"`
	Template string `json:"template"`
	Title    string `json:"title,omitempty"`
	Message  string `json:"message,omitempty"`
	Priority int    `json:"priority,omitempty"`
	Error    string `json:"error,omitempty"`
	Ntfy     string `json:"ntfy"`
}

func main() {
	ntfyDir := flag.String("ntfy", "", "ntfy's server/templates directory (required)")
	ntfyRef := flag.String("ntfy-ref", "", "where ntfy's templates came from, recorded in the output")
	root := flag.String("repo", "../..", "the Tocsin repository")
	flag.Parse()
	if *ntfyDir == "" {
		fmt.Fprintln(os.Stderr, "usage: webhooks -ntfy DIR [-ntfy-ref REF] [-repo DIR]")
		os.Exit(2)
	}
	fixtures, err := filepath.Glob(filepath.Join(*root, "test/fixtures/webhooks/*.json"))
	check(err)
	sort.Strings(fixtures)
	var out []expectation
	mismatches := 0
	for _, path := range fixtures {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		tpl, _, _ := strings.Cut(name, "-")
		ours := readTemplate(filepath.Join(*root, "templates", tpl+".yml"))
		theirs := readTemplate(filepath.Join(*ntfyDir, tpl+".yml"))
		body, err := os.ReadFile(path)
		check(err)
		e := expectation{Fixture: name, Template: tpl}
		got, err := renderFile(ours, string(body))
		if err != nil {
			e.Error = err.Error()
		} else {
			e.Title, e.Message, e.Priority = got.Title, got.Message, parsePriority(got.Priority)
		}
		want, ntfyErr := renderFile(theirs, string(body))
		switch {
		case ntfyErr != nil:
			e.Ntfy = "error: " + ntfyErr.Error()
		case err != nil || got.Title != want.Title || got.Message != want.Message:
			mismatches++
			fmt.Fprintf(os.Stderr, "%s: ntfy renders\n  title:   %q\n  message: %q\nTocsin renders\n  title:   %q\n  message: %q\n  error:   %v\n",
				name, want.Title, want.Message, got.Title, got.Message, err)
			e.Ntfy = "differs"
		default:
			e.Ntfy = "same"
		}
		out = append(out, e)
		fmt.Printf("%-40s %s\n", name, e.Ntfy)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	check(enc.Encode(map[string]any{"ntfy": *ntfyRef, "cases": out}))
	check(os.WriteFile(filepath.Join(*root, "test/fixtures/webhooks.expected.json"), buf.Bytes(), 0o644))
	if mismatches > 0 {
		fmt.Fprintf(os.Stderr, "%d fixture(s) render differently from ntfy\n", mismatches)
		os.Exit(1)
	}
}

func readTemplate(path string) templateFile {
	b, err := os.ReadFile(path)
	check(err)
	var t templateFile
	check(yaml.Unmarshal(b, &t))
	return t
}

// renderFile follows ntfy's renderTemplateFromFile: the body is trimmed, then message,
// title and priority are rendered in that order; the first error stops it.
func renderFile(t templateFile, body string) (rendered, error) {
	var data any
	if err := json.Unmarshal([]byte(strings.TrimSpace(body)), &data); err != nil {
		return rendered{}, err
	}
	var r rendered
	var err error
	for _, f := range []struct {
		tpl *string
		out *string
	}{{t.Message, &r.Message}, {t.Title, &r.Title}, {t.Priority, &r.Priority}} {
		if f.tpl == nil {
			continue
		}
		if *f.out, err = render(*f.tpl, data); err != nil {
			return rendered{}, err
		}
	}
	return r, nil
}

// render is ntfy's renderTemplate without its DoS guards: "\n" left in the output (typed
// outside the actions) becomes a newline, and the result is trimmed with strings.TrimSpace.
func render(tpl string, data any) (string, error) {
	t, err := template.New("").Funcs(ntfysprig.FuncMap()).Parse(tpl)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "", err
	}
	return strings.TrimSpace(strings.ReplaceAll(buf.String(), "\\n", "\n")), nil
}

// parsePriority is ntfy's util.ParsePriority; "" is no priority (0).
func parsePriority(s string) int {
	switch strings.TrimSpace(strings.ToLower(s)) {
	case "":
		return 0
	case "1", "min":
		return 1
	case "2", "low":
		return 2
	case "3", "default":
		return 3
	case "4", "high":
		return 4
	case "5", "max", "urgent":
		return 5
	}
	panic("not a priority: " + s)
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

// Renders a template file (title, message, priority) against a webhook payload with Go's
// text/template and Sprig, as ntfy does, and prints the three results as JSON: the expected
// values of test/integration/templates.test.ts.
//
//	go run . ../../../templates/grafana.yml ../../../test/fixtures/webhooks/grafana-firing.json
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"gopkg.in/yaml.v2"
)

type tf struct {
	Title    *string `yaml:"title"`
	Message  *string `yaml:"message"`
	Priority *string `yaml:"priority"`
}

func render(tpl string, data any) string {
	t, err := template.New("").Funcs(sprig.TxtFuncMap()).Parse(tpl)
	if err != nil {
		return "PARSE ERROR: " + err.Error()
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "EXEC ERROR: " + err.Error()
	}
	return strings.TrimSpace(strings.ReplaceAll(buf.String(), "\\n", "\n"))
}

func main() {
	tplFile, dataFile := os.Args[1], os.Args[2]
	b, _ := os.ReadFile(tplFile)
	var t tf
	if err := yaml.Unmarshal(b, &t); err != nil {
		panic(err)
	}
	raw, _ := os.ReadFile(dataFile)
	var data any
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(raw))), &data); err != nil {
		panic(err)
	}
	out := map[string]string{}
	if t.Title != nil {
		out["title"] = render(*t.Title, data)
	}
	if t.Message != nil {
		out["message"] = render(*t.Message, data)
	}
	if t.Priority != nil {
		out["priority"] = render(*t.Priority, data)
	}
	j, _ := json.Marshal(out)
	fmt.Println(string(j))
}

package run

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// OCC 162f041 mcp-server/src/pipeline-executor.ts, resolveInputMapping:
// in a pipeline entry's inputs, {input} is the pipeline's inputs as one
// JSON object, {id.result} the result of the chain of that id ("" for an
// id no chain has), {id} the same result, and a {name} naming nothing
// stays as written. The chains called are OCC's: transforms.
func TestOCCPipelineTemplates(t *testing.T) {
	echo := load(t, occHead+"inputs: [{name: text}]\nsteps:\n  - {id: s, type: transform, operation: template, template_str: 'got {input.text}', output_var: out}\noutput: out\n")
	data := load(t, occHead+"inputs: [{name: text}]\nsteps:\n  - {id: s, type: transform, operation: template, template_str: '{\"result\": \"inner\", \"summary\": \"{input.text}\"}', output_var: out}\noutput: out\n")
	chains := func(name, _ string) (*chain.Chain, error) {
		switch name {
		case "echo":
			return echo, nil
		case "data":
			return data, nil
		}
		return nil, fmt.Errorf("no chain %s", name)
	}
	cases := []struct {
		name, first, text string
		inputs            map[string]string
		want              string
	}{
		{"{input} is the inputs as JSON", "echo", "{input}", map[string]string{"topic": `a<b & "c"`, "lang": "fr"}, `got {"lang":"fr","topic":"a<b & \"c\""}`},
		{"{input} without the optional one", "echo", "[{input}]", map[string]string{"topic": "tea"}, `got [{"topic":"tea"}]`},
		{"{id.result} and {id}", "echo", "{first.result}|{first}", map[string]string{"topic": "tea"}, "got got tea|got tea"},
		{"{id.result} of no chain is empty", "echo", "[{nothing.result}] [{nothing}]", map[string]string{"topic": "tea"}, "got [] [{nothing}]"},
		{"{id.result} is the whole result, {id.field} stays as written", "data", "{first.result}|{first.summary}", map[string]string{"topic": "tea"},
			`got {"result":"inner","summary":"tea"}|{first.summary}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "name: pipe\ninputs: [{name: topic}, {name: lang, optional: true}]\nchains:\n" +
				"  - {id: first, chain: " + tc.first + ", inputs: {text: \"{input.topic}\"}}\n" +
				"  - {id: second, chain: echo, depends_on: [first], inputs: {text: '" + tc.text + "'}}\noutput: second\n"
			l, err := parseChain("pipe.yaml", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := New(WithDir(t.TempDir()), WithChains(chains)).Run(context.Background(), Request{Chain: l.Chain, Inputs: tc.inputs})
			if err != nil || res.Status != record.Succeeded || outputText(res) != tc.want {
				t.Fatalf("err %v status %v output %q, want %q (%s)", err, res.Status, outputText(res), tc.want, res.Error)
			}
			if strings.Contains(tc.text, "nothing.result") && !strings.Contains(fmt.Sprint(l.Warnings), `{nothing.result} is ""`) {
				t.Fatalf("no warning: %v", l.Warnings)
			}
		})
	}
}

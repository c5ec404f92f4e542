package run

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// producing is a chain resolver whose chain "producer" outputs n copies
// of the letter c, and "consumer" outputs what it was given.
func producing(t *testing.T, c string, n int) ChainResolver {
	chains := map[string]*chain.Chain{
		"producer": load(t, "name: producer\nsteps:\n  - {id: p, type: transform, operation: template, template_str: '"+strings.Repeat(c, n)+"', output_var: out}\noutput: out\n"),
		"consumer": load(t, "name: consumer\ninputs: [data]\nsteps:\n  - {id: c, type: transform, expr: 'input.data', output_var: out}\noutput: out\n"),
	}
	return func(name, _ string) (*chain.Chain, error) {
		if ch := chains[name]; ch != nil {
			return ch, nil
		}
		return nil, fmt.Errorf("no chain %s", name)
	}
}

// OCC 162f041 mcp-server/tests/pipeline-executor.test.ts,
// "executePipeline: inter-chain summarization": without summarize_output
// an output passes as it is, and one over 100,000 characters is cut there
// ("[auto-truncated from 200000 chars]"); summarize_output: 200 cuts one
// over 200 characters ("[truncated from 5000 chars]"); summarize_output:
// true leaves an output of at most 500 characters alone, asks the model
// for one over 5,000 ("Summarize concisely, …", the summary is passed
// on), and when the summary fails passes the first 5,000 characters
// ("[truncated — summarization failed]"). What the next chain reads is
// what is passed on.
func TestOCCPipelineSummarizeOutput(t *testing.T) {
	cases := []struct {
		name, letter, field string
		n                   int
		reply               llmtest.Reply
		want                func(string) bool
		requests            int
	}{
		{"passthrough", "x", "", 1000, llmtest.Reply{}, func(s string) bool { return s == strings.Repeat("x", 1000) }, 0},
		{"auto-truncate at 100k", "C", "", 200000, llmtest.Reply{}, func(s string) bool {
			return s == strings.Repeat("C", 100000)+"\n[auto-truncated from 200000 chars]"
		}, 0},
		{"summarize_output: 200", "A", "summarize_output: 200", 5000, llmtest.Reply{}, func(s string) bool {
			return s == strings.Repeat("A", 200)+"\n[truncated from 5000 chars]"
		}, 0},
		{"short output, summarize_output: true", "D", "summarize_output: true", 300, llmtest.Reply{}, func(s string) bool { return s == strings.Repeat("D", 300) }, 0},
		{"summarize_output: true", "B", "summarize_output: true", 8000, llmtest.Reply{Text: "This is the summary of the output."}, func(s string) bool { return s == "This is the summary of the output." }, 1},
		{"summary fails", "F", "summarize_output: true", 8000, llmtest.Reply{Status: 400}, func(s string) bool {
			return s == strings.Repeat("F", 5000)+"\n[truncated — summarization failed]"
		}, 1},
		{"no auto-truncate with summarize_output", "G", "summarize_output: true", 200000, llmtest.Reply{Text: "Summarized 200k chars of G's."}, func(s string) bool { return s == "Summarized 200k chars of G's." }, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var prompt string
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				prompt = r.LastUserMessage()
				return tc.reply
			})
			defer s.Close()
			field := ""
			if tc.field != "" {
				field = "\n    " + tc.field
			}
			// the next chain reads what c1 passes on; a consumer of 100,035
			// characters would be cut in its turn, so that case reads c1
			output := "c2"
			if tc.n > chain.PipeAutoLimit && tc.field == "" {
				output = "c1"
			}
			src := "name: p\nchains:\n  - id: c1\n    chain: producer" + field + "\n  - id: c2\n    chain: consumer\n    depends_on: [c1]\n    inputs: {data: '{c1}'}\noutput: " + output + "\n"
			res, err := New(WithDir(t.TempDir()), WithChains(producing(t, tc.letter, tc.n)), WithModels(registryFor(s, nil)), WithDefaultModel("openai/m")).
				Run(context.Background(), Request{Chain: load(t, src)})
			if err != nil {
				t.Fatal(err)
			}
			out := outputText(res)
			if res.Status != record.Succeeded || !tc.want(out) || s.Count() != tc.requests {
				t.Fatalf("status %s, %d characters (%q…), %d requests (err %s)", res.Status, len(out), out[:min(40, len(out))], s.Count(), res.Error)
			}
			if tc.requests > 0 && !strings.HasPrefix(prompt, "Summarize concisely, preserving key technical details, decisions, and data:\n\n"+tc.letter) {
				t.Errorf("the summary's prompt begins %q", prompt[:min(90, len(prompt))])
			}
		})
	}
}

// A summarize_output that is neither true nor a number of characters is
// refused when the pipeline loads, naming the entry.
func TestOCCPipelineSummarizeOutputRefused(t *testing.T) {
	for _, v := range []string{"0", "-5", "short", "[1]"} {
		_, err := parseChain("p.yaml", []byte("name: p\nchains:\n  - {id: c1, chain: producer, summarize_output: "+v+"}\noutput: c1\n"), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), "c1: summarize_output is true or a number") {
			t.Errorf("summarize_output: %s: err %v", v, err)
		}
	}
}

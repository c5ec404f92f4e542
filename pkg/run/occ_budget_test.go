package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// OCC's context budget, as OCC 162f041 mcp-server/tests/context-budget.test.ts
// pins autoCompressVars and its executor.ts (13d9853, executeChain: "Auto-
// compress vars if context budget exceeded") applies it after each step:
// max_context_chars (the chain's; 50000 unless written), the three latest
// variables and the inputs kept whole, older outputs of 500 characters or
// more summarized, largest first, until the variables fit, else cut to
// 1000 characters and "[auto-truncated from N chars]".

// budgetChain makes a chain of transforms run one after another, each
// a value of n copies of a letter, and a last one reading them all.
func budgetChain(limit string, values [][2]string, reads string) string {
	var b strings.Builder
	b.WriteString(occHead + limit + "inputs: [{name: doc, optional: true}]\nsteps:\n")
	prev := ""
	for _, v := range values {
		b.WriteString("  - {id: " + v[0] + ", type: transform, expr: '" + v[1] + "', output_var: " + v[0])
		if prev != "" {
			b.WriteString(", depends_on: [" + prev + "]")
		}
		b.WriteString("}\n")
		prev = v[0]
	}
	b.WriteString("  - {id: last, type: transform, operation: template, template_str: \"" + reads + "\", depends_on: [" + prev + "], output_var: last}\noutput: last\n")
	return b.String()
}

func TestOCCContextBudget(t *testing.T) {
	doc := strings.Repeat("I", 6000)
	cases := []struct {
		name, limit string
		values      [][2]string
		inputs      map[string]string
		reads, want string
		warned      bool
	}{
		{
			// "does not modify vars when total < maxChars"
			name:   "under the budget nothing changes",
			values: [][2]string{{"a", `repeat("A", 8000)`}, {"b", `repeat("B", 9000)`}, {"r1", `"1"`}, {"r2", `"2"`}, {"r3", `"3"`}},
			reads:  "{a}|{b}", want: strings.Repeat("A", 8000) + "|" + strings.Repeat("B", 9000),
		},
		{
			// "never compresses input.* vars", "keeps last recentKeepCount
			// step vars untouched", "truncates to 1000 chars when compress
			// fails", "does not compress old vars < 500 chars": a transform
			// calls no model, so its older outputs are cut
			name: "inputs, the latest three and small values stay; an older output is cut", limit: "max_context_chars: 5000\n",
			values: [][2]string{{"tiny", `repeat("S", 400)`}, {"a", `repeat("A", 8000)`}, {"r1", `"1"`}, {"r2", `"2"`}, {"r3", `repeat("R", 700)`}},
			inputs: map[string]string{"doc": doc},
			reads:  "{tiny}|{a}|{r3}|{input.doc}",
			want:   strings.Repeat("S", 400) + "|" + strings.Repeat("A", 1000) + "\n[auto-truncated from 8000 chars]|" + strings.Repeat("R", 700) + "|" + doc,
			warned: true,
		},
		{
			// "stops after first compression if budget met", "compresses
			// largest first for max impact"
			name: "largest first, until the variables fit", limit: "max_context_chars: 10500\n",
			values: [][2]string{{"small", `repeat("S", 3000)`}, {"big", `repeat("B", 7000)`}, {"r1", `"1"`}, {"r2", `"2"`}, {"r3", `repeat("R", 1000)`}},
			reads:  "{small}|{big}",
			want:   strings.Repeat("S", 3000) + "|" + strings.Repeat("B", 1000) + "\n[auto-truncated from 7000 chars]",
			warned: true,
		},
		{
			// executor.ts: `if (maxCtx > 0)`: 0 turns the budget off
			name: "max_context_chars: 0 is no budget", limit: "max_context_chars: 0\n",
			values: [][2]string{{"a", `repeat("A", 60000)`}, {"r1", `"1"`}, {"r2", `"2"`}, {"r3", `"3"`}, {"r4", `"4"`}},
			reads:  "{a}", want: strings.Repeat("A", 60000),
		},
		{
			// OCC's default budget, 50000, with nothing written
			name:   "50000 characters unless written",
			values: [][2]string{{"a", `repeat("A", 60000)`}, {"r1", `"1"`}, {"r2", `"2"`}, {"r3", `"3"`}, {"r4", `"4"`}},
			reads:  "{a}", want: strings.Repeat("A", 1000) + "\n[auto-truncated from 60000 chars]",
			warned: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runChain(t, budgetChain(tc.limit, tc.values, tc.reads), tc.inputs)
			if res.Status != record.Succeeded || outputText(res) != tc.want {
				t.Fatalf("status %s err %s\noutput %.200q… (%d chars)\nwant   %.200q… (%d chars)", res.Status, res.Error, outputText(res), len(outputText(res)), tc.want, len(tc.want))
			}
			warned := strings.Contains(strings.Join(res.Warnings, "\n"), "context budget")
			if warned != tc.warned {
				t.Fatalf("warned %v, want %v: %q", warned, tc.warned, res.Warnings)
			}
			for _, v := range tc.values {
				if out, _ := res.Vars[v[0]].(string); strings.Contains(out, "[auto-truncated") {
					t.Fatalf("variable %s was changed in the result: %.100q", v[0], out)
				}
			}
		})
	}
}

// "uses compress function and stores result": an agent step's models
// summarize the older outputs (OCC's Haiku), one request each, and the
// later steps read the summary.
func TestOCCContextBudgetSummarizes(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		m := r.LastUserMessage()
		switch {
		case strings.HasPrefix(m, "Summarise"):
			return llmtest.Reply{Text: "[compressed summary]"}
		case strings.Contains(m, "write long"):
			return llmtest.Reply{Text: strings.Repeat("X", 5000)}
		}
		return llmtest.Reply{Text: "short"}
	})
	defer s.Close()
	src := occHead + `max_context_chars: 2000
steps:
  - {id: a, model: openai/m, prompt: "write long", output_var: a}
  - {id: b, model: openai/m, prompt: "b", depends_on: [a], output_var: b}
  - {id: c, model: openai/m, prompt: "c", depends_on: [b], output_var: c}
  - {id: d, model: openai/m, prompt: "d", depends_on: [c], output_var: d}
  - {id: last, type: transform, operation: template, template_str: "{a}", depends_on: [d], output_var: last}
output: last
`
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || outputText(res) != "[compressed summary]" {
		t.Fatalf("status %s err %s output %.100q", res.Status, res.Error, outputText(res))
	}
	summaries := 0
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.LastUserMessage(), "Summarise") {
			summaries++
		}
	}
	if summaries != 1 || !strings.Contains(strings.Join(res.Warnings, "\n"), "a summarized (5000 → 20 chars)") {
		t.Fatalf("%d summaries, warnings %q", summaries, res.Warnings)
	}
}

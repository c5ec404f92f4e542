package run

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestTransformOperations: each of OCC's transform operations, over
// input_var or the rendered prompt.
func TestTransformOperations(t *testing.T) {
	const head = "name: t\ninputs: [{name: x}]\nsteps:\n  - id: op\n    type: transform\n    output_var: out\n"
	cases := []struct {
		name, fields, input, want string
	}{
		{"json_extract field", "operation: json_extract\n    input_var: input.x\n    json_path: a.b", `{"a":{"b":"deep"}}`, "deep"},
		{"json_extract in fence", "operation: json_extract\n    input_var: input.x\n    json_path: $.list.1", "```json\n{\"list\":[1,2]}\n```", "2"},
		{"json_extract star", "operation: json_extract\n    input_var: input.x\n    json_path: items.*.n", `{"items":[{"n":"a"},{"n":"b"}]}`, `["a","b"]`},
		{"regex_match", "operation: regex_match\n    input_var: input.x\n    regex: '[0-9]+'", "a1 b22 c333", "1\n22\n333"},
		{"template", "operation: template\n    template_str: 'got {input.x}!'", "v", "got v!"},
		{"split", "operation: split\n    input_var: input.x", "a\n\nb", `["a","b"]`},
		{"to_json", "operation: to_json\n    prompt: '{input.x}'", "a\nb", `["a","b"]`},
		{"truncate", "operation: truncate\n    input_var: input.x\n    truncate_limit: 3", "abcdef", "abc\n[truncated from 6 chars]"},
		{"replace", "operation: replace\n    input_var: input.x\n    regex: '(\\w+)@'\n    template_str: '${1} at '", "me@home", "me at home"},
		{"filter", "operation: filter\n    input_var: input.x\n    regex: '^keep'", "keep 1\ndrop\nkeep 2", "keep 1\nkeep 2"},
		{"map", "operation: map\n    input_var: input.x\n    template_str: '{index}: {item}'", "a\nb", "0: a\n1: b"},
		{"join", "operation: join\n    input_var: input.x\n    template_str: ', '", `["a","b",3]`, "a, b, 3"},
		{"join not a list", "operation: join\n    input_var: input.x", "plain", "plain"},
		{"from_json object in order", "operation: from_json\n    input_var: input.x", `{"z":1,"a":"b"}`, "z: 1\na: b"},
		{"from_json list", "operation: from_json\n    input_var: input.x", `["a",2]`, "a\n2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runChain(t, head+"    "+tc.fields+"\noutput: out\n", map[string]string{"x": tc.input})
			if res.Status != record.Succeeded {
				t.Fatalf("status %s: %s", res.Status, res.Error)
			}
			got, ok := res.Output.(string)
			if !ok {
				b, _ := json.Marshal(res.Output)
				got = string(b)
			}
			if got != tc.want {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJSONExtractFailsClearly: input that is not JSON, or a path that is
// not there, fails the step saying which.
func TestJSONExtractFailsClearly(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{"not json", "json_extract: input_var input.x is not JSON"},
		{`{"a":1}`, `json_extract: json_path b: no field "b"`},
	} {
		res := runChain(t, "name: t\ninputs: [x]\nsteps:\n  - {id: op, type: transform, operation: json_extract, input_var: input.x, json_path: b, output_var: out}\noutput: out\n", map[string]string{"x": tc.input})
		if res.Status != record.Failed || !strings.Contains(res.Error, tc.want) {
			t.Errorf("%q: status %s error %q, want %q", tc.input, res.Status, res.Error, tc.want)
		}
	}
}

// TestOCCLoop: a loop runs its template per item (static items, a JSON
// list, or a comma list), in item order, with {item_index} and
// {loop_total}; loop_until stops it; loop_on_error continue keeps going.
func TestOCCLoop(t *testing.T) {
	// the template is an agent step (OCC's default type) whose model
	// answers its prompt and refuses the item "bad"
	const tmpl = "    step_template:\n      model: openai/m\n      prompt: '{item_index}/{loop_total}:{item}'\n"
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.HasSuffix(r.LastUserMessage(), ":bad") {
			return llmtest.Reply{Status: 400}
		}
		return llmtest.Reply{Text: r.LastUserMessage()}
	})
	defer s.Close()
	cases := []struct {
		name, fields string
		inputs       map[string]string
		want         string
		fail         string
	}{
		{"static", "    items_static: [a, b, c]\n    max_parallel: 1\n", nil, `["0/3:a","1/3:b","2/3:c"]`, ""},
		{"comma list input", "    items_var: input.x\n", map[string]string{"x": "a, b"}, `["0/2:a","1/2:b"]`, ""},
		{"json list input", "    items_var: input.x\n", map[string]string{"x": `["p","q"]`}, `["0/2:p","1/2:q"]`, ""},
		{"until", "    items_static: [a, b, c, d]\n    max_parallel: 1\n    loop_until: 'len(loop_result) >= 2'\n", nil, `["0/4:a","1/4:b"]`, ""},
		{"error aborts", "    items_static: [a, bad, c]\n", nil, "", "item 1 (bad)"},
		{"error continues", "    items_static: [a, bad]\n    loop_on_error: continue\n", nil, `["0/2:a","[ERROR: openai: HTTP 400: scripted error 400]"]`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "name: t\ninputs: [{name: x, optional: true}]\nsteps:\n  - id: l\n    type: loop\n    prompt: described\n" + tc.fields + tmpl + "    output_var: out\noutput: out\n"
			res := runChain(t, src, tc.inputs, WithModels(registryFor(s, nil)))
			if tc.fail != "" {
				if res.Status != record.Failed || !strings.Contains(res.Error, tc.fail) {
					t.Fatalf("status %s error %q, want %q", res.Status, res.Error, tc.fail)
				}
				return
			}
			b, _ := json.Marshal(res.Output)
			if res.Status != record.Succeeded || string(b) != tc.want {
				t.Fatalf("status %s output %s (error %q), want %s", res.Status, b, res.Error, tc.want)
			}
		})
	}
}

// TestMergeStrategies: concatenate and json_array combine the inputs;
// llm_summarize asks the model with the step's prompt, the inputs it does
// not read itself appended.
func TestMergeStrategies(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "model saw: " + r.LastUserMessage()} })
	defer s.Close()
	const head = "name: t\nsteps:\n  - {id: a, type: transform, operation: template, template_str: one, output_var: a}\n  - {id: b, type: transform, operation: template, template_str: '{\"k\": 2}', output_var: b}\n  - {id: e, type: transform, operation: template, template_str: '', output_var: e}\n  - id: m\n    type: merge\n    depends_on: [a, b, e]\n    inputs: [a, b, e]\n    output_var: out\n"
	for _, tc := range []struct{ fields, want string }{
		{"    strategy: concatenate\n", "one\n\n---\n\n{\"k\": 2}"},
		{"    strategy: json_array\n", `["one",{"k":2},""]`},
		{"    strategy: llm_summarize\n    model: anthropic/claude-haiku-4-5\n    prompt: 'Join {a} with the rest'\n", "model saw: Join one with the rest\n\n## b\n{\"k\": 2}\n\n## e\n"},
	} {
		res := runChain(t, head+tc.fields+"output: out\n", nil, WithModels(registryFor(s, nil)))
		got, ok := res.Output.(string)
		if !ok {
			b, _ := json.Marshal(res.Output)
			got = string(b)
		}
		if res.Status != record.Succeeded || got != tc.want {
			t.Errorf("%sstatus %s output %q (error %q), want %q", tc.fields, res.Status, got, res.Error, tc.want)
		}
	}
	if m := step(t, runChain(t, head+"    strategy: pick_best\n    model: anthropic/claude-haiku-4-5\noutput: out\n", nil, WithModels(registryFor(s, nil))), "m"); m.Usage == nil || m.Usage.LLMCalls != 1 {
		t.Errorf("pick_best usage = %+v", m.Usage)
	}
}

// TestDebate: each agent answers; from the second round on each sees the
// other's last answer; the synthesis reads the final answers.
func TestDebate(t *testing.T) {
	var mu sync.Mutex
	var prompts []string
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		p := r.LastUserMessage()
		mu.Lock()
		prompts = append(prompts, p)
		mu.Unlock()
		if strings.HasPrefix(p, "Topic:") {
			return llmtest.Reply{Text: "SYNTH"}
		}
		return llmtest.Reply{Text: "view of " + strings.Fields(p)[0]}
	})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - id: d
    type: debate
    model: anthropic/claude-haiku-4-5
    prompt: pick a colour
    agents:
      - {role: Red, prompt: "RED argues"}
      - {role: Blue, prompt: "BLUE argues"}
    rounds: 2
    strategy: consensus
    output_var: out
output: out
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "SYNTH" {
		t.Fatalf("status %s output %v error %s", res.Status, res.Output, res.Error)
	}
	if d := step(t, res, "d"); d.Usage == nil || d.Usage.LLMCalls != 5 {
		t.Errorf("usage = %+v, want 5 calls (2 agents × 2 rounds + synthesis)", d.Usage)
	}
	joined := strings.Join(prompts, "\n=====\n")
	for _, want := range []string{"RED argues\n\n---\nOther agents' perspectives from the previous round:\n### Blue\nview of BLUE", "Topic: pick a colour", "## Red\nview of RED", "consensus"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no prompt holds %q:\n%s", want, joined)
		}
	}
}

// TestWebhookPostsPayload: a webhook POSTs the outputs of the steps it
// depends on as JSON, with secrets masked; its output is the response.
func TestWebhookPostsPayload(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = r.Method + " " + r.Header.Get("Content-Type") + " " + string(b)
		_, _ = w.Write([]byte("ok"))
	}))
	defer srv.Close()
	res := runChain(t, `
name: t
inputs: [{name: key, secret: true}]
steps:
  - {id: a, type: transform, operation: template, template_str: "report {input.key}", output_var: report}
  - {id: w, type: webhook, depends_on: [a], url: "`+srv.URL+`/hook", model: claude-sonnet-4-6, prompt: notify, output_var: resp}
output: resp
`, map[string]string{"key": "s3cret"})
	if res.Status != record.Succeeded || res.Output != "ok" {
		t.Fatalf("status %s output %v error %s", res.Status, res.Output, res.Error)
	}
	if !strings.HasPrefix(got, "POST application/json {") || !strings.Contains(got, `"outputs":{"report":"report ***"}`) || !strings.Contains(got, `"step":"w"`) || strings.Contains(got, "s3cret") {
		t.Errorf("request = %s", got)
	}
}

// TestBrowserStepFailsClearly: a browser step loads, and running it
// fails naming the step; continue_on_error lets the rest run.
func TestBrowserStepFailsClearly(t *testing.T) {
	res := runChain(t, "name: t\nsteps:\n  - {id: shot, type: browser, url: 'http://x', action: screenshot, prompt: look, continue_on_error: true, output_var: s}\n  - {id: after, type: transform, depends_on: [shot], expr: '\"went on\"', output_var: out}\noutput: out\n", nil)
	shot := step(t, res, "shot")
	if res.Status != record.Succeeded || !strings.Contains(shot.Error, `step "shot": browser steps are not supported`) {
		t.Errorf("status %s, shot error %q", res.Status, shot.Error)
	}
}

package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// cacheModel is a fake Anthropic prompt cache: a request's units (the
// system prompt, the tools, each message) cost len/4 tokens; a request
// with breakpoints reads from the cache the longest run of leading units
// an earlier request wrote, and writes the rest.
type cacheModel struct {
	mu      sync.Mutex
	written [][]string
}

func (m *cacheModel) use(r llmtest.Request) *llmtest.CacheUse {
	var body struct {
		System   json.RawMessage   `json:"system"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal([]byte(r.Raw()), &body)
	// a unit as the API sees it: what it says, not how its JSON is
	// ordered, and not where the breakpoints are
	strip := func(b json.RawMessage) string {
		var v any
		json.Unmarshal(b, &v)
		out, _ := json.Marshal(dropCacheControl(v))
		return string(out)
	}
	units := []string{strip(body.System)}
	for _, t := range body.Tools {
		units = append(units, strip(t))
	}
	for _, msg := range body.Messages {
		units = append(units, strip(msg))
	}
	tokens := func(us []string) int {
		n := 0
		for _, u := range us {
			n += len(u) / 4
		}
		return n
	}
	use := &llmtest.CacheUse{Input: tokens(units)}
	if !strings.Contains(r.Raw(), `"cache_control"`) {
		return use
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	best := 0
	for _, w := range m.written {
		n := 0
		for n < len(w) && n < len(units) && w[n] == units[n] {
			n++
		}
		if n == len(w) && n > best { // a whole earlier entry is a prefix
			best = n
		}
	}
	use.Read, use.Write = tokens(units[:best]), tokens(units[best:])
	m.written = append(m.written, units)
	return use
}

// dropCacheControl is v without its cache_control members.
func dropCacheControl(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "cache_control")
		for k, e := range v {
			v[k] = dropCacheControl(e)
		}
	case []any:
		for i, e := range v {
			v[i] = dropCacheControl(e)
		}
	}
	return v
}

// BenchmarkToolLoopPromptCache runs a 10-turn tool loop (each turn reads
// a 16 KB file) against a server that models Anthropic's prompt cache,
// with the breakpoints chainrun sets and without them, and reports the
// input cost of turns 3 to 10 at Claude Sonnet's list prices ($3, cache
// reads $0.30, writes $3.75 per million).
func BenchmarkToolLoopPromptCache(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("a line of a long file to read\n", 560)), 0o644)
	cost := func(u llmtest.CacheUse) float64 {
		return (float64(u.Input-u.Read-u.Write)*3 + float64(u.Read)*0.3 + float64(u.Write)*3.75) / 1e6
	}
	run := func(cache string) (late float64, requests int) {
		model := &cacheModel{}
		var mu sync.Mutex
		var uses []llmtest.CacheUse
		s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
			u := model.use(r)
			mu.Lock()
			uses = append(uses, *u)
			turn := len(uses)
			mu.Unlock()
			if turn < 10 {
				return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: `{"file_path":"big.txt"}`}}, Cache: u}
			}
			return llmtest.Reply{Text: "done", Cache: u}
		})
		defer s.Close()
		src := "name: t\nsteps:\n  - {id: loop, model: anthropic/claude-sonnet-4-6, system: read it all, prompt: read big.txt again and again, tools: [Read], max_turns: 10" + cache + "}\n"
		res, err := New(WithDir(dir), withCatalog, WithModels(registryFor(s, nil))).Run(context.Background(), Request{Chain: load(b, src)})
		if err != nil || res.Status != record.Succeeded {
			b.Fatal(err, res.Error)
		}
		for _, u := range uses[2:] {
			late += cost(u)
		}
		return late, len(uses)
	}
	var with, without float64
	for b.Loop() {
		w, n := run("")
		wo, _ := run(", prompt_cache: false")
		if n != 10 {
			b.Fatalf("%d requests", n)
		}
		with, without = w, wo
	}
	b.ReportMetric(with*1e3, "m$-turns3-10-cached")
	b.ReportMetric(without*1e3, "m$-turns3-10-plain")
	b.ReportMetric(100*(1-with/without), "%-saved")
}

// BenchmarkJSONAnswerRequests counts the requests a step with a
// json_schema guardrail spends per valid answer against a server that
// honours structured outputs (and answers prose without them).
func BenchmarkJSONAnswerRequests(b *testing.B) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if rf, _ := r.Body["response_format"].(map[string]any); rf["type"] == "json_schema" {
			return llmtest.Reply{Text: `{"verdict":"ship"}`}
		}
		return llmtest.Reply{Text: "I think we should ship."}
	})
	defer s.Close()
	c := load(b, `
name: t
steps:
  - id: judge
    model: openai/gpt-5-mini
    prompt: Ship or hold?
    retry: 3
    guardrails:
      - type: json_schema
        value: {type: object, properties: {verdict: {type: string, enum: [ship, hold]}}, required: [verdict], additionalProperties: false}
`)
	e := New(WithDir(b.TempDir()), withCatalog, WithModels(registryFor(s, nil)))
	valid := 0
	for b.Loop() {
		res, err := e.Run(context.Background(), Request{Chain: c})
		if err == nil && res.Status == record.Succeeded {
			valid++
		}
	}
	b.ReportMetric(float64(s.Count())/float64(valid), "requests/valid-answer")
}

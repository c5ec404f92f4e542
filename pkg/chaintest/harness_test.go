package chaintest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/run"
)

// project is a directory of chains and their tests, with a fake model
// server as the openai provider (and aliases over it).
type project struct {
	dir string
	srv *llmtest.Server
	reg *llm.Registry
}

func newProject(t *testing.T, answer func(llmtest.Request) llmtest.Reply, files map[string]string) *project {
	t.Helper()
	p := &project{dir: t.TempDir(), srv: llmtest.NewFunc(answer)}
	t.Cleanup(p.srv.Close)
	env := map[string]string{"OPENAI_API_KEY": "ok-fake-9876", "OPENAI_BASE_URL": p.srv.OpenAIURL()}
	p.reg = llm.NewRegistry(nil, "", func(k string) string { return env[k] }, nil)
	p.reg.SetAliases(map[string]llm.Alias{"fast": {Model: "openai/gpt-fast"}})
	for name, text := range files {
		path := filepath.Join(p.dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// runner is a runner of the project's tests in mode.
func (p *project) runner(mode cassette.Mode) *Runner {
	return &Runner{
		Mode:   mode,
		Models: p.reg,
		Prices: llm.NewPrices(map[string]llm.Price{"openai/gpt-a": {Input: 1, Output: 2}, "openai/gpt-b": {Input: 1, Output: 2}}),
		Engine: func(opts ...run.Option) run.Engine { return run.New(opts...) },
		Resolve: func(ref string, isPath bool) (*chain.Chain, error) {
			if !isPath {
				ref = filepath.Join(p.dir, ref+".yaml")
			}
			l, err := load.LoadFile(ref, chain.Options{})
			if err != nil {
				return nil, err
			}
			return l.Chain, nil
		},
		Parallel: 2,
	}
}

// run runs the project's test files named.
func (p *project) run(t *testing.T, r *Runner, names ...string) (*Report, error) {
	t.Helper()
	var files []*File
	for _, n := range names {
		f, err := Load(filepath.Join(p.dir, n))
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return r.Run(context.Background(), files)
}

// mustRun runs and fails the test on an error.
func (p *project) mustRun(t *testing.T, r *Runner, names ...string) *Report {
	t.Helper()
	rep, err := p.run(t, r, names...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// echoModel answers "MODEL says: PROMPT".
func echoModel(r llmtest.Request) llmtest.Reply {
	m, _ := r.Body["model"].(string)
	return llmtest.Reply{Text: m + " says: " + r.LastUserMessage()}
}

// askChain is a chain of one model step that names its model.
const askChain = `name: ask
inputs:
  - name: q
steps:
  - id: think
    model: openai/gpt-a
    prompt: "{input.q}"
    output_var: answer
output: answer
`

// assertionNamed finds a case's record of a check.
func assertionNamed(t *testing.T, cr *CaseReport, name string) Assertion {
	t.Helper()
	for _, a := range cr.Assertions {
		if a.Name == name {
			return a
		}
	}
	var names []string
	for _, a := range cr.Assertions {
		names = append(names, a.Name)
	}
	t.Fatalf("case %q has no assertion %s (it has: %s)", cr.Name, name, strings.Join(names, ", "))
	return Assertion{}
}

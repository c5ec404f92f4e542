package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/run"
)

// seamEngine runs nothing: cmd driven through it shows that the Engine
// interface is all cmd needs of an engine (a second engine, on Temporal,
// changes nothing here).
type seamEngine struct {
	status   run.Status
	refuse   error
	requests []run.Request
}

var _ run.Engine = (*seamEngine)(nil)

func (e *seamEngine) Run(_ context.Context, req run.Request) (*run.Result, error) {
	e.requests = append(e.requests, req)
	if e.refuse != nil {
		return nil, e.refuse
	}
	if req.Journal != nil {
		rec := run.StepRecord{Result: run.StepResult{ID: "s", Status: run.StepSucceeded, Attempts: 1}, Output: &run.SavedValue{Text: "done"}}
		if err := req.Journal.StepFinished(rec); err != nil {
			return nil, err
		}
	}
	res := &run.Result{RunID: req.RunID, Name: req.Chain.Name, Status: e.status, Output: "from the seam",
		Steps: []run.StepResult{{ID: "s", Status: run.StepSucceeded, Attempts: 1}}, Vars: map[string]any{}}
	if e.status != run.Succeeded {
		res.Error = "as scripted"
	}
	return res, nil
}

func (e *seamEngine) Plan(req run.Request) ([]run.PlannedStep, error) {
	e.requests = append(e.requests, req)
	return []run.PlannedStep{{ID: "s", Kind: "cli", Wave: 1, Action: "planned by the seam"}}, nil
}

func (e *seamEngine) CheckModels(c *chain.Chain) []error {
	return []error{&run.PreflightError{Kind: run.BadModel, File: c.File, Pos: c.Steps[0].At("id"), Step: "s", Msg: "the seam has no model"}}
}

// seamCLI runs one command line against e, in a directory with one chain
// and a state directory of its own.
func seamCLI(t *testing.T, e *seamEngine, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("CHAINRUN_CACHE_DIR", filepath.Join(dir, "cache"))
	io, _, out, errOut := iostreams.Test()
	f := newFactory(io)
	f.getwd = func() (string, error) { return dir, nil }
	f.engine = func(engineSetup) run.Engine { return e }
	code := execute(context.Background(), f, args)
	return code, out.String(), errOut.String()
}

func TestCommandsNeedOnlyTheEngineInterface(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(file, []byte("name: c\ninputs: [who]\nsteps:\n  - {id: s, type: cli, command: echo, args: [\"{input.who}\"]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		status run.Status
		code   int
	}{{run.Succeeded, exitOK}, {run.Failed, exitFailed}, {run.Paused, exitPaused}, {run.Interrupted, exitInterrupted}} {
		e := &seamEngine{status: tt.status}
		code, out, errOut := seamCLI(t, e, dir, "run", file, "--input", "who=me", "-o", "json", "-q")
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d (%s)", tt.status, code, tt.code, errOut)
		}
		var res run.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Status != tt.status || res.Output != "from the seam" {
			t.Fatalf("%s: printed %q (%v)", tt.status, out, err)
		}
		req := e.requests[0]
		if req.Inputs["who"] != "me" || req.Journal == nil || req.RunID != res.RunID {
			t.Errorf("%s: the engine was asked %+v", tt.status, req)
		}
	}

	// the run was saved through the seam: resume drives it again, with
	// what was saved
	e := &seamEngine{status: run.Succeeded}
	_, out, _ := seamCLI(t, e, dir, "run", file, "--input", "who=me", "-o", "json", "-q")
	var first run.Result
	_ = json.Unmarshal([]byte(out), &first)
	failing := &seamEngine{status: run.Failed}
	_, out, _ = seamCLI(t, failing, dir, "run", file, "--input", "who=you", "-o", "json", "-q")
	var failed run.Result
	_ = json.Unmarshal([]byte(out), &failed)
	e = &seamEngine{status: run.Succeeded}
	if code, _, errOut := seamCLI(t, e, dir, "resume", failed.RunID, "-q"); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	if req := e.requests[0]; req.RunID != failed.RunID || req.Inputs["who"] != "you" || req.Resume["s"].Output == nil {
		t.Errorf("resume asked the engine %+v", req)
	}

	// a refusal before anything ran is exit 2 and leaves no saved run
	refused := &seamEngine{refuse: &run.InputError{Chain: "c", Msg: "refused by the seam"}}
	code, _, errOut := seamCLI(t, refused, dir, "run", file, "--input", "who=me", "-q")
	if code != exitUsage || !strings.Contains(errOut, "refused by the seam") {
		t.Errorf("refusal: exit %d: %s", code, errOut)
	}
	_, out, _ = seamCLI(t, e, dir, "runs", "-o", "json")
	if strings.Count(out, `"run_id"`) != 6 {
		t.Errorf("want the 6 runs that started, and not the refused one, got %s", out)
	}

	// a dry run and validate ask the engine, not the Local engine
	code, out, _ = seamCLI(t, e, dir, "run", file, "--input", "who=me", "--dry-run")
	if code != exitOK || !strings.Contains(out, "planned by the seam") {
		t.Errorf("dry run: exit %d: %s", code, out)
	}
	code, out, errOut = seamCLI(t, e, dir, "validate", file)
	if code != exitOK || !strings.Contains(out+errOut, "the seam has no model") {
		t.Errorf("validate: exit %d: %s%s", code, out, errOut)
	}
}

package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// seamEngine runs nothing: cmd driven through it shows that the Engine
// interface is all cmd needs of an engine (a second engine, on Temporal,
// changes nothing here).
type seamEngine struct {
	status   record.Status
	refuse   error
	requests []run.Request
}

var _ run.Engine = (*seamEngine)(nil)

func (e *seamEngine) Run(_ context.Context, req run.Request) (*record.Result, error) {
	e.requests = append(e.requests, req)
	if e.refuse != nil {
		return nil, e.refuse
	}
	if req.Journal != nil {
		rec := record.StepRecord{Result: record.StepResult{ID: "s", Status: record.StepSucceeded, Attempts: 1}, Output: &record.SavedValue{Text: "done"}}
		if err := req.Journal.StepFinished(rec); err != nil {
			return nil, err
		}
	}
	res := &record.Result{RunID: req.RunID, Name: req.Chain.Name, Status: e.status, Output: "from the seam",
		Steps: []record.StepResult{{ID: "s", Status: record.StepSucceeded, Attempts: 1}}, Vars: map[string]any{}}
	if e.status != record.Succeeded {
		res.Error = "as scripted"
	}
	return res, nil
}

func (e *seamEngine) Plan(req run.Request) ([]record.PlannedStep, error) {
	e.requests = append(e.requests, req)
	return []record.PlannedStep{{ID: "s", Kind: "cli", Wave: 1, Action: "planned by the seam"}}, nil
}

func (e *seamEngine) CheckModels(c *chain.Chain) []error {
	return []error{&response.PreflightError{Kind: response.BadModel, File: c.File, Pos: c.Steps[0].At("id"), Step: "s", Msg: "the seam has no model"}}
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
		status record.Status
		code   int
	}{{record.Succeeded, exitOK}, {record.Failed, exitFailed}, {record.Paused, exitPaused}, {record.Interrupted, exitInterrupted}} {
		e := &seamEngine{status: tt.status}
		code, out, errOut := seamCLI(t, e, dir, "run", file, "--input", "who=me", "-o", "json", "-q")
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d (%s)", tt.status, code, tt.code, errOut)
		}
		var res record.Result
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
	e := &seamEngine{status: record.Succeeded}
	_, out, _ := seamCLI(t, e, dir, "run", file, "--input", "who=me", "-o", "json", "-q")
	var first record.Result
	_ = json.Unmarshal([]byte(out), &first)
	failing := &seamEngine{status: record.Failed}
	_, out, _ = seamCLI(t, failing, dir, "run", file, "--input", "who=you", "-o", "json", "-q")
	var failed record.Result
	_ = json.Unmarshal([]byte(out), &failed)
	e = &seamEngine{status: record.Succeeded}
	if code, _, errOut := seamCLI(t, e, dir, "resume", failed.RunID, "-q"); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	if req := e.requests[0]; req.RunID != failed.RunID || req.Inputs["who"] != "you" || req.Resume["s"].Output == nil {
		t.Errorf("resume asked the engine %+v", req)
	}

	// a refusal before anything ran is exit 2 and leaves no saved run
	refused := &seamEngine{refuse: &given.InputError{Chain: "c", Msg: "refused by the seam"}}
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

// seamTasks is an engine that also runs a durable worker's steps, and is
// not the local one.
type seamTasks struct {
	seamEngine
	tasks []string
}

func (e *seamTasks) RunTask(_ context.Context, _ *chain.Chain, t task.StepTask) task.StepDone {
	e.tasks = append(e.tasks, t.Step)
	return task.StepDone{Result: record.StepResult{ID: t.Step, Status: record.StepSucceeded}}
}

// TestWorkerNeedsOnlyTheTaskRunner: chainrun worker hands the worker
// whatever engine the factory built, as a run.TaskRunner: an engine of
// another kind runs the worker's steps, the local one does too, and an
// engine that runs no steps is refused before any worker starts.
func TestWorkerNeedsOnlyTheTaskRunner(t *testing.T) {
	other := &seamTasks{}
	for _, tc := range []struct {
		name   string
		engine func(engineSetup) run.Engine // nil: the build's own
		code   int
		served bool
		stderr string
	}{
		{"an engine of another kind", func(engineSetup) run.Engine { return other }, exitOK, true, ""},
		{"the build's own engine", nil, exitOK, true, ""},
		{"an engine that runs no steps", func(engineSetup) run.Engine { return &seamEngine{} }, exitFailed, false, "runs no steps here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
			t.Setenv("CHAINRUN_CACHE_DIR", filepath.Join(dir, "cache"))
			t.Setenv("CHAINRUN_ENGINE", "")
			var served run.TaskRunner
			old := extension
			extension = &Extension{Name: "temporal", Serve: func(_ context.Context, c DurableConfig) error {
				served = c.Steps
				return nil
			}}
			t.Cleanup(func() { extension = old })
			io, _, _, errOut := iostreams.Test()
			f := newFactory(io)
			f.getwd = func() (string, error) { return dir, nil }
			if tc.engine != nil {
				f.engine = tc.engine
			}
			code := execute(context.Background(), f, []string{"worker"})
			if code != tc.code || !strings.Contains(errOut.String(), tc.stderr) {
				t.Fatalf("exit %d, want %d; stderr %q, want %q in it", code, tc.code, errOut.String(), tc.stderr)
			}
			if (served != nil) != tc.served {
				t.Fatalf("the worker was given %v", served)
			}
			if served == nil {
				return
			}
			c := &chain.Chain{Name: "c", Steps: []*chain.Step{{CommonFields: chain.CommonFields{ID: "s"}, Kind: chain.KindNoop}}}
			if done := served.RunTask(context.Background(), c, task.StepTask{Step: "s"}); done.Result.ID != "s" {
				t.Errorf("the worker's steps ran as %+v", done)
			}
		})
	}
	if !slices.Equal(other.tasks, []string{"s"}) {
		t.Errorf("the other engine ran %v", other.tasks)
	}
}

// TestEngineSeamNamesNoConcreteEngine: no non-test file of cmd names a
// concrete engine of pkg/run, a type that implements run.Engine,
// run.Durable or run.TaskRunner (found in pkg/run's source, so a new one
// is covered too); cmd knows engines by those interfaces only, and the
// factory builds the local one with run.New.
func TestEngineSeamNamesNoConcreteEngine(t *testing.T) {
	concrete := concreteEngines(t, filepath.Join("..", "pkg", "run"), "Engine", "Durable", "TaskRunner")
	if len(concrete) == 0 {
		t.Fatal("pkg/run declares no type that implements its engine interfaces")
	}
	// the scan finds each of them where a file names it
	for name := range concrete {
		src := "package cmd\nimport r \"github.com/chainrun/chainrun/pkg/run\"\nvar _ = (*r." + name + ")(nil)\n"
		if got := namedEngines(t, "probe.go", src, concrete); len(got) != 1 {
			t.Errorf("the scan misses %s: %v", name, got)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range namedEngines(t, file, string(src), concrete) {
			t.Errorf("%s: cmd names a concrete engine; use run.Engine, run.Durable or run.TaskRunner", at)
		}
	}
}

// concreteEngines are the exported types of the package in dir, other
// than interfaces, whose methods include every method of one of the
// package's interfaces named ifaces (embedded interfaces counted).
func concreteEngines(t *testing.T, dir string, ifaces ...string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]map[string]bool{} // type → its methods
	interfaces := map[string]*ast.InterfaceType{}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					if methods[id.Name] == nil {
						methods[id.Name] = map[string]bool{}
					}
					methods[id.Name][d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						if it, ok := ts.Type.(*ast.InterfaceType); ok {
							interfaces[ts.Name.Name] = it
						} else if ts.Name.IsExported() && methods[ts.Name.Name] == nil {
							methods[ts.Name.Name] = map[string]bool{}
						}
					}
				}
			}
		}
	}
	var need func(name string) []string
	need = func(name string) []string {
		it := interfaces[name]
		if it == nil {
			t.Fatalf("%s declares no interface %s", dir, name)
		}
		var names []string
		for _, m := range it.Methods.List {
			if id, embedded := m.Type.(*ast.Ident); embedded && len(m.Names) == 0 {
				names = append(names, need(id.Name)...)
			}
			for _, n := range m.Names {
				names = append(names, n.Name)
			}
		}
		return names
	}
	concrete := map[string]bool{}
	for _, iface := range ifaces {
		want := need(iface)
		for typ, has := range methods {
			if !ast.IsExported(typ) || interfaces[typ] != nil {
				continue
			}
			if !slices.ContainsFunc(want, func(m string) bool { return !has[m] }) {
				concrete[typ] = true
			}
		}
	}
	return concrete
}

// namedEngines are the places in src where a selector of pkg/run names
// one of concrete, as file:line.
func namedEngines(t *testing.T, file, src string, concrete map[string]bool) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	runName := ""
	for _, imp := range f.Imports {
		if imp.Path.Value == `"github.com/chainrun/chainrun/pkg/run"` {
			runName = "run"
			if imp.Name != nil {
				runName = imp.Name.Name
			}
		}
	}
	var at []string
	if runName == "" {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == runName && concrete[sel.Sel.Name] {
				at = append(at, fmt.Sprintf("%s: run.%s", fset.Position(sel.Pos()), sel.Sel.Name))
			}
		}
		return true
	})
	return at
}

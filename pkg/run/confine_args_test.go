package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// argPaths is a workflow whose transitions take paths from a decision's
// arguments: a file executor's path (relative to the run's directory, or
// under a cwd the chain names), a cli executor's cwd, and a pipeline's
// first step, which reads the decision's arguments as $.arguments.
const argPaths = `
version: "1"
workflows:
  pick:
    initialState: s
    states:
      s:
        transitions:
          read:
            target: done
            actor: agent
            inputSchema: {type: object, required: [p], properties: {p: {type: string}}}
            executor: {kind: file, path: "{arguments.p}"}
            output: {text: "$.output.text"}
          peek:
            target: done
            actor: agent
            inputSchema: {type: object, required: [name], properties: {name: {type: string}}}
            executor: {kind: file, path: "notes/{arguments.name}", cwd: data}
            output: {text: "$.output.text"}
          list:
            target: done
            actor: agent
            inputSchema: {type: object, required: [d], properties: {d: {type: string}}}
            executor: {kind: cli, command: cat, args: [a.txt], cwd: "{arguments.d}"}
            output: {text: "$.output.text"}
          pipe:
            target: done
            actor: agent
            inputSchema: {type: object, required: [p], properties: {p: {type: string}}}
            executor: {kind: pipeline, steps: [{kind: file, path: "{arguments.p}"}]}
            output: {text: "$.output.json.final_output"}
      done: {terminal: true}
    output: context
`

// TestDecisionArgumentsStayInTheRunsDirectory holds that a path a
// decision's argument makes (by a model, a caller's --arg, an MCP client)
// is confined as a tool's is: to the run's directory, or to the cwd the
// chain names. Absolute paths outside, "..", and symbolic links that lead
// out are refused, naming the path; inside, every shape is read.
func TestDecisionArgumentsStayInTheRunsDirectory(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "run")
	for _, d := range []string{"data/notes", "sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, text string) {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(top, "secret.txt"), "OUTSIDE-SECRET")
	write(filepath.Join(top, "a.txt"), "OUTSIDE-SECRET")
	write(filepath.Join(dir, "inside.txt"), "inside text")
	write(filepath.Join(dir, "sub", "a.txt"), "sub listing")
	write(filepath.Join(dir, "data", "notes", "n.md"), "a note")
	write(filepath.Join(dir, "data", "top.md"), "data top")
	os.Symlink(filepath.Join(top, "secret.txt"), filepath.Join(dir, "out"))
	os.Symlink(top, filepath.Join(dir, "outdir"))
	os.Symlink("inside.txt", filepath.Join(dir, "in"))
	c := load(t, argPaths)
	for _, tc := range []struct {
		take string
		args map[string]any
		want string // the text read; "" for a refusal
	}{
		{"read", map[string]any{"p": filepath.Join(top, "secret.txt")}, ""},
		{"read", map[string]any{"p": "../secret.txt"}, ""},
		{"read", map[string]any{"p": "sub/../../secret.txt"}, ""},
		{"read", map[string]any{"p": "out"}, ""},
		{"read", map[string]any{"p": "outdir/secret.txt"}, ""},
		{"read", map[string]any{"p": "/etc/passwd"}, ""},
		{"peek", map[string]any{"name": "../../inside.txt"}, ""},
		{"peek", map[string]any{"name": "../../../secret.txt"}, ""},
		{"list", map[string]any{"d": ".."}, ""},
		{"list", map[string]any{"d": top}, ""},
		{"list", map[string]any{"d": "outdir"}, ""},
		{"pipe", map[string]any{"p": filepath.Join(top, "secret.txt")}, ""},
		{"pipe", map[string]any{"p": "../a.txt"}, ""},
		{"read", map[string]any{"p": "inside.txt"}, "inside text"},
		{"read", map[string]any{"p": filepath.Join(dir, "inside.txt")}, "inside text"},
		{"read", map[string]any{"p": "in"}, "inside text"},
		{"peek", map[string]any{"name": "n.md"}, "a note"},
		{"peek", map[string]any{"name": "../top.md"}, "data top"},
		{"list", map[string]any{"d": "sub"}, "sub listing"},
		{"pipe", map[string]any{"p": "sub/a.txt"}, "sub listing"},
	} {
		decide := func(context.Context, response.Decision) (response.Choice, bool) {
			return response.Choice{Transition: tc.take, Args: tc.args}, true
		}
		res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Decide: decide})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.take, tc.args, err)
		}
		got, _ := res.Context["text"].(string)
		if strings.Contains(got+res.Error, "OUTSIDE-SECRET") || strings.Contains(got, "root:") {
			t.Fatalf("%s %v read outside the run's directory: %q", tc.take, tc.args, got)
		}
		if tc.want == "" {
			if res.Status != record.Failed || !strings.Contains(res.Error, "outside") {
				t.Errorf("%s %v: %s %q, want a refusal saying the path is outside", tc.take, tc.args, res.Status, res.Error)
			}
			continue
		}
		if res.Status != record.Succeeded || strings.TrimSpace(got) != tc.want {
			t.Errorf("%s %v: %s %q %s, want %q", tc.take, tc.args, res.Status, got, res.Error, tc.want)
		}
	}
}

// indirectPaths hands a decision's argument on before it makes a path:
// copied to the context by an output mapping and read by a later
// transition's file executor or cwd, selected by a $.-path, or passed to
// a sub-workflow as its input.
const indirectPaths = `
version: "1"
workflows:
  ind:
    initialState: s
    states:
      s:
        transitions:
          via_context:
            target: reading
            actor: agent
            inputSchema: {type: object, required: [p], properties: {p: {type: string}}}
            output: {where: "$.arguments.p"}
          via_cwd:
            target: listing
            actor: agent
            inputSchema: {type: object, required: [d], properties: {d: {type: string}}}
            output: {d: {concat: ["$.arguments.d", ""]}}
          by_jsonpath:
            target: done
            actor: agent
            inputSchema: {type: object, required: [p], properties: {p: {type: string}}}
            executor: {kind: file, path: "$.arguments.p"}
            output: {text: "$.output.text"}
          via_sub:
            target: done
            actor: agent
            inputSchema: {type: object, required: [p], properties: {p: {type: string}}}
            executor: {kind: workflow, definitionId: subr, input: {q: "$.arguments.p"}}
            output: {text: "$.output.text"}
      reading:
        transitions:
          read: {target: done, actor: deterministic, executor: {kind: file, path: "{context.where}"}, output: {text: "$.output.text"}}
      listing:
        transitions:
          list: {target: done, actor: deterministic, executor: {kind: cli, command: cat, args: [a.txt], cwd: "{context.d}"}, output: {text: "$.output.text"}}
      done: {terminal: true}
    output: context
  subr:
    inputSchema: {type: object, required: [q], properties: {q: {type: string}}}
    initialState: s
    states:
      s:
        transitions:
          r: {target: e, actor: deterministic, executor: {kind: file, path: "{input.q}"}, output: {text: "$.output.text"}}
      e: {terminal: true}
    output: context
`

// outsideAndIn makes a run's directory (dir) inside top: OUTSIDE-SECRET
// in top's secret.txt and a.txt, inside.txt and sub/a.txt in dir.
func outsideAndIn(t *testing.T) (top, dir string) {
	t.Helper()
	top = t.TempDir()
	dir = filepath.Join(top, "run")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, text := range map[string]string{filepath.Join(top, "secret.txt"): "OUTSIDE-SECRET", filepath.Join(top, "a.txt"): "OUTSIDE-SECRET",
		filepath.Join(dir, "inside.txt"): "inside text", filepath.Join(dir, "sub", "a.txt"): "sub listing"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top, dir
}

// TestDecisionArgumentsStayInTheRunsDirectoryHandedOn holds the same
// confinement for an argument handed on: through the context to a later
// transition's path or cwd, by a $.-path, or as a sub-workflow's input.
func TestDecisionArgumentsStayInTheRunsDirectoryHandedOn(t *testing.T) {
	top, dir := outsideAndIn(t)
	os.Symlink(filepath.Join(top, "secret.txt"), filepath.Join(dir, "out"))
	c := load(t, indirectPaths)
	for _, tc := range []struct {
		take string
		args map[string]any
		want string
	}{
		{"via_context", map[string]any{"p": filepath.Join(top, "secret.txt")}, ""},
		{"via_context", map[string]any{"p": "../secret.txt"}, ""},
		{"via_context", map[string]any{"p": "out"}, ""},
		{"via_cwd", map[string]any{"d": ".."}, ""},
		{"via_cwd", map[string]any{"d": top}, ""},
		{"by_jsonpath", map[string]any{"p": filepath.Join(top, "secret.txt")}, ""},
		{"by_jsonpath", map[string]any{"p": "sub/../../secret.txt"}, ""},
		{"via_sub", map[string]any{"p": filepath.Join(top, "secret.txt")}, ""},
		{"via_sub", map[string]any{"p": "../a.txt"}, ""},
		{"via_context", map[string]any{"p": "inside.txt"}, "inside text"},
		{"via_cwd", map[string]any{"d": "sub"}, "sub listing"},
		{"by_jsonpath", map[string]any{"p": filepath.Join(dir, "inside.txt")}, "inside text"},
		{"via_sub", map[string]any{"p": "sub/a.txt"}, "sub listing"},
	} {
		decide := func(context.Context, response.Decision) (response.Choice, bool) {
			return response.Choice{Transition: tc.take, Args: tc.args}, true
		}
		res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Decide: decide})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.take, tc.args, err)
		}
		got, _ := res.Context["text"].(string)
		if strings.Contains(got+res.Error, "OUTSIDE-SECRET") {
			t.Errorf("%s %v read outside the run's directory: %q", tc.take, tc.args, got)
			continue
		}
		if tc.want == "" {
			if res.Status != record.Failed || !strings.Contains(res.Error, "outside") {
				t.Errorf("%s %v: %s %q, want a refusal saying the path is outside", tc.take, tc.args, res.Status, res.Error)
			}
			continue
		}
		if res.Status != record.Succeeded || !strings.Contains(got, tc.want) {
			t.Errorf("%s %v: %s %q %s, want %q", tc.take, tc.args, res.Status, got, res.Error, tc.want)
		}
	}
}

// A run whose inputs a model or an MCP client chose (ChosenInputs) reads
// no file outside its directory through a path made from them, in a DAG
// chain's file step, a cwd, and a chain it calls; a run started from the
// command line reads what its caller names, as before.
func TestChosenInputsStayInTheRunsDirectory(t *testing.T) {
	top, dir := outsideAndIn(t)
	read := load(t, "name: r\ninputs: [p]\nsteps:\n  - {id: f, type: file, path: '{input.p}', output_var: out}\noutput: out\n")
	list := load(t, "name: l\ninputs: [d]\nsteps:\n  - {id: c, type: cli, command: cat, args: [a.txt], cwd: '{input.d}', output_var: out}\noutput: out\n")
	for _, tc := range []struct {
		c      *chain.Chain
		inputs map[string]string
		chosen bool
		want   string // "" for a refusal
	}{
		{read, map[string]string{"p": filepath.Join(top, "secret.txt")}, true, ""},
		{read, map[string]string{"p": "../secret.txt"}, true, ""},
		{list, map[string]string{"d": ".."}, true, ""},
		{read, map[string]string{"p": "inside.txt"}, true, "inside text"},
		{list, map[string]string{"d": "sub"}, true, "sub listing"},
		{read, map[string]string{"p": filepath.Join(top, "secret.txt")}, false, "OUTSIDE-SECRET"},
	} {
		res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: tc.c, Inputs: tc.inputs, ChosenInputs: tc.chosen})
		if err != nil {
			t.Fatalf("%v: %v", tc.inputs, err)
		}
		got := strings.TrimSpace(interp.TextOf(res.Output))
		switch {
		case tc.want == "" && (res.Status != record.Failed || !strings.Contains(res.Error, "outside") || strings.Contains(got, "OUTSIDE")):
			t.Errorf("%v chosen: %s %q %q, want a refusal saying the path is outside", tc.inputs, res.Status, got, res.Error)
		case tc.want != "" && got != tc.want:
			t.Errorf("%v chosen=%v: %s %q %s, want %q", tc.inputs, tc.chosen, res.Status, got, res.Error, tc.want)
		}
	}
}

// TestAWorkflowWithoutArgumentsReadsThePathsItsCallerGives: a workflow
// none of whose decisions takes arguments holds nothing a model or an MCP
// client chose, so a path made from the inputs of the person who ran it
// reads what they name, outside the run's directory too, as a DAG
// chain's does; over MCP (ChosenInputs) the same path is confined.
func TestAWorkflowWithoutArgumentsReadsThePathsItsCallerGives(t *testing.T) {
	top, dir := outsideAndIn(t)
	c := load(t, `version: "1.0.0"
workflows:
  rd:
    initialState: s
    inputSchema: {type: object, required: [p], properties: {p: {type: string}}}
    states:
      s:
        transitions:
          read:
            target: done
            actor: deterministic
            executor: {kind: file, path: "{input.p}"}
            output: {text: "$.output.text"}
      done: {terminal: true}
`)
	outside := filepath.Join(top, "secret.txt")
	for _, chosen := range []bool{false, true} {
		res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"p": outside}, ChosenInputs: chosen})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := res.Context["text"].(string)
		if !chosen && (res.Status != record.Succeeded || !strings.Contains(got, "OUTSIDE-SECRET")) {
			t.Errorf("from the command line: %s %q %s, want the file read", res.Status, got, res.Error)
		}
		if chosen && (res.Status != record.Failed || !strings.Contains(res.Error, "outside") || strings.Contains(got, "OUTSIDE-SECRET")) {
			t.Errorf("chosen over MCP: %s %q %s, want a refusal", res.Status, got, res.Error)
		}
	}
}

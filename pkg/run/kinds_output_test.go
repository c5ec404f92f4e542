package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestHugeOutputIsKeptInTheRunDirectory: a step printing far more than the
// in-memory cap leaves a bounded prefix in its variable, which says where
// the whole is; the file holds every byte; memory stays bounded.
func TestHugeOutputIsKeptInTheRunDirectory(t *testing.T) {
	const size = 64 << 20
	src := `
name: t
steps:
  - {id: loud, type: cli, run: 'head -c 67108864 /dev/zero | tr "\\0" a', output_var: out}
output: out
`
	dir := t.TempDir()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, src), OutputDir: filepath.Join(dir, "outputs")})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %s", err, res.Error)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.Sys - before.Sys; grew > 100<<20 {
		t.Errorf("memory grew by %d MiB", grew>>20)
	}
	out := res.Output.(string)
	if len(out) > executor.MaxCapture+200 || !strings.Contains(out, "[output cut at 8 MiB of 67108864 bytes; the whole is in ") {
		t.Fatalf("value of %d bytes ends %q", len(out), out[max(0, len(out)-160):])
	}
	path := out[strings.LastIndex(out, "the whole is in ")+len("the whole is in ") : len(out)-1]
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != size {
		t.Fatalf("kept file %s: %v %v", path, fi, err)
	}

	// unsaved: the rest is dropped, and the value says so
	res, _ = New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, src)})
	if out := res.Output.(string); !strings.Contains(out, "the rest was dropped") {
		t.Errorf("unsaved value ends %q", out[len(out)-120:])
	}
}

// TestTenThousandStepsInBoundedMemory: a 10,000-step DAG runs to the end
// within the memory target (100 MB).
func TestTenThousandStepsInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 steps")
	}
	var src strings.Builder
	src.WriteString("name: big\nsteps:\n")
	for i := range 10000 {
		fmt.Fprintf(&src, "  - {id: s%d, type: transform, expr: '\"value %d\"', output_var: v%d", i, i, i)
		if i >= 100 {
			fmt.Fprintf(&src, ", depends_on: [s%d]", i-100)
		}
		src.WriteString("}\n")
	}
	c := load(t, src.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c})
	if err != nil || res.Status != record.Succeeded || len(res.Steps) != 10000 {
		t.Fatalf("%v %s", err, res.Error)
	}
	runtime.ReadMemStats(&after)
	if grew := after.Sys - before.Sys; grew > 100<<20 {
		t.Errorf("memory grew by %d MiB", grew>>20)
	}
}

// TestThousandStateWorkflowInBoundedMemory: a 1,000-state deterministic
// workflow runs to its end within the memory target, recording every
// transition in a journal.
func TestThousandStateWorkflowInBoundedMemory(t *testing.T) {
	var src strings.Builder
	src.WriteString("version: '1'\nworkflows:\n  long:\n    initialState: s0\n    maxChainDepth: 1001\n    states:\n")
	for i := range 1000 {
		executor := fmt.Sprintf("{kind: transform, expr: '%d'}", i)
		if i%20 == 0 {
			// a few commands whose JSON objects grow the context
			executor = fmt.Sprintf(`{kind: cli, run: 'echo {\"k%d\": %d}'}`, i%7, i)
		}
		fmt.Fprintf(&src, "      s%d:\n        transitions:\n          t%d: {target: s%d, actor: deterministic, executor: %s}\n", i, i, i+1, executor)
	}
	src.WriteString("      s1000: {terminal: true}\n")
	c := load(t, src.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	j := &memJournal{}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Succeeded || len(res.Chain) != 1000 || len(j.transitions) != 1000 {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
	runtime.ReadMemStats(&after)
	if grew := after.Sys - before.Sys; grew > 100<<20 {
		t.Errorf("memory grew by %d MiB", grew>>20)
	}
}

// TestFailedSpillFailsTheStep: when the whole of an oversized output
// cannot be kept (a full disk: here /dev/full), the step fails saying so;
// no variable points at a file that does not hold it all.
func TestFailedSpillFailsTheStep(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	src := `
name: t
steps:
  - {id: big, type: cli, run: 'head -c 9000000 /dev/zero | tr "\\0" a', output_var: out}
  - {id: next, type: cli, depends_on: [big], run: 'echo "{out}" | wc -c', output_var: n}
output: n
`
	dir := t.TempDir()
	outputs := filepath.Join(dir, "outputs")
	if err := os.MkdirAll(outputs, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", filepath.Join(outputs, "big-1.stdout")); err != nil {
		t.Fatal(err)
	}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, src), OutputDir: outputs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Failed || !strings.Contains(res.Error, "could not be kept whole") || !strings.Contains(res.Error, "no space left") {
		t.Fatalf("status %s, error %q", res.Status, res.Error)
	}
}

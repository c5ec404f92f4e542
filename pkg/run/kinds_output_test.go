package run

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/executor"
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
	if err != nil || res.Status != Succeeded {
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

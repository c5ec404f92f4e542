package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/iostreams"
)

// A --jq expression that does not end is stopped by a stop signal (the
// command's context cancelled): exit 130 at once, the run itself kept.
func TestJQStopsOnSignal(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, "one.yaml"), []byte("name: one\nsteps:\n  - {id: a, type: cli, run: 'echo 1', output_var: a}\noutput: a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "one", "--jq", "def spin: spin; spin"},
		{"list", "--jq", "last(range(1e12))"},
		{"runs", "--jq", "last(repeat(.))"},
	} {
		t.Run(args[0], func(t *testing.T) {
			io, _, _, errOut := iostreams.Test()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(1500*time.Millisecond, cancel)
			start := time.Now()
			code := Execute(ctx, io, append(args, "--chains-dir", dir))
			if code != exitInterrupted {
				t.Errorf("exit %d, want 130 (%s)", code, errOut)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if !strings.Contains(errOut.String(), "--jq: interrupted") {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}

// closedPipe is a stdout whose reader has gone (… | head -1).
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

// A reader of stdout that goes away (… | head -1) is no error: nothing
// said, the exit code what it would have been, as gh and jq do.
func TestBrokenPipeIsSilent(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	for name, src := range map[string]string{
		"one.yaml": "name: one\nsteps:\n  - {id: a, type: cli, run: 'seq 1 5', output_var: a}\noutput: a\n",
		"bad.yaml": "name: bad\nsteps:\n  - {id: a, type: cli, run: 'echo half; exit 3'}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"run", "one", "-q"}, exitOK},
		{[]string{"run", "one", "-q", "-o", "json"}, exitOK},
		{[]string{"run", "bad", "-q", "-o", "json"}, exitFailed},
		{[]string{"runs"}, exitOK},
		{[]string{"runs", "--jq", ".[].run_id"}, exitOK},
		{[]string{"runs", "show", "last"}, exitOK},
		{[]string{"list", "--template", "{{range .}}{{.name}}\n{{end}}"}, exitOK},
		{[]string{"schema"}, exitOK},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			io, _, _, errOut := iostreams.Test()
			io.Out = closedPipe{}
			if code := Execute(context.Background(), io, append(tc.args, "--chains-dir", dir)); code != tc.code {
				t.Errorf("exit %d, want %d (%s)", code, tc.code, errOut)
			}
			if strings.Contains(errOut.String(), "broken pipe") {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}

// A run stopped by a first signal still prints its filtered result (the
// run id a resume needs); only a second signal stops the filter then.
func TestJQAfterAStop(t *testing.T) {
	ctx, stop, force := interrupt.WithStop(context.Background())
	stop()
	io, _, out, errOut := iostreams.Test()
	if code := Execute(ctx, io, []string{"version", "--jq", `"got \(.version)"`}); code != exitOK || out.String() != "got dev\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	io, _, _, errOut = iostreams.Test()
	time.AfterFunc(500*time.Millisecond, force)
	start := time.Now()
	if code := Execute(ctx, io, []string{"version", "--jq", "def spin: spin; spin"}); code != exitInterrupted || time.Since(start) > 5*time.Second {
		t.Errorf("exit %d after %v: %s", code, time.Since(start), errOut)
	}
}

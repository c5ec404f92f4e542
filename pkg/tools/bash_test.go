package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

func TestBash(t *testing.T) {
	needShell(t)
	dir := workdir(t, map[string]string{"a.txt": "from a file\n"})
	tests := []struct {
		name    string
		args    map[string]any
		environ []string
		expect
	}{
		{"stdout", map[string]any{"command": "echo hello"}, nil, expect{"hello\n", false}},
		{"runs in Dir", map[string]any{"command": "cat a.txt; pwd"}, nil, expect{"from a file\n" + dir + "\n", false}},
		{"stderr labelled", map[string]any{"command": "echo out; echo err >&2"}, nil, expect{"out\nstderr:\nerr\n", false}},
		{"stderr only", map[string]any{"command": "echo err >&2"}, nil, expect{"stderr:\nerr\n", false}},
		{"no newline before stderr", map[string]any{"command": "printf out; printf err >&2"}, nil, expect{"out\nstderr:\nerr", false}},
		{"exit code", map[string]any{"command": "echo failing; exit 3"}, nil, expect{"failing\nexit code 3", false}},
		{"exit code and stderr", map[string]any{"command": "echo no >&2; false"}, nil, expect{"stderr:\nno\nexit code 1", false}},
		{"exit code alone", map[string]any{"command": "exit 42"}, nil, expect{"exit code 42", false}},
		{"killed by a signal", map[string]any{"command": "kill -9 $$"}, nil, expect{"killed by signal killed", false}},
		{"no output", map[string]any{"command": "true"}, nil, expect{"(no output)", false}},
		{"stdin is empty", map[string]any{"command": "cat; echo done"}, nil, expect{"done\n", false}},
		{"environment", map[string]any{"command": "echo $GREETING"}, []string{"GREETING=hi", "PATH=/usr/bin:/bin"}, expect{"hi\n", false}},
		{"invalid UTF-8 replaced", map[string]any{"command": `printf 'a\377b'`}, nil, expect{"a\uFFFDb", false}},
		{"timeout_ms given", map[string]any{"command": "echo quick", "timeout_ms": 5000}, nil, expect{"quick\n", false}},
		{"timeout_ms 0 is the default", map[string]any{"command": "echo quick", "timeout_ms": 0}, nil, expect{"quick\n", false}},
		{"empty command", map[string]any{"command": "  "}, nil, expect{"command must not be empty", true}},
		{"missing command", map[string]any{}, nil, expect{`missing required argument "command"`, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(tt.args)
			out, err := Run(context.Background(), Env{Dir: dir, Environ: tt.environ}, "Bash", b)
			tt.check(t, out, err)
		})
	}
}

func TestBashTimeoutValues(t *testing.T) {
	tests := []struct {
		ms    int64
		given bool
		want  time.Duration
	}{
		{0, false, 120 * time.Second},
		{0, true, 120 * time.Second},
		{-5, true, 120 * time.Second},
		{1500, true, 1500 * time.Millisecond},
		{600000, true, 600 * time.Second},
		{600001, true, 600 * time.Second},
		{1 << 62, true, 600 * time.Second},
	}
	for _, tt := range tests {
		if got := bashTimeout(tt.ms, tt.given); got != tt.want {
			t.Errorf("bashTimeout(%d, %v) = %s, want %s", tt.ms, tt.given, got, tt.want)
		}
	}
}

func TestBashTimeout(t *testing.T) {
	needShell(t)
	dir := workdir(t, nil)
	start := time.Now()
	_, err := Run(context.Background(), Env{Dir: dir, Grace: 200 * time.Millisecond}, "Bash",
		json.RawMessage(`{"command": "echo started; sleep 5", "timeout_ms": 300}`))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if want := "command timed out after 300ms and was killed; its output until then:\nstarted\n"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestBashCancelled(t *testing.T) {
	needShell(t)
	dir := workdir(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, Env{Dir: dir, Grace: 200 * time.Millisecond}, "Bash", json.RawMessage(`{"command": "sleep 5"}`))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
	if !errors.Is(err, context.Canceled) || err.Error() != "command cancelled and was killed" {
		t.Fatalf("got %v", err)
	}
	// A run already cancelled starts nothing.
	_, err = Run(ctx, Env{Dir: dir}, "Bash", json.RawMessage(`{"command": "touch started"}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if out, _ := call(t, dir, "Glob", map[string]any{"pattern": "started"}); out != "no files match started" {
		t.Errorf("the command ran: %q", out)
	}
}

func TestBashOutputCap(t *testing.T) {
	needShell(t)
	dir := workdir(t, nil)
	// About 190 KB of numbered lines on stdout, then a last line on stderr.
	out, err := call(t, dir, "Bash", map[string]any{"command": "i=0; while [ $i -lt 20000 ]; do echo \"line $i\"; i=$((i+1)); done; echo the-end >&2; exit 2"})
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "[output cut: the first ") || !strings.HasSuffix(first, " bytes are not shown]") {
		t.Errorf("first line %q", first)
	}
	if len(rest) != bashMaxOutput {
		t.Errorf("kept %d bytes", len(rest))
	}
	if !strings.HasSuffix(rest, "line 19999\nstderr:\nthe-end\nexit code 2") {
		t.Errorf("ends %q", rest[len(rest)-60:])
	}
	var lost int
	fmt.Sscanf(first, "[output cut: the first %d bytes", &lost)
	total := 0
	for i := range 20000 {
		total += len(fmt.Sprintf("line %d\n", i))
	}
	total += len("stderr:\nthe-end\nexit code 2")
	if lost+len(rest) != total {
		t.Errorf("cut %d + kept %d != %d", lost, len(rest), total)
	}
}

func TestTail(t *testing.T) {
	var tl tail
	chunk := strings.Repeat("x", 1000) + "\n"
	for range 300 {
		tl.Write([]byte(chunk))
	}
	tl.Write([]byte("end"))
	kept, total := tl.get()
	if len(kept) != bashMaxOutput || total != 300*1001+3 || !strings.HasSuffix(string(kept), "x\nend") {
		t.Fatalf("kept %d of %d", len(kept), total)
	}
	tl.Write(make([]byte, 3*bashMaxOutput))
	if kept, total := tl.get(); len(kept) != bashMaxOutput || total != 300*1001+3+3*bashMaxOutput {
		t.Fatalf("kept %d of %d", len(kept), total)
	}
}

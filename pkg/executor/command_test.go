package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestCommandOutputs(t *testing.T) {
	res, err := (&Command{Argv: []string{"sh", "-c", "echo out; echo err >&2"}}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "out\n" || res.Stderr != "err\n" || res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
}

func TestCommandExitError(t *testing.T) {
	_, err := (&Command{Script: "echo a >&2; echo b >&2; exit 7"}).Run(context.Background())
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 7 || err.Error() != "exited with code 7: b" || ee.Stderr != "a\nb\n" {
		t.Fatalf("got %v", err)
	}
}

// TestExitErrorQuotesOneLine: an exit error quotes the last line of
// stderr that says something, bounded, so that it stays one line in every
// view; the stream itself is kept whole in Stderr.
func TestExitErrorQuotesOneLine(t *testing.T) {
	long := strings.Repeat("ü", 400)
	tests := []struct{ stderr, want string }{
		{"", "exited with code 1"},
		{"first\nlast\n\n  \n", "exited with code 1: last"},
		{"progress 10%\rprogress 100%\r\n", "exited with code 1: progress 100%"},
		{"  indented reason\t\n", "exited with code 1: indented reason"},
		{long, "exited with code 1: " + long[:300] + "…"},
		{"x" + long, "exited with code 1: x" + long[:298] + "…"},
	}
	for _, tt := range tests {
		if got := (&ExitError{Code: 1, Stderr: tt.stderr}).Error(); got != tt.want {
			t.Errorf("stderr %.40q: error %.80q, want %.80q", tt.stderr, got, tt.want)
		}
	}
}

func TestCommandKilledBySignal(t *testing.T) {
	_, err := (&Command{Script: "kill -9 $$"}).Run(context.Background())
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Signal != "killed" {
		t.Fatalf("got %#v", err)
	}
	if !strings.Contains(err.Error(), "killed by signal killed") {
		t.Errorf("message: %v", err)
	}
}

func TestCommandNotFound(t *testing.T) {
	_, err := (&Command{Argv: []string{"no-such-program-here"}}).Run(context.Background())
	var se *StartError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), `command "no-such-program-here" not found in PATH`) {
		t.Fatalf("got %v", err)
	}
	_, err = (&Command{Argv: []string{"true"}, Dir: "/no/such/dir"}).Run(context.Background())
	if !errors.As(err, &se) {
		t.Fatalf("bad dir: got %v", err)
	}
}

func TestCommandIgnoringTERMIsKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := (&Command{Script: "trap '' TERM; while :; do sleep 0.05; done", Grace: 300 * time.Millisecond}).Run(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
}

// TestForceKillsAtOnce holds that a closed Force (a second Ctrl-C) kills
// a stopped command that ignores TERM at once, not after its grace (an
// hour here).
func TestForceKillsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	force := make(chan struct{})
	close(force)
	start := time.Now()
	cmd := &Command{Script: "trap '' TERM; while :; do sleep 0.05; done", Dir: t.TempDir(), Grace: time.Hour, Force: force}
	cmd.Started = func(int) { cancel() }
	if _, err := cmd.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("took %s: the grace was waited out", d)
	}
}

func TestCappedCapture(t *testing.T) {
	var c capped
	chunk := make([]byte, 1<<20)
	for range 10 {
		c.Write(chunk)
	}
	if c.buf.Len() != MaxCapture || c.dropped != 2<<20 {
		t.Fatalf("kept %d dropped %d", c.buf.Len(), c.dropped)
	}
}

// A stream is kept in chunks: its text comes back byte for byte whatever
// the sizes of the writes (across chunk boundaries, up to the cap), and
// keeping it allocates at most the chunks and the text once (a growing
// buffer allocates its doublings, then String copies it).
func TestCapturedTextIsExactAndMadeOnce(t *testing.T) {
	want := make([]byte, MaxCapture)
	for i := range want {
		want[i] = byte(i*7 + i/pieceSize)
	}
	for _, write := range []int{1, pieceSize - 1, pieceSize, pieceSize + 1, 3 << 20} {
		var file bytes.Buffer
		file.Grow(MaxCapture)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c := capped{}
		for rest := want; len(rest) > 0; {
			n := min(write, len(rest))
			c.Write(rest[:n])
			rest = rest[n:]
		}
		c.buf.WriteTo(&file)
		got := c.String()
		runtime.ReadMemStats(&m1)
		if got != string(want) || !bytes.Equal(file.Bytes(), want) {
			t.Fatalf("writes of %d: the text differs", write)
		}
		if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 2*MaxCapture+1<<20 {
			t.Errorf("writes of %d: keeping 8 MiB allocated %d bytes", write, alloc)
		}
	}
}

func TestDoHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Method", r.Method)
		w.WriteHeader(418)
		w.Write([]byte("teapot:" + r.Header.Get("A")))
	}))
	defer srv.Close()
	resp, err := DoHTTP(context.Background(), nil, HTTPRequest{Method: "PUT", URL: srv.URL, Headers: map[string]string{"A": "b"}, Body: "x"})
	if err != nil || resp.Status != 418 || resp.Body != "teapot:b" {
		t.Fatalf("%+v %v", resp, err)
	}
	_, err = DoHTTP(context.Background(), nil, HTTPRequest{URL: "http://user:pw@127.0.0.1:1/path?token=abc"})
	if err == nil || strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "abc") {
		t.Fatalf("credentials leaked or no error: %v", err)
	}
}

// TestStragglersDoNotLeak: a background child (even one in a session of
// its own) that outlives its command keeps writing; no later command's
// output may pick that up.
func TestStragglersDoNotLeak(t *testing.T) {
	_, err := (&Command{Script: "(sleep 0.2; echo STRAY) & setsid sh -c 'sleep 0.2; echo STRAY2' & echo first", Grace: 100 * time.Millisecond}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		res, err := (&Command{Script: "sleep 0.1; echo clean"}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.Stdout != "clean\n" {
			t.Fatalf("output mixed with a straggler's: %q", res.Stdout)
		}
	}
}

func TestCaptureReuseStartsEmpty(t *testing.T) {
	for i := range 20 {
		res, err := (&Command{Script: fmt.Sprintf("echo run%d", i)}).Run(context.Background())
		if err != nil || res.Stdout != fmt.Sprintf("run%d\n", i) {
			t.Fatalf("run %d: %q %v", i, res.Stdout, err)
		}
	}
}

// TestWritesToDevStdout: scripts that write to /dev/stdout or /dev/stderr
// are captured like any other output.
func TestWritesToDevStdout(t *testing.T) {
	res, err := (&Command{Script: "echo line1; echo result > /dev/stdout; echo warn > /dev/stderr"}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "line1\nresult\n" || res.Stderr != "warn\n" {
		t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
}

func TestEndlessOutputIsBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, _ := (&Command{Script: "head -c 20000000 /dev/zero", Grace: 100 * time.Millisecond}).Run(ctx)
	if len(res.Stdout) != MaxCapture || !res.Truncated {
		t.Fatalf("kept %d bytes, truncated=%v", len(res.Stdout), res.Truncated)
	}
}

func TestChildClosingStdoutEarly(t *testing.T) {
	res, err := (&Command{Script: "echo first; exec 1>&-; sleep 0.1; echo still here >&2"}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "first\n" || res.Stderr != "still here\n" {
		t.Fatalf("%+v", res)
	}
}

func TestSpilledStreamKeepsEveryByte(t *testing.T) {
	dir := t.TempDir()
	spill := func(stream string) (io.WriteCloser, string, error) {
		p := filepath.Join(dir, stream)
		f, err := os.Create(p)
		return f, p, err
	}
	res, err := (&Command{Script: "head -c 9437184 /dev/zero | tr '\\0' b; echo small >&2", Spill: spill}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stdout) != MaxCapture || res.StdoutSize != 9437184 || res.StdoutFile == "" || res.StderrFile != "" || res.Stderr != "small\n" {
		t.Fatalf("stdout %d of %d in %q; stderr %q in %q", len(res.Stdout), res.StdoutSize, res.StdoutFile, res.Stderr, res.StderrFile)
	}
	fi, err := os.Stat(res.StdoutFile)
	if err != nil || fi.Size() != 9437184 {
		t.Fatalf("%v %v", fi, err)
	}
}

// TestCommandLookupIsRememberedAndKeepsArgv0: a name found on PATH is
// run by its path with argv[0] as written; a name found nowhere is looked
// for again, so a tool installed by an earlier step is found.
func TestCommandLookupIsRememberedAndKeepsArgv0(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	if cmd := command("chainrun-test-tool"); cmd.Err == nil {
		t.Fatal("a missing tool was found")
	}
	tool := filepath.Join(dir, "chainrun-test-tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho \"$0\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := (&Command{Argv: []string{"chainrun-test-tool"}}).Run(context.Background())
	if err != nil || strings.TrimSpace(res.Stdout) != tool && strings.TrimSpace(res.Stdout) != "chainrun-test-tool" {
		t.Fatalf("%q %v", res.Stdout, err)
	}
	cmd := command("chainrun-test-tool", "x")
	if cmd.Path != tool || cmd.Args[0] != "chainrun-test-tool" || cmd.Args[1] != "x" {
		t.Errorf("path %q args %q", cmd.Path, cmd.Args)
	}
}

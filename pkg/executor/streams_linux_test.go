package executor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestBothStreamsFullAtOnce: a child that writes far more than a pipe
// holds to both streams, alternately and with bytes that are not UTF-8,
// gets every byte of each through, in order, without either pipe
// blocking the other.
func TestBothStreamsFullAtOnce(t *testing.T) {
	dir := t.TempDir()
	chunk := make([]byte, 100_000)
	for i := range chunk {
		chunk[i] = byte(i*31 + i/256) // every byte value, 0xff and NUL included
	}
	if err := os.WriteFile(filepath.Join(dir, "chunk"), chunk, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := (&Command{Script: "for i in 1 2 3 4 5; do cat chunk; cat chunk >&2; done", Dir: dir}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Repeat(chunk, 5)
	if res.Stdout != string(want) || res.Stderr != string(want) {
		t.Fatalf("stdout %d bytes, stderr %d bytes, want %d each, exact", len(res.Stdout), len(res.Stderr), len(want))
	}
}

// TestStragglerHoldingThePipes: a command that exits while a background
// job it started keeps its stdout open returns once its grace (and a
// second) has passed after it exited, with what was written until then,
// not when the job ends; with or without a pidfd to see the exit.
func TestStragglerHoldingThePipes(t *testing.T) {
	for _, pidfd := range []bool{true, false} {
		if !pidfd {
			pidfdOpen = func(int, int) (int, error) { return -1, unix.ENOSYS }
			t.Cleanup(func() { pidfdOpen = unix.PidfdOpen })
		}
		start := time.Now()
		res, err := (&Command{Script: "echo before; (sleep 0.2; echo late; sleep 60) & echo done", Grace: 100 * time.Millisecond}).Run(context.Background())
		if err != nil {
			t.Fatalf("pidfd %v: %v", pidfd, err)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Fatalf("pidfd %v: waited %s, for the background job", pidfd, d)
		}
		if res.Stdout != "before\ndone\nlate\n" {
			t.Errorf("pidfd %v: stdout %q", pidfd, res.Stdout)
		}
	}
}

// TestStdinIsEmpty: a child reads an empty stdin (the null device,
// shared by every child and never closed by one).
func TestStdinIsEmpty(t *testing.T) {
	for range 3 {
		res, err := (&Command{Script: "cat; echo end"}).Run(context.Background())
		if err != nil || res.Stdout != "end\n" {
			t.Fatalf("%q %v", res.Stdout, err)
		}
	}
}

// failing is a live view that stops accepting output.
type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if f.n++; f.n > 1 {
		return 0, errors.New("view closed")
	}
	return len(p), nil
}

// TestLiveWriterFailing: a live view that fails does not block the
// child (its stream is still read to the end) and the error is reported.
func TestLiveWriterFailing(t *testing.T) {
	res, err := (&Command{Script: "head -c 1000000 /dev/zero; echo tail >&2", Stdout: &failing{}}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "view closed") {
		t.Fatalf("got %v", err)
	}
	if res.Stderr != "tail\n" {
		t.Errorf("stderr %q", res.Stderr)
	}
}

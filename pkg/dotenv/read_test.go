package dotenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRead: later files win, an optional file may be missing, a required
// one may not, and every error says which file and where it was named.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := write(".env", "A=base\nB=base\n")
	local := write(".env.local", "B=local\n")
	got, err := Read([]File{{Path: base}, {Path: local}, {Path: filepath.Join(dir, "gone"), Optional: true}})
	if err != nil {
		t.Fatal(err)
	}
	if got["A"] != "base" || got["B"] != "local" || len(got) != 2 {
		t.Errorf("got %v", got)
	}

	_, err = Read([]File{{Path: filepath.Join(dir, "gone"), From: "c.yaml:3:9"}})
	var fe *FileError
	if !errors.As(err, &fe) || !fe.NothingRan() || !strings.Contains(err.Error(), "gone (named at c.yaml:3:9) does not exist; write it as {path: ") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Read([]File{{Path: dir}}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	bad := write("bad.env", "A=1\nnope\n")
	if _, err := Read([]File{{Path: base}, {Path: bad}}); err == nil || err.Error() != bad+`:2: the line is not an assignment: write KEY=VALUE (it is not shown)` {
		t.Errorf("a bad line: %v", err)
	}
	big := write("big.env", "A="+strings.Repeat("x", maxSize)+"\n")
	if _, err := Read([]File{{Path: big}}); err == nil || !strings.Contains(err.Error(), "is over") {
		t.Errorf("a big file: %v", err)
	}
}

// TestReadRefusesWhatIsNotARegularFile: a FIFO nobody writes or a device
// is refused at once, naming the file, optional or not; opening
// the FIFO must not wait for a writer.
func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "secrets.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, tc := range []struct {
		name string
		file File
		want string
	}{
		{"a FIFO", File{Path: fifo, From: "c.yaml:2:9"}, fifo + " (named at c.yaml:2:9): is a FIFO (named pipe), not a regular file"},
		{"an optional FIFO", File{Path: fifo, Optional: true}, fifo + ": is a FIFO (named pipe), not a regular file"},
		{"a device", File{Path: "/dev/null"}, "/dev/null: is a device, not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := Read([]File{tc.file}); done <- err }()
			select {
			case err := <-done:
				var fe *FileError
				if !errors.As(err, &fe) || !strings.HasSuffix(err.Error(), tc.want) {
					t.Errorf("got %v, want …%s", err, tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Read blocked")
			}
		})
	}
}

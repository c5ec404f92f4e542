package fsutil

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegular: a regular file is read; whatever else a path may name
// is refused at once (a FIFO nobody writes must not block), and a file
// over the bound is refused, not cut.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"ok": "hello", "empty": "", "big": "123456"} {
		if err := WriteFile(filepath.Join(dir, name), []byte(text), false); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct {
		name, path, want string
		max              int64
		err              func(error) bool
	}{
		{name: "a regular file", path: filepath.Join(dir, "ok"), max: 5, want: "hello"},
		{name: "an empty file", path: filepath.Join(dir, "empty"), max: 1, want: ""},
		{name: "a FIFO", path: fifo, max: 10, err: kindIs(fs.ModeNamedPipe)},
		{name: "a socket", path: sock, max: 10, err: kindIs(fs.ModeSocket)},
		{name: "a directory", path: dir, max: 10, err: kindIs(fs.ModeDir)},
		{name: "a device", path: "/dev/zero", max: 10, err: kindIs(fs.ModeDevice)},
		{name: "one byte too many", path: filepath.Join(dir, "big"), max: 5, err: func(err error) bool {
			var big *TooLargeError
			return errors.As(err, &big) && strings.HasSuffix(err.Error(), "big is larger than 5 bytes, the most read from it")
		}},
		{name: "missing", path: filepath.Join(dir, "gone"), max: 10, err: func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, read := range []func() ([]byte, error){
				func() ([]byte, error) { return ReadRegular(tc.path, tc.max) },
				func() ([]byte, error) {
					rel, err := filepath.Rel(dir, tc.path)
					if err != nil || strings.HasPrefix(rel, "..") {
						return ReadRegular(tc.path, tc.max)
					}
					return ReadRegularIn(root, rel, tc.max)
				},
			} {
				got, err := within(t, read)
				switch {
				case tc.err == nil && (err != nil || string(got) != tc.want):
					t.Errorf("got %q, %v; want %q", got, err, tc.want)
				case tc.err != nil && !tc.err(err):
					t.Errorf("got %q, %v", got, err)
				}
			}
		})
	}
}

// kindIs holds for a NotRegularError about a file of that type.
func kindIs(m fs.FileMode) func(error) bool {
	return func(err error) bool {
		var nr *NotRegularError
		return errors.As(err, &nr) && nr.Mode.Type()&m != 0 && strings.Contains(err.Error(), Kind(m)+", not a regular file")
	}
}

// within runs read, failing the test when it blocks.
func within(t *testing.T, read func() ([]byte, error)) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() { d, err := read(); done <- result{d, err} }()
	select {
	case r := <-done:
		return r.data, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("the read blocked")
		return nil, nil
	}
}

// TestWriteFileInStaysInside: a write through a root replaces a file
// atomically; a link at the name or on its way that leads out is refused
// and what it points at is untouched; a link that stays inside is fine.
func TestWriteFileInStaysInside(t *testing.T) {
	base := t.TempDir()
	in, out := filepath.Join(base, "in"), filepath.Join(base, "out")
	for _, d := range []string{in, out, filepath.Join(in, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(out, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"file-out": victim, "rel-out": "../out/victim", "dir-out": out, "inner": "sub/inner.txt"} {
		if err := os.Symlink(to, filepath.Join(in, link)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(in)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"file-out", "rel-out", "dir-out/victim", "dir-out/new"} {
		if err := WriteFileIn(root, name, []byte("attack"), 0o644); !Escapes(err) {
			t.Errorf("%s: got %v, want an escape", name, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the file outside now holds %q", b)
	}
	if _, err := os.Stat(filepath.Join(out, "new")); err == nil {
		t.Error("a file was made outside")
	}
	for _, name := range []string{"plain.txt", "sub/deeper.txt", "inner", "plain.txt"} {
		if err := WriteFileIn(root, name, []byte("ok "+name), 0o640); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if b, err := root.ReadFile(name); err != nil || string(b) != "ok "+name {
			t.Errorf("%s: read %q, %v", name, b, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(in, "plain.txt")); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode: %v, %v", fi, err)
	}
	left, _ := filepath.Glob(filepath.Join(in, ".*tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

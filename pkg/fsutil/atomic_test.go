package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	for _, durable := range []bool{false, true} {
		if err := WriteFile(p, []byte("one"), durable); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(p, []byte("two"), durable); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != "two" {
			t.Fatalf("read %q", b)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "f"), nil, true); err == nil {
		t.Error("wrote into a missing directory")
	}
}

// A write that fails halfway leaves the file as it was, and no temporary
// file behind.
func TestWriteFileFromKeepsTheOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "result.json")
	if err := WriteFile(p, []byte("old"), true); err != nil {
		t.Fatal(err)
	}
	err := WriteFileFrom(p, func(w io.Writer) error {
		_, _ = w.Write([]byte("half of the n"))
		return errors.New("encoding failed")
	}, 0, true)
	if err == nil || err.Error() != "encoding failed" {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("the file holds %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

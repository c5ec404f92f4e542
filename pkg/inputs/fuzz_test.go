package inputs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseInputs: any --input flag and any --input-file content is parsed
// or refused as a usage error (exit 2); never a panic. A key=value that is
// accepted keeps its value exactly.
func FuzzParseInputs(f *testing.F) {
	f.Add("service=payment-api", "environment: staging\n")
	f.Add("k=", "")
	f.Add("=v", "- a\n- b\n")
	f.Add("a=b=c", "x: [1, {y: 2}]\n")
	f.Add("no-equals", "x: &a [*a]\n")
	f.Add("k=@/nonexistent", "\x00")
	f.Fuzz(func(t *testing.T, flag, file string) {
		path := filepath.Join(t.TempDir(), "inputs.yaml")
		if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, inputFile := range []string{"", path} {
			got, err := Parse([]string{flag}, inputFile)
			if err != nil {
				var ue *Error
				if !errors.As(err, &ue) {
					t.Fatalf("%q: error of type %T: %v", flag, err, err)
				}
				continue
			}
			k, v, _ := strings.Cut(flag, "=")
			if !strings.HasPrefix(v, "@") && got[strings.TrimSpace(k)] != v {
				t.Fatalf("%q: value %q", flag, got[strings.TrimSpace(k)])
			}
		}
	})
}

package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// An argv argument or env: value too big for the system says what to do.
func TestTooBigArgumentSaysWhy(t *testing.T) {
	src := `
name: t
steps:
  - {id: gen, type: cli, run: 'head -c 300000 /dev/zero | tr "\\0" a', output_var: big}
  - {id: use, type: cli, depends_on: [gen], command: printf, args: ['%s', '{big}']}
`
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Failed || !strings.Contains(res.Error, "a run: script gets big values on a pipe") {
		t.Errorf("%s: %s", res.Status, res.Error)
	}
}

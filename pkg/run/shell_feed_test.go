package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Values far over Linux's 128 KiB cap on one environment string, and a
// quoted heredoc holding one, reach the script whole, trailing newlines
// included.
func TestBigValuesReachTheScript(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 300<<10/16) + "\n\n"
	huge := strings.Repeat("x", 3<<20)
	env := []string{"CHAINRUN_VALUE_1=" + big, "CHAINRUN_VALUE_2=small", "CHAINRUN_VALUE_3=" + huge}
	script := `printf %s "${CHAINRUN_VALUE_1}" | wc -c; printf %s "${CHAINRUN_VALUE_2}"; echo; printf %s "${CHAINRUN_VALUE_3}" | wc -c
cat <<'END' | wc -c
` + huge + `
END`
	s, keep, feeds, err := feedBigValues(script, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(keep) != 1 || len(feeds) != 3 {
		t.Fatalf("kept %d in the environment, fed %d", len(keep), len(feeds))
	}
	cmd := executor.Command{Script: s, Env: keep, Feeds: feeds}
	res, err := cmd.Run(context.Background())
	if err != nil {
		t.Fatal(err, res.Stderr)
	}
	got := strings.Fields(res.Stdout)
	want := []string{"307202", "small", "3145728", "3145729"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", got, want)
	}
}

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

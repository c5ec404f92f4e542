package proc

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/executor"
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

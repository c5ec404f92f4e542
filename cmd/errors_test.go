package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/store"
)

// someNewRefusal stands for an error type added later: declaring its
// class is all it takes to exit 2.
type someNewRefusal struct{}

func (someNewRefusal) Error() string    { return "refused" }
func (someNewRefusal) NothingRan() bool { return true }

func TestExitCodeFromTheErrorsClass(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		commandRan bool
		want       int
	}{
		{"no error", nil, true, exitOK},
		{"a plain failure", errors.New("boom"), true, exitFailed},
		{"a usage error", usagef("bad"), true, exitUsage},
		{"a new class of refusal", someNewRefusal{}, true, exitUsage},
		{"wrapped", fmt.Errorf("context: %w", someNewRefusal{}), true, exitUsage},
		{"a validation error", &chain.ValidationError{}, true, exitUsage},
		{"a chain not found", &catalog.NotFoundError{}, true, exitUsage},
		{"bad inputs", &given.InputError{}, true, exitUsage},
		{"a step that cannot run", &response.PreflightError{Kind: response.BadModel}, true, exitUsage},
		{"a rerun to confirm", &response.RerunError{Steps: []string{"s"}}, true, exitUsage},
		{"a bad --take", &response.TakeError{}, true, exitUsage},
		{"a run held by another process", &store.LockedError{}, true, exitUsage},
		{"a run not found", &store.NotFoundError{}, true, exitUsage},
		{"cobra refused the command line", errors.New("whatever cobra says"), false, exitUsage},
		{"a result already printed", &exitStatus{code: exitPaused}, true, exitPaused},
		{"an interrupt before any run", fmt.Errorf("waiting: %w", context.Canceled), true, exitInterrupted},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err, tt.commandRan); got != tt.want {
			t.Errorf("%s: exit %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestCobraRefusalsExitTwoWithAHint: a refused command line is exit 2 and
// points at the help of the command it was given to, with the flag meant
// when one is close.
func TestCobraRefusalsExitTwoWithAHint(t *testing.T) {
	for _, tt := range []struct {
		args []string
		hint string
	}{
		{[]string{"no-such-command"}, "Run 'chainrun --help' for usage."},
		{[]string{"run", "--no-such-flag"}, "unknown flag: --no-such-flag; see chainrun run --help"},
		{[]string{"validate", "--max-parallel"}, "; see chainrun validate --help"},
		{[]string{"list", "--output"}, "flag needs an argument: --output; see chainrun list --help"},
		{[]string{"run", "hello", "--inptu", "who=x"}, "unknown flag: --inptu (did you mean --input?); see chainrun run --help"},
		{[]string{"resume", "x", "--rerum", "a"}, "unknown flag: --rerum (did you mean --rerun?); see chainrun resume --help"},
		{[]string{"runs", "show", "x", "--gant"}, "(did you mean --gantt?); see chainrun runs show --help"},
		{[]string{"runs", "--chian", "x"}, "unknown flag: --chian (did you mean --chain?); see chainrun runs --help"},
		{[]string{"run", "hello", "--max-parallel", "lots"}, `invalid argument "lots" for "--max-parallel" flag`},
		{[]string{"graph", "--formt", "dot"}, "(did you mean --format?)"},
		{[]string{"run", "hello", "--zzz"}, "unknown flag: --zzz; see chainrun run --help"},
	} {
		io, _, _, errOut := iostreams.Test()
		if code := Execute(context.Background(), io, tt.args); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", tt.args, code, errOut)
		}
		if !strings.Contains(errOut.String(), tt.hint) {
			t.Errorf("%v: no %q in %q", tt.args, tt.hint, errOut)
		}
	}
}

// TestJSONOutputAlwaysPrintsAnErrorObject: with -o json every failure that
// has no result of its own prints one JSON object of one shape on stdout,
// exit 2 included; a failure of exit 1 (a full disk) too.
func TestJSONOutputAlwaysPrintsAnErrorObject(t *testing.T) {
	check := func(name, out string, wantCode int) {
		t.Helper()
		var rep text.ErrorReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: stdout is not one JSON object: %q", name, out)
		}
		if rep.Status != "error" || rep.Error.ExitCode != wantCode || rep.Error.Message == "" {
			t.Errorf("%s: %+v", name, rep)
		}
	}
	for _, args := range [][]string{
		{"run", "--no-such-flag", "-o", "json"},
		{"-o", "json", "run", "--no-such-flag"},
		{"--output=json", "no-such-command"},
		{"run", "no-such-chain", "-ojson", "--chains-dir", t.TempDir()},
		{"resume", "20990101-000000-000-abcdef", "-o", "json"},
	} {
		io, _, out, errOut := iostreams.Test()
		t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
		if code := Execute(context.Background(), io, args); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
		check(fmt.Sprint(args), out.String(), exitUsage)
		if errOut.Len() == 0 {
			t.Errorf("%v: nothing on stderr", args)
		}
	}
	// an invalid chain: its diagnostics, with their places
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("name: bad\nsteps:\n  - {id: a, type: cli, run: 'echo {nope}'}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	io, _, out, _ := iostreams.Test()
	if code := Execute(context.Background(), io, []string{"run", "bad", "-o", "json", "--chains-dir", dir}); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	check("invalid chain", out.String(), exitUsage)
	var rep text.ErrorReport
	_ = json.Unmarshal(out.Bytes(), &rep)
	if len(rep.Error.Diagnostics) == 0 || rep.Error.Diagnostics[0].Pos.Line != 3 || !strings.Contains(rep.Error.Diagnostics[0].Message, "nope") {
		t.Errorf("diagnostics: %+v", rep.Error.Diagnostics)
	}
	// a failure after the command started (a full disk): exit 1, the same shape
	io, _, out, _ = iostreams.Test()
	if code := reportError(io, errors.New("write run.json: no space left on device"), true, true); code != exitFailed {
		t.Errorf("exit %d", code)
	}
	check("full disk", out.String(), exitFailed)
	// an interrupt before a run began: 130, in words a user reads
	io, _, out, errOut := iostreams.Test()
	if code := reportError(io, fmt.Errorf("waiting for the lock: %w", context.Canceled), true, false); code != exitInterrupted || errOut.String() != "chainrun: interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// text output prints nothing on stdout
	io, _, out, _ = iostreams.Test()
	reportError(io, usagef("bad"), true, false)
	if out.Len() != 0 {
		t.Errorf("text mode printed %q", out)
	}
}

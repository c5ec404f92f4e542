package prompt

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/ask"
)

// askCall puts one tool call to a terminal that answers with input, and
// returns the verdict and what the person saw.
func askCall(t *testing.T, args, input string) (bool, string) {
	t.Helper()
	var out bytes.Buffer
	ok, err := New(strings.NewReader(input), &out).ToolAsker(nil)(context.Background(),
		ask.ToolCallRequest{Step: "agent", Tool: "Bash", Arguments: args, Digest: "cbabf68da7dc"})
	if err != nil {
		t.Fatal(err)
	}
	return ok, out.String()
}

// TestGrantPromptPaddingCannotHideACommand holds that no padding — spaces,
// real or JSON-escaped newlines, escape sequences, bidirectional overrides
// — keeps the tail of a call out of the question's first screen, and that
// nothing in the arguments reaches the terminal as a control character.
func TestGrantPromptPaddingCannotHideACommand(t *testing.T) {
	tail := "; touch hidden-ran"
	for name, pad := range map[string]string{
		"spaces":               strings.Repeat(" ", 3000),
		"JSON newlines":        strings.Repeat(`\n`, 3000),
		"JSON escapes":         strings.Repeat(`\u001b[1A`, 500),
		"raw newlines":         strings.Repeat("\n", 3000),
		"raw escape sequences": strings.Repeat("\x1b[2K\x1b[1A", 400),
		"carriage returns":     strings.Repeat("\r", 100),
		"C1 CSI and overrides": strings.Repeat("\u009b2J\u202e", 300),
		"tabs and spaces":      strings.Repeat(" \t", 2000),
		"zero-width spaces":    strings.Repeat("\u200b", 3000),
	} {
		t.Run(name, func(t *testing.T) {
			_, seen := askCall(t, `{"command": "echo ok`+pad+tail+`"}`, "n\n")
			first, _, _ := strings.Cut(seen, "Allow this one call?")
			if !strings.Contains(first, tail) {
				t.Errorf("the command's tail is not on the question:\n%s", seen)
			}
			for _, c := range seen {
				if (c < 0x20 && c != '\n') || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u202e' || c == '\u200b' {
					t.Fatalf("a control character %U reached the terminal:\n%q", c, seen)
				}
			}
			if strings.Count(seen, "\n") > 8 {
				t.Errorf("the arguments' newlines reached the terminal:\n%s", seen)
			}
		})
	}
}

// TestGrantPromptLongCallSaysWhatIsNotShown holds that a long call is
// shown in part with the count of what follows, and v shows it whole
// before the person answers.
func TestGrantPromptLongCallSaysWhatIsNotShown(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 5000; i++ {
		fmt.Fprintf(&b, "echo step-%d; ", i)
	}
	args := `{"command": "` + b.String() + `rm -rf ./the-end"}`
	ok, seen := askCall(t, args, "n\n")
	if ok || !strings.Contains(seen, "more characters not shown: answer v to view the whole call") ||
		!strings.Contains(seen, "[y/N/v]") || strings.Contains(seen, "the-end") {
		t.Fatalf("a cut call does not say so:\n%s", seen)
	}
	more := len(args) - previewMax
	if !strings.Contains(seen, fmt.Sprintf("… %d more characters", more)) {
		t.Errorf("the count of characters not shown is not %d:\n%s", more, seen)
	}
	ok, seen = askCall(t, args, "v\ny\n")
	if !ok || !strings.Contains(seen, "The whole call:") || !strings.Contains(seen, "rm -rf ./the-end") {
		t.Errorf("v did not show the whole call before y:\n%s", seen)
	}
}

func TestGrantPromptAnswers(t *testing.T) {
	for input, want := range map[string]bool{"y\n": true, "yes\n": true, "Y\n": true, "n\n": false, "\n": false, "": false, "v\ny\n": true, "whatever\n": false} {
		ok, seen := askCall(t, `{"command": "touch ran"}`, input)
		if ok != want {
			t.Errorf("%q: allowed %v", input, ok)
		}
		if !strings.Contains(seen, `Bash({"command": "touch ran"})  [digest cbabf68da7dc]`) {
			t.Errorf("a short call is not shown whole:\n%s", seen)
		}
	}
}

package text

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/store"
)

// Result writes a finished run in text: its warnings to errOut, and to
// w a paused workflow's choices, a succeeded run's output (a string as it
// is, any other value as indented JSON), else nothing, so
// $(chainrun run x) holds the output alone. said tells that the progress
// lines on the terminal w shows already said how the run ended ("deploy
// paused at gate"): it is not said twice.
func Result(w, errOut io.Writer, res *record.Result, said bool) error {
	for _, warning := range res.Warnings {
		fmt.Fprintln(errOut, "chainrun: warning: "+warning)
	}
	if res.Status == record.Paused {
		return pause(w, res, !said)
	}
	if res.Status != record.Succeeded || res.Output == nil {
		return nil
	}
	text, ok := res.Output.(string)
	if !ok {
		b, err := json.MarshalIndent(res.Output, "", "  ")
		if err != nil {
			return err
		}
		text = string(b)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, err := io.WriteString(w, text)
	return err
}

// Pause shows a run paused at a decision point: what is to be decided,
// the choices and the command that takes each.
func Pause(w io.Writer, res *record.Result) error { return pause(w, res, true) }

// pause is Pause, with or without its headline ("deploy paused at gate
// (run ID)"), which the progress lines may have said already.
func pause(w io.Writer, res *record.Result, headline bool) error {
	var b strings.Builder
	if headline {
		fmt.Fprintf(&b, "%s paused at %s (run %s)\n\n", res.Name, res.State, res.RunID)
	}
	for _, in := range res.Within {
		// the decision is a workflow's that a workflow step runs
		fmt.Fprintf(&b, "inside workflow %s (step %s), at state %s\n", in.Workflow, in.Step, in.State)
	}
	if len(res.Within) > 0 {
		b.WriteString("\n")
	}
	if g := res.Guidance; g != nil {
		if g.Goal != "" {
			fmt.Fprintf(&b, "goal: %s\n\n", g.Goal)
		}
		if g.Instructions != "" {
			fmt.Fprintf(&b, "%s\n\n", g.Instructions)
		}
	}
	if res.Deadline != "" {
		fmt.Fprintf(&b, "deadline: %s (then the next resume takes its on_timeout transition)\n\n", res.Deadline)
	}
	if len(res.Links) == 0 {
		// no transition is allowed now (the warnings say why): a later
		// call moves the run once a timeout passed or what a guard reads changed
		fmt.Fprintf(&b, "no transition is allowed now (the warnings say why); go on once that changed:\n  %s\n", response.ResumeCommand(res.RunID, ""))
	} else {
		b.WriteString("choose one:\n")
		resumeLines(&b, "  ", res.RunID, res.Links)
	}
	if g := res.Guidance; g != nil {
		acknowledge(&b, g.Acknowledge)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// acknowledge shows the bodies a decision's acknowledgment guards ask to
// be read: what the person acknowledges with --ack SUBJECT.
func acknowledge(b *strings.Builder, shown []response.Described) {
	if len(shown) == 0 {
		return
	}
	b.WriteString("\nread before acknowledging (--ack SUBJECT):\n")
	for _, d := range shown {
		if d.Acknowledged {
			fmt.Fprintf(b, "  %s %s: acknowledged (%s)\n", d.Kind, d.Subject, d.Hash)
			continue
		}
		fmt.Fprintf(b, "  %s %s (%s):\n", d.Kind, d.Subject, d.Hash)
		for _, line := range strings.Split(strings.TrimRight(d.Body, "\n"), "\n") {
			fmt.Fprintf(b, "    %s\n", line)
		}
	}
}

// Interrupted is the message of a run stopped by a signal: what stopped
// and how to go on (with --reload when its chain file was edited since;
// see ResumeHint).
func Interrupted(res *record.Result, edit ...store.Edit) string {
	e := editOf(edit)
	return fmt.Sprintf("%s %s (run %s); resume it with: %s%s", res.Name, res.Error, res.RunID, response.ResumeCommand(res.RunID, "")+e.flag(), e.note())
}

// Failure is the message of a failed run: where it failed, why, and what
// to run next; with tails, the last lines each failed step's command
// wrote on stdout and stderr.
func Failure(res *record.Result, tails bool, edit ...store.Edit) string {
	msg := fmt.Sprintf("%s failed (run %s): %s", res.Name, res.RunID, res.Error)
	switch {
	case res.WorkflowResult != nil && res.Outcome != "":
		// an end the workflow declares: nothing to resume
		return fmt.Sprintf("%s %s at state %s (run %s): the state's outcome", res.Name, res.Status, res.State, res.RunID)
	case res.WorkflowResult != nil:
		msg = fmt.Sprintf("%s failed at state %s (run %s): %s", res.Name, res.State, res.RunID, res.Error)
	}
	msg += "\n" + ResumeHint(res, edit...)
	if t := OutputTails(res.Steps); tails && t != "" {
		msg += "\n" + strings.TrimSuffix(t, "\n")
	}
	return msg
}

// OutputTails shows what each failed step's command printed last, each
// stream under a line that names it, its lines indented; "" when none
// printed anything.
func OutputTails(steps []record.StepResult) string {
	var b strings.Builder
	for _, s := range steps {
		for _, t := range s.Tails() {
			fmt.Fprintf(&b, "--- %s of %s (last lines) ---\n  %s\n", t.Stream, s.ID, strings.ReplaceAll(t.Text, "\n", "\n  "))
		}
	}
	return b.String()
}

// ResumeHint is what to run after a failure: the retry links of a
// workflow, one a line, else resume. When the run's chain file was edited
// since the run read it (an Edit with a File), a resume would run the old
// chain again: the commands take --reload when it would run the file as
// it is now, and a note says what changed.
func ResumeHint(res *record.Result, edit ...store.Edit) string {
	e := editOf(edit)
	if res.WorkflowResult == nil || len(res.Links) == 0 {
		return "resume it with: " + response.ResumeCommand(res.RunID, "") + e.flag() + e.note()
	}
	lines := make([]string, len(res.Links))
	for i, l := range res.Links {
		lines[i] = fmt.Sprintf("%s: %s", l.Title, render.ResumeCommand(res.RunID, l)+e.flag())
	}
	return strings.Join(lines, "\n") + e.note()
}

// fileEdit words a chain file's Edit in a resume hint.
type fileEdit store.Edit

func editOf(edit []store.Edit) fileEdit {
	if len(edit) == 0 {
		return fileEdit{}
	}
	return fileEdit(edit[0])
}

// flag is what a resume command takes for the edit.
func (e fileEdit) flag() string {
	if e.File != "" && e.Reloadable {
		return " --reload"
	}
	return ""
}

// note explains the edit, on a line of its own.
func (e fileEdit) note() string {
	switch {
	case e.File == "":
		return ""
	case e.Reloadable:
		return fmt.Sprintf("\n(%s changed since this run began: --reload runs it as it is now; without --reload the run's snapshot of it runs again)", e.File)
	case e.Invalid:
		return fmt.Sprintf("\n(%s changed since this run began and is not valid now: %s validate %s; a resume without --reload runs the run's snapshot of it)", e.File, response.Command(), response.ShellWord(e.File))
	}
	return fmt.Sprintf("\n(%s changed since this run began and no longer has the run's steps: a resume runs the run's snapshot of it; start a new run to use the file)", e.File)
}

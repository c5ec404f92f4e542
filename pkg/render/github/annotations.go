package github

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// annotations are the workflow commands that put a run's outcome on the
// chain file in GitHub's UI: an ::error at the failing step's line, a
// ::warning for a step that failed under continue_on_error or an
// interrupted run, a ::notice at the state a workflow paused at. file is
// the chain file as GitHub should link it.
func annotations(c *chain.Chain, res *record.Result, file string) []string {
	var out []string
	primary := ""
	switch res.Status {
	case record.Failed:
		if s, ok := res.FailedStep(c); ok {
			primary = s.ID
		}
		title := res.Name + " failed"
		var pos chain.Pos
		switch {
		case primary != "" && c.Workflow != nil:
			if s := c.Workflow.State(res.State); s != nil && s.Task != nil && s.Task.ID == primary {
				title += " at the task of state " + res.State
			} else {
				title += fmt.Sprintf(" at transition %s (state %s)", primary, res.State)
			}
			pos = stepPos(c, primary)
		case primary != "":
			title += " at step " + primary
			pos = stepPos(c, primary)
		case c.Workflow != nil:
			title += " at state " + res.State
			if s := c.Workflow.State(res.State); s != nil {
				pos = s.Pos
			}
		}
		out = append(out, ghCommand("error", located(file, pos, title), res.Error+"\n"+text.ResumeHint(res)))
	case record.Interrupted:
		out = append(out, ghCommand("warning", located(file, chain.Pos{}, res.Name+" interrupted"),
			text.Interrupted(res)))
	case record.Paused:
		var pos chain.Pos
		if c.Workflow != nil {
			if s := c.Workflow.State(res.State); s != nil {
				pos = s.Pos
			}
		}
		out = append(out, ghCommand("notice", located(file, pos, fmt.Sprintf("%s paused at %s", res.Name, res.State)), pauseMessage(res)))
	}
	for _, s := range res.Steps {
		st := c.Step(s.ID)
		if s.Status != record.StepFailed || s.ID == primary || st == nil || !st.ContinueOnError {
			continue
		}
		out = append(out, ghCommand("warning", located(file, st.Pos, fmt.Sprintf("step %s failed (continue_on_error)", s.ID)),
			fmt.Sprintf("step %s failed: %s", s.ID, s.Error)))
	}
	return out
}

// stepPos is where a step (a transition's executor, a state's task) is
// written in its file; zero when the chain does not know it.
func stepPos(c *chain.Chain, id string) chain.Pos {
	if s := c.Step(id); s != nil {
		return s.Pos
	}
	return chain.Pos{}
}

// located are an annotation's properties: the file, the line and column
// when known, and the title.
func located(file string, pos chain.Pos, title string) []ghProp {
	props := []ghProp{{"file", file}}
	if pos.Line > 0 {
		props = append(props, ghProp{"line", strconv.Itoa(pos.Line)})
		if pos.Col > 0 {
			props = append(props, ghProp{"col", strconv.Itoa(pos.Col)})
		}
	}
	return append(props, ghProp{"title", title})
}

// pauseMessage names the state, its goal and the commands that take each
// link of a paused workflow.
func pauseMessage(res *record.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s paused at %s (run %s)", res.Name, res.State, res.RunID)
	if g := res.Guidance; g != nil && g.Goal != "" {
		fmt.Fprintf(&b, "\ngoal: %s", g.Goal)
	}
	if res.Deadline != "" {
		fmt.Fprintf(&b, "\ndeadline: %s", res.Deadline)
	}
	for _, l := range res.Links {
		fmt.Fprintf(&b, "\n%s  # %s", render.ResumeCommand(res.RunID, l), l.Title)
	}
	return b.String()
}

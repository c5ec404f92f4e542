package text

import (
	"fmt"
	"io"
	"strings"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// Plan writes a dry run: each step (or a workflow's task and transition)
// as it would run, with its wave, condition, directory, model and action.
func Plan(w io.Writer, name string, plan []record.PlannedStep) error {
	fmt.Fprintf(w, "dry run of %s: nothing is executed\n", name)
	for _, p := range plan {
		deps := ""
		if len(p.DependsOn) > 0 {
			deps = " after " + strings.Join(p.DependsOn, ", ")
		}
		fallback := ""
		if p.Fallback > 0 {
			fallback = fmt.Sprintf(", fallback %d: runs if the one before fails", p.Fallback)
		}
		switch {
		case p.Transition != "":
			fmt.Fprintf(w, "\n%s → %s by %s (%s%s)\n", p.State, p.Target, p.Transition, p.Kind, fallback)
		case p.State != "":
			fmt.Fprintf(w, "\n%s task (%s)\n", p.State, p.Kind)
		case p.Handler != "":
			fmt.Fprintf(w, "\n%s (%s, %s handler: once the steps have finished)\n", p.ID, p.Kind, p.Handler)
		default:
			fmt.Fprintf(w, "\n%s (%s, wave %d%s%s)\n", p.ID, p.Kind, p.Wave, deps, fallback)
		}
		if p.Condition != "" {
			fmt.Fprintf(w, "  if: %s\n", p.Condition)
		}
		if p.Stops != "" {
			fmt.Fprintf(w, "  stops the run before it starts: %s\n", p.Stops)
		}
		if p.Cwd != "" {
			fmt.Fprintf(w, "  cwd: %s\n", p.Cwd)
		}
		if p.Model != "" {
			models := p.Model
			if len(p.FallbackModels) > 0 {
				models += " (then " + strings.Join(p.FallbackModels, ", ") + ")"
			}
			fmt.Fprintf(w, "  model: %s\n", models)
		}
		if p.System != "" {
			fmt.Fprintf(w, "  system: %s\n", p.System)
		}
		if p.MaxTurns > 0 {
			tools := strings.Join(p.Tools, ", ")
			if tools == "" {
				tools = "none"
			}
			fmt.Fprintf(w, "  tools: %s (at most %d model calls: max_turns)\n", tools, p.MaxTurns)
		}
		if p.Completion != "" {
			fmt.Fprintf(w, "  completion: %s (the step ends when the model calls it)\n", p.Completion)
		}
		for _, pt := range p.PreTools {
			fmt.Fprintf(w, "  pre_tool %s\n", strings.ReplaceAll(pt, "\n", "\n    "))
		}
		if p.Action == "" {
			continue
		}
		for _, line := range strings.Split(strings.TrimRight(p.Action, "\n"), "\n") {
			if strings.TrimSpace(line) == "" {
				fmt.Fprintln(w) // a blank line of a script stays blank
				continue
			}
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	return nil
}

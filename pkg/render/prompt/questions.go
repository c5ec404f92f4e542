package prompt

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Decider asks the person to choose a link of a human decision point,
// and the arguments it needs, with held (nil for none) kept from drawing
// meanwhile.
func (t *Terminal) Decider(held Holder) response.Decider {
	return func(ctx context.Context, d response.Decision) (c response.Choice, ok bool, err error) {
		t.ask(held, func() { c, ok, err = t.decide(ctx, d) })
		return c, ok, err
	}
}

// decide lists the links and reads a choice by number or name, then the
// arguments the chosen link needs. An empty answer (or end of input)
// declines: the run pauses, resumable.
func (t *Terminal) decide(ctx context.Context, d response.Decision) (response.Choice, bool, error) {
	out := t.out
	fmt.Fprintf(out, "\nDecision at %s", d.State)
	if d.Goal != "" {
		fmt.Fprintf(out, ": %s", d.Goal)
	}
	fmt.Fprintln(out)
	if d.Guidance != "" {
		fmt.Fprintf(out, "%s\n", d.Guidance)
	}
	width, titles := 0, 0
	for _, l := range d.Links {
		width, titles = max(width, len(l.Transition)), max(titles, len(l.Title))
	}
	for i, l := range d.Links {
		line := fmt.Sprintf("  %d) %-*s  %-*s", i+1, width, l.Transition, titles, l.Title)
		if len(l.Args) > 0 {
			line += "  (asks for " + argNames(l.Args) + ")"
		}
		fmt.Fprintln(out, strings.TrimRight(line, " "))
	}
	for tries := 0; tries < 3; tries++ {
		fmt.Fprintf(out, "Choose 1-%d or a name (Enter to pause): ", len(d.Links))
		answer, ok, err := t.answer(ctx)
		if !ok {
			return response.Choice{}, false, err
		}
		if l, found := chosen(d.Links, answer); found {
			return t.arguments(ctx, d, l)
		}
		fmt.Fprintf(out, "%q is not one of the choices.\n", answer)
	}
	return response.Choice{}, false, nil
}

// answer reads one answer; ok is false when the person declined (an
// empty line, end of input) or the question was given up on (err).
func (t *Terminal) answer(ctx context.Context) (string, bool, error) {
	answer, err := t.readLine(ctx)
	if err != nil && answer == "" {
		if err == io.EOF {
			return "", false, nil
		}
		return "", false, err
	}
	answer = strings.TrimSpace(answer)
	return answer, answer != "", nil
}

// chosen is the link an answer names, by number or by name.
func chosen(links []response.Link, answer string) (response.Link, bool) {
	if n, err := strconv.Atoi(answer); err == nil && n >= 1 && n <= len(links) {
		return links[n-1], true
	}
	for _, l := range links {
		if l.Transition == answer {
			return l, true
		}
	}
	return response.Link{}, false
}

// arguments asks for each argument link l needs, with its type, choices
// and description, and has the decision check them as --arg values are
// checked; what the transition refuses is said and asked again (three
// times, then the run pauses). Enter at any of them pauses.
func (t *Terminal) arguments(ctx context.Context, d response.Decision, l response.Link) (response.Choice, bool, error) {
	c := response.Choice{Transition: l.Transition}
	if len(l.Args) == 0 {
		return c, true, nil
	}
	out := t.out
	fmt.Fprintf(out, "%s needs %s:\n", l.Transition, argNames(l.Args))
	for tries := 0; tries < 3; tries++ {
		c.Args = map[string]any{}
		for _, a := range l.Args {
			answer, ok, err := t.argument(ctx, d, l.Transition, a)
			if !ok {
				return response.Choice{}, false, err
			}
			c.Args[a.Name] = answer
		}
		if d.Check == nil {
			return c, true, nil
		}
		err := d.Check(c)
		if err == nil {
			return c, true, nil
		}
		fmt.Fprintf(out, "Refused: %s\n", visible(err.Error()))
	}
	fmt.Fprintln(out, "No arguments the transition accepts: the run pauses.")
	return response.Choice{}, false, nil
}

// argument asks for one argument, again at once while the decision
// refuses its value (three times, then the run pauses).
func (t *Terminal) argument(ctx context.Context, d response.Decision, transition string, a chain.NeededArg) (string, bool, error) {
	for tries := 0; tries < 3; tries++ {
		fmt.Fprintf(t.out, "  %s (%s) (Enter to pause): ", visible(a.Name), visible(a.Describe()))
		answer, ok, err := t.answer(ctx)
		if !ok {
			return "", false, err
		}
		if d.CheckArg == nil {
			return answer, true, nil
		}
		err = d.CheckArg(transition, a.Name, answer)
		if err == nil {
			return answer, true, nil
		}
		fmt.Fprintf(t.out, "Refused: %s\n", visible(err.Error()))
	}
	return "", false, nil
}

// argNames lists the names of args for a question.
func argNames(args []chain.NeededArg) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = visible(a.Name)
	}
	return strings.Join(names, ", ")
}

// ToolAsker asks the person whether one tool call outside a step's tools
// may run, with held (nil for none) kept from drawing meanwhile.
func (t *Terminal) ToolAsker(held Holder) ask.ToolAsker {
	return func(ctx context.Context, r ask.ToolCallRequest) (ok bool, err error) {
		t.ask(held, func() { ok, err = t.allow(ctx, r) })
		return ok, err
	}
}

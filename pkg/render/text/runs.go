package text

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// ListedRun is one saved run as `chainrun runs` lists it; its JSON is the
// entry of `runs -o json`.
type ListedRun struct {
	RunID      string       `json:"run_id"`
	Name       string       `json:"name"`
	Status     event.Status `json:"status"`
	StartedAt  string       `json:"started_at"`
	DurationMS int64        `json:"duration_ms"`
	// Dir is the directory the run started in ("" for a run saved before
	// runs recorded it).
	Dir string `json:"dir,omitempty"`
}

// ListedRunOf is a saved run's entry, started at the time its id says.
func ListedRunOf(r store.Record) ListedRun {
	started := ""
	if t, ok := run.RunIDTime(r.RunID); ok {
		started = t.UTC().Format(time.RFC3339)
	}
	return ListedRun{RunID: r.RunID, Name: r.Name, Status: r.Status, StartedAt: started, DurationMS: r.DurationMS, Dir: r.Dir}
}

// ListedRuns are the entries of saved runs (an empty list for none).
func ListedRuns(recs []store.Record) []ListedRun {
	out := make([]ListedRun, 0, len(recs))
	for _, r := range recs {
		out = append(out, ListedRunOf(r))
	}
	return out
}

// Runs writes the saved runs as a table, in the order given; DIR is where
// each started, the home directory written ~.
func Runs(w io.Writer, runs []ListedRun) error {
	tw := newTable(w)
	fmt.Fprintln(tw, strings.Join(runHeader, "\t"))
	home, _ := os.UserHomeDir()
	for _, r := range runs {
		fmt.Fprintln(tw, strings.Join(runCells(r, home), "\t"))
	}
	return tw.Flush()
}

// runCells are a run's cells in the table of runs.
func runCells(r ListedRun, home string) []string {
	return []string{r.RunID, r.Name, string(r.Status), r.StartedAt, render.Millis(r.DurationMS), homeShort(r.Dir, home)}
}

// homeShort writes a directory below home as ~/…, "" as -.
func homeShort(dir, home string) string {
	switch {
	case dir == "":
		return "-"
	case home != "" && dir == home:
		return "~"
	case home != "" && strings.HasPrefix(dir, home+string(filepath.Separator)):
		return "~" + dir[len(home):]
	}
	return dir
}

// Run shows one saved run: its status and error, then its steps (or a
// workflow's transitions) with what each cost at prices, and the usage.
func Run(w io.Writer, saved *store.Saved, prices *llm.Prices) error {
	r := saved.Record
	fmt.Fprintf(w, "run %s  chain %s  %s\n", r.RunID, r.Name, r.Status)
	if msg := r.Error; msg != "" || saved.Result != nil && saved.Result.Error != "" {
		if msg == "" {
			msg = saved.Result.Error // a run whose process died recorded none
		}
		fmt.Fprintf(w, "error: %s\n", msg)
	}
	if len(saved.Transitions) > 0 || saved.Result != nil && saved.Result.WorkflowResult != nil {
		return transitions(w, saved, prices)
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "STEP\tSTATUS\tATTEMPTS\tDURATION\tMODEL\tTOKENS\tCOST")
	var total costSum
	if saved.Result != nil {
		for _, s := range withHandlers(saved.Result) {
			name := s.ID
			if s.Handler != "" {
				name += " (" + s.Handler + ")"
			}
			// joined, not formatted: a row of each of 10,000 steps
			_, _ = io.WriteString(tw, name+"\t"+string(s.Status)+"\t"+strconv.Itoa(s.Attempts)+"\t"+render.Millis(s.DurationMS)+"\t"+
				s.Model+"\t"+tokensOf(s.Usage)+"\t"+total.add(prices, s.Model, s.Usage)+"\n")
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := total.write(w, saved.Result); err != nil || saved.Result == nil {
		return err
	}
	_, err := io.WriteString(w, OutputTails(withHandlers(saved.Result)))
	return err
}

// withHandlers is a result's steps, then its handlers' steps: the steps
// themselves when there are none (not a copy of 10,000 steps).
func withHandlers(res *record.Result) []record.StepResult {
	if len(res.Handlers) == 0 {
		return res.Steps
	}
	return slices.Concat(res.Steps, res.Handlers)
}

// transitions shows a workflow run: where it stands, every transition of
// every call in order, and what may come next.
func transitions(w io.Writer, saved *store.Saved, prices *llm.Prices) error {
	if res := saved.Result; res != nil && res.WorkflowResult != nil {
		fmt.Fprintf(w, "state: %s\n", res.State)
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "FROM\tTRANSITION\tTO\tDECIDED BY\tSTEP\tDURATION\tTOKENS\tCOST")
	var total costSum
	for _, t := range saved.Transitions {
		if t.Enter != nil {
			continue // where a workflow step's workflow began: its transitions follow
		}
		if t.Within != "" {
			// a transition of the workflow a workflow step runs
			t.From, t.To = t.Within+": "+t.From, t.Within+": "+t.To
		}
		if t.Ack != nil {
			t.Transition += " " + t.Ack.String()
		}
		decided, step, dur, tokens, cost := t.DecidedBy, "", "", "", ""
		if decided == "" {
			decided = "-"
		}
		if t.Result != "" {
			decided = "result " + t.Result
		}
		if s := t.Step; s != nil {
			step = string(s.Status)
			if s.Fallback > 0 {
				step += fmt.Sprintf(" (fallback %d)", s.Fallback) // the executor that answered
			}
			dur = render.Millis(s.DurationMS)
			tokens = tokensOf(s.Usage)
			cost = total.add(prices, s.Model, s.Usage)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.From, t.Transition, t.To, decided, step, dur, tokens, cost)
	}
	if s, ok := stopped(saved.Result); ok {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", saved.Result.State, s.ID, "-", "-", s.Status,
			render.Millis(s.DurationMS), tokensOf(s.Usage), total.add(prices, s.Model, s.Usage))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := total.write(w, saved.Result); err != nil {
		return err
	}
	if res := saved.Result; res != nil {
		if _, err := io.WriteString(w, OutputTails(res.Steps)); err != nil {
			return err
		}
	}
	if res := saved.Result; res != nil && res.WorkflowResult != nil && len(res.Links) > 0 {
		fmt.Fprintln(w, "next:")
		resumeLines(w, "  ", res.RunID, res.Links)
		if g := res.Guidance; g != nil {
			var b strings.Builder
			acknowledge(&b, g.Acknowledge)
			_, err := io.WriteString(w, b.String())
			return err
		}
	}
	return nil
}

// stopped is the executor a workflow run failed in or was running when it
// was interrupted (its transition was never taken, so no saved transition
// shows it): the last step, when the link that retries it names it.
func stopped(res *record.Result) (record.StepResult, bool) {
	if res == nil || res.WorkflowResult == nil || res.Status != record.Failed && res.Status != record.Interrupted ||
		len(res.Steps) == 0 || len(res.Links) == 0 {
		return record.StepResult{}, false
	}
	last := res.Steps[len(res.Steps)-1]
	return last, last.Status == record.StepFailed && last.ID == res.Links[0].Transition
}

// tokensOf shows a step's tokens as input→output.
func tokensOf(u *record.Usage) string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf("%d→%d", u.InputTokens, u.OutputTokens)
}

// costSum adds up what a run's model calls cost, noting calls to models
// whose price is not known.
type costSum struct {
	usd     float64
	priced  bool
	unknown []string
}

// add counts one step's cost and returns it for its row.
func (c *costSum) add(prices *llm.Prices, model string, u *record.Usage) string {
	if u == nil || model == "" || u.InputTokens+u.OutputTokens == 0 {
		return ""
	}
	p, ok := prices.Of(model)
	if !ok {
		if !slices.Contains(c.unknown, model) {
			c.unknown = append(c.unknown, model)
		}
		return "?"
	}
	usd := p.Cost(llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens})
	c.usd += usd
	c.priced = true
	return fmtUSD(usd)
}

// write prints the run's usage and cost under its table.
func (c *costSum) write(w io.Writer, res *record.Result) error {
	if res == nil || res.Usage.LLMCalls == 0 && res.Usage.Cached == 0 {
		return nil
	}
	u := res.Usage
	line := fmt.Sprintf("usage: %d model calls, %d cached, %d→%d tokens", u.LLMCalls, u.Cached, u.InputTokens, u.OutputTokens)
	if c.priced {
		line += ", cost " + fmtUSD(c.usd)
	}
	if len(c.unknown) > 0 {
		line += " (no price for " + strings.Join(c.unknown, ", ") + ": set prices in config)"
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

func fmtUSD(usd float64) string {
	if usd > 0 && usd < 0.01 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

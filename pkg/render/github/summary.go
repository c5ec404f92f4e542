package github

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// maxSummaryOutput caps the bytes of a run's output shown in the job
// summary: GitHub refuses a step summary over 1 MiB, and a page of output
// is what a reader looks at; the whole output stays in the saved run.
const maxSummaryOutput = 8 << 10

// summaryMarkdown is a run's report for $GITHUB_STEP_SUMMARY: a heading,
// the run at a glance, the steps, usage, the output and, for a workflow,
// its state, the transitions taken and what may happen next. It starts
// with a blank line so it stays a block of its own when appended after
// another tool's text.
func summaryMarkdown(res *record.Result, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s chainrun: %s %s\n\n", statusEmoji(res.Status), mdText(res.Name), res.Status)
	b.WriteString("| chain | status | run id | duration |\n|---|---|---|---|\n")
	chainCell := mdCode(res.Name)
	if file != "" {
		chainCell += " (" + mdCode(file) + ")"
	}
	fmt.Fprintf(&b, "| %s | %s | %s | %s |\n\n", chainCell, res.Status, mdCode(res.RunID), render.Millis(res.DurationMS))

	if res.Error != "" {
		b.WriteString("### Error\n\n")
		b.WriteString(fenced("text", res.Error))
		for _, s := range res.Steps {
			for _, t := range s.Tails() {
				fmt.Fprintf(&b, "%s of %s (last lines):\n\n", t.Stream, mdCode(s.ID))
				b.WriteString(fenced("text", t.Text))
			}
		}
	}

	if res.WorkflowResult != nil {
		writeWorkflowSummary(&b, res)
	}

	if len(res.Steps) > 0 {
		b.WriteString("### Steps\n\n")
		b.WriteString("| | step | status | attempts | duration | model | tokens (in / out) | cost |\n")
		b.WriteString("|---|---|---|---:|---:|---|---:|---:|\n")
		for _, s := range res.Steps {
			status := string(s.Status)
			if s.Reused {
				status += " (kept)"
			}
			model, tokens, cost := "–", "–", "–"
			if s.Model != "" {
				model = mdCode(s.Model)
			}
			if s.Usage != nil && (s.Usage.InputTokens > 0 || s.Usage.OutputTokens > 0) {
				tokens = fmt.Sprintf("%d / %d", s.Usage.InputTokens, s.Usage.OutputTokens)
				cost = costText(*s.Usage)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %s |\n", statusEmoji(s.Status), mdCode(s.ID), status,
				s.Attempts, render.Millis(s.DurationMS), model, tokens, cost)
		}
		b.WriteString("\n")
	}

	u := res.Usage
	fmt.Fprintf(&b, "**Usage:** %d LLM calls · %d input tokens · %d output tokens · %d cached · %s", u.LLMCalls, u.InputTokens, u.OutputTokens, u.Cached, costText(u))
	if len(u.Unpriced) > 0 {
		fmt.Fprintf(&b, " (no price known for %s: set prices: in config)", strings.Join(u.Unpriced, ", "))
	}
	b.WriteString("\n\n")

	if res.Output != nil {
		lang, text := "text", ""
		if s, ok := res.Output.(string); ok {
			text = s
		} else if data, err := json.MarshalIndent(res.Output, "", "  "); err == nil {
			lang, text = "json", string(data)
		}
		b.WriteString("### Output\n\n")
		shown, cut := truncateUTF8(text, maxSummaryOutput)
		b.WriteString(fenced(lang, shown))
		if cut > 0 {
			fmt.Fprintf(&b, "_%d more bytes not shown: `%s runs show %s -o json` has the whole output._\n\n", cut, response.Command(), res.RunID)
		}
	}
	return b.String()
}

// writeWorkflowSummary adds a workflow's state, the transitions this call
// took and the links it offers, each with the command that takes it.
func writeWorkflowSummary(b *strings.Builder, res *record.Result) {
	fmt.Fprintf(b, "**State:** %s\n\n", mdCode(res.State))
	if g := res.Guidance; g != nil && res.Status == record.Paused {
		if g.Goal != "" {
			fmt.Fprintf(b, "**Goal:** %s\n\n", mdText(g.Goal))
		}
		if g.Instructions != "" {
			fmt.Fprintf(b, "%s\n\n", mdText(g.Instructions))
		}
	}
	if len(res.Chain) > 0 {
		b.WriteString("### Transitions\n\n| from | transition | to | decided by |\n|---|---|---|---|\n")
		for _, e := range res.Chain {
			by := e.DecidedBy
			if e.Result != "" {
				by = "result " + mdCode(e.Result)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdCode(e.FromState), mdCode(e.Transition), mdCode(e.ToState), mdText(by))
		}
		b.WriteString("\n")
	}
	if len(res.Links) > 0 {
		b.WriteString("### Next\n\n")
		for _, l := range res.Links {
			fmt.Fprintf(b, "- %s: %s\n", mdText(l.Title), mdCode(render.ResumeCommand(res.RunID, l)))
		}
		b.WriteString("\n")
	}
}

// statusEmoji marks a run or step status at a glance.
func statusEmoji(status event.Status) string {
	switch status {
	case record.Succeeded:
		return "✅"
	case record.Failed:
		return "❌"
	case record.Paused:
		return "⏸️"
	case record.Interrupted:
		return "🛑"
	case record.Cancelled: // a workflow's abort, or a step another's failure stopped
		return "🚫"
	case record.StepSkipped:
		return "⏭️"
	case record.StepCached:
		return "♻️"
	}
	return "•"
}

// mdText makes text safe in a table cell or a line: no line breaks, no
// column separators.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// mdCode renders text as inline code, with a backtick run longer than
// any inside it, as CommonMark requires.
func mdCode(s string) string {
	s = mdText(s)
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// fenced is a fenced code block holding text as it is: the fence is
// longer than any backtick run in it, so the text cannot close it.
func fenced(lang, text string) string {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fence + lang + "\n" + text + fence + "\n\n"
}

// longestRun is the length of the longest run of r in s.
func longestRun(s string, r byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == r {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// truncateUTF8 cuts s to at most n bytes on a character boundary and
// says how many bytes were cut.
func truncateUTF8(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], len(s) - cut
}

// costText is what model use cost, in dollars to the cent's hundredth,
// with "+?" when a model of it has no known price.
func costText(u record.Usage) string {
	t := fmt.Sprintf("$%.4f", u.CostUSD)
	if len(u.Unpriced) > 0 {
		t += " +?"
	}
	return t
}

package chain

import "fmt"

// This file holds what a step of a pipeline (a front-end's list of
// chains run one after another, OCC's chains:) passes on of its chain's
// output; the front-end reads the file and marks the steps (Pipe).

// PipeSummary is what an OCC pipeline entry passes on of its chain's
// output: Set when the entry writes summarize_output, with a model's
// summary (Summarize) or the first Limit characters (a number).
type PipeSummary struct {
	Set       bool
	Summarize bool
	Limit     int
}

// OCC's pipeline thresholds: an output of at most pipeQuiet characters
// is passed on as it is; summarize_output: true summarizes one over
// PipeSummaryOver (and cuts it there when the summary fails); without
// summarize_output, one over PipeAutoLimit is cut there.
const (
	pipeQuiet       = 500
	PipeSummaryOver = 5000
	PipeAutoLimit   = 100000
)

// PipeSummaryPrompt is OCC's question for summarize_output: true; the
// chain's output follows it.
const PipeSummaryPrompt = "Summarize concisely, preserving key technical details, decisions, and data:\n\n"

// PipeSummaryLocals is the name the summary's prompt reads the chain's
// output by.
var PipeSummaryLocals = []string{"chain_output"}

// Pipe marks s as a chain of a pipeline: its output is kept by its id
// whether or not another step reads it, and p says what of it is passed
// on (PipedOutput).
func (s *Step) Pipe(p PipeSummary) { s.piped, s.pipeSummary = true, p }

// Piped reports whether the step is a pipeline's chain entry (Pipe).
func (s *Step) Piped() bool { return s.piped }

// Summarized reports whether an OCC pipeline entry asks a model for the
// summary of its chain's output it passes on (summarize_output: true).
func (s *Step) Summarized() bool { return s.pipeSummary.Summarize }

// PipedOutput says what an OCC pipeline entry passes on of its chain's
// output of n characters (OCC's pipeline executor): a model's summary
// (summarize), the first cut characters and note (a line saying so), or,
// when cut is 0, the output as it is.
func (s *Step) PipedOutput(n int) (summarize bool, cut int, note string) {
	p := s.pipeSummary
	switch {
	case !s.piped:
	case p.Summarize && n > pipeQuiet && n > PipeSummaryOver:
		return true, PipeSummaryOver, "[truncated — summarization failed]"
	case p.Set && !p.Summarize && n > pipeQuiet && n > p.Limit:
		return false, p.Limit, fmt.Sprintf("[truncated from %d chars]", n)
	case !p.Set && n > PipeAutoLimit:
		return false, PipeAutoLimit, fmt.Sprintf("[auto-truncated from %d chars]", n)
	}
	return false, 0, ""
}

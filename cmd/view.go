package cmd

import (
	"os"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render/github"
	"github.com/chainrun/chainrun/pkg/render/live"
	"github.com/chainrun/chainrun/pkg/render/progress"
	"github.com/chainrun/chainrun/pkg/render/prompt"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// runView is how a run is shown while it goes and once it ends: its
// event sinks (progress, GitHub Actions, the saved run once it joins),
// the live display when progress is drawn live (prompts hold it), the
// GitHub Actions renderer when the job runs there; said when the progress
// says how the run ends on the terminal the result goes to.
type runView struct {
	sinks  event.Multi
	plain  *progress.Printer
	said   bool
	live   *live.Display
	github *github.Renderer
	// trace makes the run's spans when it is exported (nil otherwise);
	// its Context goes into the run's request.
	trace *tracefeed.Run
}

// newView shows progress drawn live on a terminal that can redraw, else
// as plain lines (CI logs, pipes, --quiet, --verbose, TERM=dumb), which
// hold no escape code unless colour is forced (CLICOLOR_FORCE,
// FORCE_COLOR); with GITHUB_ACTIONS=true, also as grouped
// step logs, annotations and a job summary.
func (f *factory) newView(dir string, o engineOptions) *runView {
	plain := &progress.Printer{W: f.io.ErrOut, Verbose: o.verbose, Quiet: o.quiet, Stamp: !f.io.IsStderrTTY(),
		Color: iostreams.ColorEnabled(os.LookupEnv, false)} // plain lines are painted only when forced
	v := &runView{plain: plain, said: f.io.IsStdoutTTY() && f.io.IsStderrTTY() && !o.quiet}
	v.sinks = event.Multi{plain}
	if liveWanted(f.io.IsStderrTTY(), os.Getenv("TERM"), o) {
		if v.live = live.Open(f.io.ErrOut, iostreams.ColorEnabled(os.LookupEnv, true)); v.live != nil {
			v.sinks = event.Multi{v.live} // it measured the terminal and can redraw it
		}
	}
	if v.github = github.New(os.Getenv, dir, f.io.ErrOut, github.Options{Verbose: o.verbose, Quiet: o.quiet}); v.github != nil {
		v.sinks = append(v.sinks, v.github)
		plain.Verbose = false // step lines go into their groups, once
	}
	return v
}

// liveWanted says whether progress is drawn live: only on a terminal that
// can move its cursor (TERM=dumb cannot), and only when neither --quiet
// (no progress) nor --verbose (log lines, which a redraw would tear) asks
// for plain lines.
func liveWanted(stderrTTY bool, termName string, o engineOptions) bool {
	return stderrTTY && termName != "dumb" && !o.quiet && !o.verbose
}

// prompts are the questions a run may ask the person at the terminal:
// the choice at a human decision point and a tool call outside a step's
// tools, asked with the live display held. Without a terminal on stdin
// and stderr (CI, a pipe) nobody is asked: both are nil, and the run
// pauses at the decision and denies the call.
func (f *factory) prompts(v *runView) (response.Decider, ask.ToolAsker) {
	if !f.io.IsStdinTTY() || !f.io.IsStderrTTY() {
		return nil, nil
	}
	var held prompt.Holder = v.plain // nothing writes into a question's line
	if v.live != nil {
		held = v.live
	}
	return f.term.Decider(held), f.term.ToolAsker(held)
}

package text

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// DurableRuns writes a durable engine's runs as `runs --engine temporal`
// lists them.
func DurableRuns(w io.Writer, runs []run.RunInfo) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN ID\tCHAIN\tSTATUS\tSTARTED")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.RunID, r.Chain, r.Status, r.StartedAt)
	}
	return tw.Flush()
}

// engineFlags are the flags that choose and reach a durable engine.
var engineFlags = []string{"engine", "temporal-address", "namespace", "task-queue"}

// EngineNote is the line that follows the resume commands of a durable
// run's pause or failure when the command line chose the engine with
// flags (given: the flags set on it, by name): the printed commands need
// them too, which config or CHAINRUN_ENGINE spare. "" when none is
// needed.
func EngineNote(res *record.Result, given map[string]string) string {
	var flags string
	for _, name := range engineFlags {
		if v, ok := given[name]; ok {
			flags += " --" + name + " " + response.ShellWord(v)
		}
	}
	if flags == "" || res.Status == record.Succeeded {
		return ""
	}
	return "chainrun: a run on Temporal: its resume commands need the same flags:" + flags + " (or engine: temporal in the config, or CHAINRUN_ENGINE=temporal)"
}

package text

import (
	"cmp"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/store"
)

// PruneReport is what `chainrun runs prune` did, or would do with
// --dry-run; its JSON is `runs prune -o json`: the runs removed (entries
// as `runs -o json` lists them), how many, and the runs it kept because a
// process drives them.
type PruneReport struct {
	DryRun  bool        `json:"dry_run"`
	Removed []ListedRun `json:"removed"`
	Count   int         `json:"count"`
	Running []ListedRun `json:"running"`
	// Warnings name the runs whose saved time is after now, which
	// --older-than read as changed now and kept.
	Warnings []string `json:"warnings,omitempty"`
}

// PruneReportOf is the report of a prune.
func PruneReportOf(p store.Pruned, dryRun bool) PruneReport {
	r := PruneReport{DryRun: dryRun, Removed: []ListedRun{}, Running: []ListedRun{}, Count: len(p.Removed)}
	for _, rec := range p.Removed {
		r.Removed = append(r.Removed, ListedRunOf(rec))
	}
	for _, rec := range p.Running {
		r.Running = append(r.Running, ListedRunOf(rec))
	}
	for _, rec := range p.Ahead {
		r.Warnings = append(r.Warnings, fmt.Sprintf("run %s (%s) last changed at %s, after now: the clock was ahead when it was saved; read as now, so --older-than keeps it",
			rec.RunID, rec.Name, cmp.Or(rec.UpdatedAt, rec.StartedAt, "its id's time")))
	}
	return r
}

// Pruned writes a prune's report: a line per run removed (or that would
// be) on w, then the count; a note on errOut for each run kept because a
// process drives it.
func Pruned(w, errOut io.Writer, r PruneReport) error {
	verb := "removed"
	if r.DryRun {
		verb = "would remove"
	}
	tw := newTable(w)
	for _, l := range r.Removed {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", verb, l.RunID, l.Name, l.Status, l.StartedAt)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range r.Running {
		fmt.Fprintf(errOut, "chainrun: kept run %s (%s): a process is driving it\n", l.RunID, l.Name)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(errOut, "chainrun: warning: %s\n", w)
	}
	runs := "runs"
	if r.Count == 1 {
		runs = "run"
	}
	if r.DryRun {
		_, err := fmt.Fprintf(w, "%d %s would be removed (--dry-run: none was)\n", r.Count, runs)
		return err
	}
	_, err := fmt.Fprintf(w, "%d %s removed\n", r.Count, runs)
	return err
}

package text

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/store"
)

// Approvals writes the runs that wait on a person as a table: what each
// waits for and the transitions that answer it (resume RUN_ID --take T).
func Approvals(w io.Writer, list []store.Approval) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no run waits on a person")
		return err
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "RUN ID\tCHAIN\tSTATE\tQUEUE\tSINCE\tTAKE")
	for _, a := range list {
		links := make([]string, len(a.Links))
		for i, l := range a.Links {
			links[i] = l.Transition
		}
		queue := strings.Join(a.Queues, ",")
		if queue == "" {
			queue = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.RunID, a.Name, a.State, queue, shownTime(a.Since), strings.Join(links, ", "))
	}
	return tw.Flush()
}

// shownTime is a recorded time as the tables show times (runs' STARTED
// too): UTC, to the second; a text that is no time stays as it is.
func shownTime(recorded string) string {
	t, err := time.Parse(time.RFC3339Nano, recorded)
	if err != nil {
		return recorded
	}
	return t.UTC().Format(time.RFC3339)
}

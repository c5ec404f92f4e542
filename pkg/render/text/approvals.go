package text

import (
	"fmt"
	"io"
	"strings"

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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.RunID, a.Name, a.State, queue, a.Since, strings.Join(links, ", "))
	}
	return tw.Flush()
}

package store

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/chainrun/chainrun/pkg/event"
)

// readRecord reads the run.json of the run in directory id: JSON of a
// record, naming that run, with a status a run can have. A record that
// names another run (a copy of a run's directory, an edited id), that is
// null or {} or has a status no run has is damage: listed as corrupt
// under its directory's name, refused by every command that would act
// on it, rather than shown under a name no command accepts or, by
// prune, taken for the run it names.
func readRecord(data []byte, id string) (Record, error) {
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, err
	}
	switch {
	case rec.RunID == "":
		return Record{}, fmt.Errorf("it names no run (run_id is missing)")
	case rec.RunID != id:
		return Record{}, fmt.Errorf("it names run %q, not %q, the run of its directory (a copied or edited directory?)", rec.RunID, id)
	case !slices.Contains(RunStatuses, rec.Status) || rec.Status == event.Corrupt: // corrupt is what a listing says, never what a run.json holds
		return Record{}, fmt.Errorf("status %q is none a run has", rec.Status)
	}
	return rec, nil
}

package store

import (
	"bufio"
	"encoding/json"
	"github.com/chainrun/chainrun/pkg/fsutil"

	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/run"
)

// readResult reads result.json a member at a time, so that memory holds
// the values it keeps and one more, never the file's whole text: with
// values, its output, vars (one by one) and context are kept; without,
// they are read past one by one, and nothing of them is kept. The steps
// are decoded as they are read; the other members are small and decode
// as a Result does.
func readResult(path string, values bool) (*run.Result, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	rest := map[string]json.RawMessage{}
	var output any
	var vars, context map[string]any
	var steps []run.StepResult
	err = jsonstream.Members(dec, func(key string) error {
		switch {
		case key == "output" && values:
			return dec.Decode(&output)
		case key == "vars" && values:
			vars, err = jsonstream.Object(dec)
			return err
		case key == "context" && values:
			context, err = jsonstream.Object(dec)
			return err
		case key == "output":
			return dec.Decode(&ignored{})
		case key == "vars", key == "context":
			// one member at a time, never the whole object's text
			return jsonstream.Members(dec, func(string) error { return dec.Decode(&ignored{}) })
		case key == "steps":
			// decoded where it is, not copied, compacted and decoded
			// again with the small members: 10,000 steps are most of
			// what runs show reads
			return dec.Decode(&steps)
		}
		var raw json.RawMessage
		err := dec.Decode(&raw)
		rest[key] = raw
		return err
	})
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	var res run.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, err
	}
	res.Output, res.Vars, res.Steps = output, vars, steps
	if res.WorkflowResult != nil {
		res.Context = context
	}
	return &res, nil
}

package store

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// readResult reads result.json a member at a time, so that memory holds
// the values it keeps and one more, never the file's whole text: with
// values, its output, vars (one by one) and context are kept; without,
// they are read past one by one, and nothing of them is kept. The steps
// are decoded as they are read; the other members are small and decode
// as a Result does.
func readResult(path string, values bool) (*record.Result, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	rest := map[string]json.RawMessage{}
	var output any
	var vars, context map[string]any
	var steps []record.StepResult
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
			steps, err = decodeSteps(dec)
			return err
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
	var res record.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, err
	}
	res.Output, res.Vars, res.Steps = output, vars, steps
	if res.WorkflowResult != nil {
		res.Context = context
	}
	return &res, nil
}

// decodeSteps decodes the array of steps dec is at one step at a time,
// into blocks that grow without copying what they hold, joined once at
// the end: 10,000 steps are copied once, not a dozen times over as a
// slice doubling under json.Decode would copy them.
func decodeSteps(dec *json.Decoder) ([]record.StepResult, error) {
	t, err := dec.Token()
	if err != nil || t == nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("steps: want a JSON array, found %v", t)
	}
	var blocks [][]record.StepResult
	block := make([]record.StepResult, 0, 64)
	n := 0
	for dec.More() {
		if len(block) == cap(block) {
			blocks = append(blocks, block)
			block = make([]record.StepResult, 0, 2*cap(block))
		}
		block = block[:len(block)+1]
		if err := dec.Decode(&block[len(block)-1]); err != nil {
			return nil, err
		}
		n++
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, err
	}
	if len(blocks) == 0 {
		return block, nil
	}
	steps := make([]record.StepResult, 0, n)
	for _, b := range append(blocks, block) {
		steps = append(steps, b...)
	}
	return steps, nil
}

package chaintest

import (
	"encoding/json"
	"fmt"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// Canned are a mocked step's results, one per execution of its body.
type Canned []run.Canned

// cannedKeys are the fields of a step mock.
var cannedKeys = []string{"output", "exit_code", "stderr", "status", "error"}

// UnmarshalYAML takes one result or a list of them. A result is a
// mapping of output (text, or any YAML value as data), exit_code,
// stderr, status (an http step's) and error.
func (c *Canned) UnmarshalYAML(n *yaml.Node) error {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
		if len(items) == 0 {
			return fmt.Errorf("line %d: an empty list of step results", n.Line)
		}
	}
	for _, it := range items {
		if err := knownKeys(it, "a step mock", cannedKeys); err != nil {
			return err
		}
		var raw struct {
			Output   yaml.Node `yaml:"output"`
			ExitCode int       `yaml:"exit_code"`
			Stderr   string    `yaml:"stderr"`
			Status   int       `yaml:"status"`
			Error    string    `yaml:"error"`
		}
		if err := it.Decode(&raw); err != nil {
			return err
		}
		r := run.Canned{ExitCode: raw.ExitCode, Stderr: raw.Stderr, Status: raw.Status, Err: raw.Error}
		switch raw.Output.Kind {
		case 0:
		case yaml.ScalarNode:
			r.Output = raw.Output.Value
		default:
			var d any
			if err := raw.Output.Decode(&d); err != nil {
				return err
			}
			r.Data = jsonish(d)
		}
		*c = append(*c, r)
	}
	return nil
}

// Answers are a step's scripted model answers.
type Answers []cassette.Answer

// answerKeys are the fields of a scripted answer.
var answerKeys = []string{"text", "tool_calls", "status", "message", "retry_after", "usage"}

// UnmarshalYAML takes a list whose items are the answer's text, or a
// mapping of text, tool_calls ([{name, arguments, id}]), usage, or an
// error status with its message and retry_after.
func (a *Answers) UnmarshalYAML(n *yaml.Node) error {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for i, it := range items {
		if it.Kind == yaml.ScalarNode {
			*a = append(*a, cassette.Answer{Text: it.Value})
			continue
		}
		if err := knownKeys(it, "a scripted answer", answerKeys); err != nil {
			return err
		}
		var raw struct {
			Text      string `yaml:"text"`
			ToolCalls []struct {
				ID        string    `yaml:"id"`
				Name      string    `yaml:"name"`
				Arguments yaml.Node `yaml:"arguments"`
			} `yaml:"tool_calls"`
			Status     int            `yaml:"status"`
			Message    string         `yaml:"message"`
			RetryAfter string         `yaml:"retry_after"`
			Usage      cassette.Usage `yaml:"usage"`
		}
		if err := it.Decode(&raw); err != nil {
			return err
		}
		ans := cassette.Answer{Text: raw.Text, Status: raw.Status, Message: raw.Message, Usage: raw.Usage}
		if raw.RetryAfter != "" {
			d, err := time.ParseDuration(raw.RetryAfter)
			if err != nil {
				return fmt.Errorf("line %d: retry_after %q is not a duration (2s)", it.Line, raw.RetryAfter)
			}
			ans.RetryAfter = d
		}
		for j, tc := range raw.ToolCalls {
			if tc.Name == "" {
				return fmt.Errorf("line %d: tool call %d needs a name", it.Line, j+1)
			}
			args := "{}"
			switch tc.Arguments.Kind {
			case 0:
			case yaml.ScalarNode:
				args = tc.Arguments.Value
			default:
				var d any
				if err := tc.Arguments.Decode(&d); err != nil {
					return err
				}
				b, err := json.Marshal(jsonish(d))
				if err != nil {
					return fmt.Errorf("line %d: tool call %s: %v", it.Line, tc.Name, err)
				}
				args = string(b)
			}
			id := tc.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", i+1, j+1)
			}
			ans.ToolCalls = append(ans.ToolCalls, cassette.ToolCall{ID: id, Name: tc.Name, Arguments: args})
		}
		*a = append(*a, ans)
	}
	return nil
}

// knownKeys refuses a mapping key that is not one of keys.
func knownKeys(n *yaml.Node, what string, keys []string) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s is a mapping of %v", n.Line, what, keys)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ok := false
		for _, want := range keys {
			ok = ok || k.Value == want
		}
		if !ok {
			return fmt.Errorf("line %d: %s has no field %q (fields: %v)", k.Line, what, k.Value, keys)
		}
	}
	return nil
}

// jsonish turns YAML's decoded values into JSON's: maps with string
// keys, float64 numbers, so that they compare with a run's data.
func jsonish(v any) any {
	b, err := json.Marshal(chain.NormalizeYAML(v))
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

package run

import (
	"encoding/json"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

func TestSavedValueKeepsBytesThatAreNotUTF8(t *testing.T) {
	for _, text := range []string{"caf\xe9", "\xff\xfe\x00bin\x80", "plain é", "", "a\x00b"} {
		data, err := json.Marshal(record.StepRecord{Output: &record.SavedValue{Text: text, Data: map[string]any{"k": "v"}}})
		if err != nil {
			t.Fatal(err)
		}
		var back record.StepRecord
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back.Output.Text != text || back.Output.Data == nil {
			t.Errorf("%q came back as %q (%s)", text, back.Output.Text, data)
		}
	}
	// a record saved before bytes were kept still loads
	var old record.SavedValue
	if err := json.Unmarshal([]byte(`{"text":"café","masked":true}`), &old); err != nil || old.Text != "café" || !old.Masked {
		t.Errorf("old record: %+v, %v", old, err)
	}
}

// The JSON result keeps the exact bytes of an output and of variables
// that are not UTF-8 in output_base64 and vars_base64; UTF-8 text and
// structured values get no companion.
func TestResultKeepsBytesThatAreNotUTF8(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: a, type: cli, run: 'printf "caf\\351"', output_var: a}
  - {id: b, type: cli, run: 'printf "\\377\\000bin"', output_var: b}
  - {id: c, type: cli, run: 'printf "plain é"', output_var: c}
  - {id: d, type: transform, expr: '{"k": "v"}', output_var: d}
output: a
`, nil)
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Output       string            `json:"output"`
		OutputBase64 []byte            `json:"output_base64"`
		VarsBase64   map[string][]byte `json:"vars_base64"`
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if string(back.OutputBase64) != "caf\xe9" || back.Output != "caf\uFFFD" {
		t.Errorf("output %q, output_base64 %q", back.Output, back.OutputBase64)
	}
	if len(back.VarsBase64) != 2 || string(back.VarsBase64["a"]) != "caf\xe9" || string(back.VarsBase64["b"]) != "\xff\x00bin" {
		t.Errorf("vars_base64 %q: want a and b only, byte for byte", back.VarsBase64)
	}
}

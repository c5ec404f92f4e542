package run

import (
	"encoding/json"
	"testing"
)

func TestSavedValueKeepsBytesThatAreNotUTF8(t *testing.T) {
	for _, text := range []string{"caf\xe9", "\xff\xfe\x00bin\x80", "plain é", "", "a\x00b"} {
		data, err := json.Marshal(StepRecord{Output: &SavedValue{Text: text, Data: map[string]any{"k": "v"}}})
		if err != nil {
			t.Fatal(err)
		}
		var back StepRecord
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back.Output.Text != text || back.Output.Data == nil {
			t.Errorf("%q came back as %q (%s)", text, back.Output.Text, data)
		}
	}
	// a record saved before bytes were kept still loads
	var old SavedValue
	if err := json.Unmarshal([]byte(`{"text":"café","masked":true}`), &old); err != nil || old.Text != "café" || !old.Masked {
		t.Errorf("old record: %+v, %v", old, err)
	}
}

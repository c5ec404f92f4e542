package record

import (
	"encoding/base64"
	"encoding/json"
	"unicode/utf8"
)

// savedJSON is SavedValue's form on disk. Text that is not valid UTF-8
// (a latin-1 file, old git output, binary) would come back from JSON with
// U+FFFD in place of its bytes; it is kept as base64 in Bytes instead, so
// a resumed run reads exactly what an uninterrupted one would.
type savedJSON struct {
	Text   string `json:"text"`
	Bytes  []byte `json:"bytes,omitempty"`
	Data   any    `json:"data,omitempty"`
	Masked bool   `json:"masked,omitempty"`
}

// MarshalJSON keeps text that is not UTF-8 byte for byte (as base64).
func (v SavedValue) MarshalJSON() ([]byte, error) { return json.Marshal(v.JSONShape()) }

// JSONShape is the value MarshalJSON writes, so that a journal writes a
// big output straight from it (jsonstream.Shaper) rather than from a copy
// of its whole text.
func (v SavedValue) JSONShape() any {
	s := savedJSON{Text: v.Text, Data: v.Data, Masked: v.Masked}
	if !utf8.ValidString(v.Text) {
		s.Text, s.Bytes = "", []byte(v.Text)
	}
	return s
}

// UnmarshalJSON reads both forms: records saved before bytes were kept
// have text only.
func (v *SavedValue) UnmarshalJSON(data []byte) error {
	var s savedJSON
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*v = SavedValue{Text: s.Text, Data: s.Data, Masked: s.Masked}
	if s.Bytes != nil {
		v.Text = string(s.Bytes)
	}
	return nil
}

// KeepBytes sets the result's OutputBase64 and VarsBase64 from its output
// and vars: every one that is text and not valid UTF-8 gets its exact
// bytes there, since its JSON string cannot hold them. Call it once the
// values are final (masked).
func (r *Result) KeepBytes() {
	r.OutputBase64, r.VarsBase64 = "", nil
	if s, ok := r.Output.(string); ok && !utf8.ValidString(s) {
		r.OutputBase64 = base64.StdEncoding.EncodeToString([]byte(s))
	}
	for name, v := range r.Vars {
		if s, ok := v.(string); ok && !utf8.ValidString(s) {
			if r.VarsBase64 == nil {
				r.VarsBase64 = map[string]string{}
			}
			r.VarsBase64[name] = base64.StdEncoding.EncodeToString([]byte(s))
		}
	}
}

package pretool

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
)

// TestEncodingsRoundTrip: what write_file writes in an encoding,
// read_file reads back in the same one, as Node's Buffer does; a
// character the encoding cannot hold, or base64 or hex that does not
// decode, is an error naming it.
func TestEncodingsRoundTrip(t *testing.T) {
	cases := []struct{ encoding, text, bytes, err string }{
		{"", "héllo", "héllo", ""},
		{"latin1", "café", "caf\xe9", ""},
		{"LATIN1", "Ünïcode", "\xdcn\xefcode", ""},
		{"ascii", "plain", "plain", ""},
		{"ascii", "é", "", `'é' cannot be written as ascii`},
		{"latin1", "€", "", `'€' cannot be written as latin1`},
		{"base64", "aGk=\n", "hi", ""},
		{"base64", "not base64!", "", "the content is not base64"},
		{"hex", "00ff", "\x00\xff", ""},
		{"hex", "zz", "", "the content is not hex"},
	}
	for _, tc := range cases {
		t.Run(tc.encoding+" "+tc.text, func(t *testing.T) {
			b, err := encodeFile(tc.text, tc.encoding)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("encodeFile: %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || string(b) != tc.bytes {
				t.Fatalf("encodeFile = %q, %v; want %q", b, err, tc.bytes)
			}
			if back := decodeFile(b, tc.encoding); back != strings.TrimSpace(tc.text) {
				t.Errorf("decodeFile = %q, want %q", back, tc.text)
			}
		})
	}
}

// TestPickJSON: json_path keeps the part of a response it names, a text
// as it is and anything else as JSON; a path the data lacks, or a
// response that is not JSON, fails for good (no retry mends it).
func TestPickJSON(t *testing.T) {
	doc := `{"data": {"items": [{"name": "first", "n": 1}, {"name": "second", "tags": ["a"]}]}}`
	cases := []struct{ body, path, want, err string }{
		{doc, "data.items[1].name", "second", ""},
		{doc, "$.data.items[0].n", "1", ""},
		{doc, "data.items[1].tags", `["a"]`, ""},
		// one reader with json_extract (interp.SelectDotted): * and quoted brackets too
		{doc, "data.items.*.name", `["first","second"]`, ""},
		{doc, "data['items'][0][\"name\"]", "first", ""},
		{doc, "data.items.*.tags", "", `json_path data.items.*.tags: item 0: no field "tags"`},
		{doc, "data.items[*].name", `["first","second"]`, ""}, // as json_extract reads it
		{doc, "data.items.*.name", `["first","second"]`, ""},
		{doc, "data.nope", "", `json_path data.nope: no field "nope"`},
		{doc, "data.items[2]", "", "json_path data.items[2]: no item 2 in a list of 2"},
		{doc, "data.items[0].name.more", "", `json_path data.items[0].name.more: "more" is past the end of the data`},
		{"<html>", "a", "", "json_path a: the response is not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			v, err := pickJSON(interp.Value{Text: tc.body}, tc.path)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || !run.IsPermanent(err) {
					t.Fatalf("pickJSON: %v, want the permanent error %q", err, tc.err)
				}
				return
			}
			if err != nil || v.Text != tc.want {
				t.Errorf("pickJSON = %q, %v; want %q", v.Text, err, tc.want)
			}
		})
	}
}

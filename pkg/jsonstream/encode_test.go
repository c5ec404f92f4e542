package jsonstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

type inner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type Embedded struct {
	Name  string `json:"name"`
	Shade string
}

type Other struct {
	Name string `json:"name"` // ties with Embedded.Name at the same depth: hidden
	Deep string
}

type Tagged struct{ X int }

type withEmbedding struct {
	Embedded
	*Other
	Tagged `json:"tagged"`
	Own    string `json:"own"`
	Shade  int    // dominates Embedded.Shade, being shallower
}

type hidesUnexported struct {
	inner // its exported fields are promoted, through an unexported field
	C     int
}

type quoted struct {
	N int `json:"n,string"`
}

type zero struct {
	T time.Time `json:"t,omitzero"`
}

type omissions struct {
	S    string         `json:"s,omitempty"`
	I    int            `json:"i,omitempty"`
	F    float64        `json:"f,omitempty"`
	B    bool           `json:"b,omitempty"`
	P    *int           `json:"p,omitempty"`
	A    any            `json:"a,omitempty"`
	M    map[string]int `json:"m,omitempty"`
	L    []int          `json:"l,omitempty"`
	Arr  [0]int         `json:"arr,omitempty"`
	St   inner          `json:"st,omitempty"` // a struct is never empty
	Bad  string         `json:"bad name!,omitempty"`
	Dash string         `json:"-,"`
	Skip string         `json:"-"`
	low  string
}

type valueMarshaler struct{ N int }

func (v valueMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(`{"n": [` + strings.Repeat("1, ", v.N) + `0]}`), nil
}

type pointerMarshaler struct{ N int }

func (p *pointerMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("k-" + string(k)), nil }

type textInt int

func (k textInt) MarshalText() ([]byte, error) { return []byte("t"), nil }

type shaped struct{ Text string }

type shapedJSON struct {
	Text  string `json:"text"`
	Upper string `json:"upper,omitempty"`
}

func (s shaped) JSONShape() any { return shapedJSON{Text: s.Text, Upper: strings.ToUpper(s.Text)} }

func (s shaped) MarshalJSON() ([]byte, error) { return json.Marshal(s.JSONShape()) }

type holder struct {
	PM  pointerMarshaler  `json:"pm"`
	PMP *pointerMarshaler `json:"pmp"`
	VM  valueMarshaler    `json:"vm"`
	Sh  shaped            `json:"sh"`
	ShP *shaped           `json:"shp"`
	T   time.Time         `json:"t"`
}

// everyByte is a text holding each byte value once, and each rune
// encoding/json escapes.
func everyByte() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b) + "\u2028\u2029é😀\xed\xa0\x80"
}

func corpus() map[string]any {
	var decoded any
	_ = json.Unmarshal([]byte(`{"z": [1, 2.5, -0, 1e21, 1e-7, "x", null, true, {"": {}}, []], "a": {"<b>&": "\u2028"}}`), &decoded)
	n := 3
	return map[string]any{
		"nil":        nil,
		"string":     "caf\xe9 <tag> & \u2028 \x00 \"q\" \\",
		"every byte": everyByte(),
		"floats": []any{1e-6, 9.999999e-7, 1e21, 9.99999e20, math.Copysign(0, -1), 5e-324, math.MaxFloat64, -1.5e-10, 123456789.123,
			float32(1e-7), float32(1e-6), float32(3.4e38), float32(1e21), float32(-0.1), int8(-128), uint64(math.MaxUint64), uintptr(7)},
		"numbers":       []any{0, -1, 1.5, math.MaxInt64, uint8(7), float32(0.1), 1e21, 1e-7},
		"decoded":       decoded,
		"empty":         map[string]any{"m": map[string]any{}, "l": []any{}, "s": struct{}{}, "nilmap": map[string]int(nil), "nilslice": []int(nil)},
		"embedding":     withEmbedding{Embedded: Embedded{"e", "s"}, Other: &Other{"o", "d"}, Tagged: Tagged{1}, Own: "own", Shade: 2},
		"nil embedded":  withEmbedding{Embedded: Embedded{"e", "s"}},
		"pointer":       &withEmbedding{Own: "p"},
		"unexported":    hidesUnexported{inner: inner{A: "a", B: 2}, C: 3},
		"quoted":        quoted{N: 5},
		"omitzero":      []zero{{}, {T: time.Unix(5, 0).UTC()}},
		"omissions":     []omissions{{}, {S: "s", I: 1, F: 0.5, B: true, P: &n, A: 0, M: map[string]int{"a": 1}, L: []int{1}, Bad: "x", Dash: "d", Skip: "no", low: "no"}},
		"marshalers":    holder{VM: valueMarshaler{2}, Sh: shaped{"caf\xe9"}, T: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)},
		"marshalers *":  &holder{PMP: &pointerMarshaler{}, ShP: &shaped{"x"}, VM: valueMarshaler{0}},
		"in interfaces": []any{holder{}, pointerMarshaler{}, &pointerMarshaler{}, shaped{"i"}, valueMarshaler{1}},
		"bytes":         map[string]any{"slice": []byte("raw\xff"), "array": [3]byte{1, 2, 3}, "empty": []byte{}},
		"keys":          map[string]any{"ints": map[int]string{3: "c", 1: "a", 20: "b"}, "text": map[textKey]int{"x": 1}, "textint": map[textInt]int{1: 1}, "named": map[textKey]string{}},
		"raw":           map[string]any{"raw": json.RawMessage(` { "a" : [ 1 , 2 ] } `), "number": json.Number("12345678901234567890")},
		"nested":        map[string]any{"a": []any{map[string]any{"b": []any{[]any{}, map[string]any{"c": nil}}}}},
	}
}

// Write gives what encoding/json gives, compact and indented, for values
// of every shape the module writes and the corners of its rules.
func TestWriteMatchesEncodingJSON(t *testing.T) {
	for name, v := range corpus() {
		for _, indent := range []string{"", "  ", "\t"} {
			want, werr := json.Marshal(v)
			if indent != "" {
				want, werr = json.MarshalIndent(v, "", indent)
			}
			var got bytes.Buffer
			err := Write(&got, v, indent)
			if (err != nil) != (werr != nil) {
				t.Errorf("%s (indent %q): error %v, encoding/json's %v", name, indent, err, werr)
				continue
			}
			if werr == nil && got.String() != string(want) {
				t.Errorf("%s (indent %q):\n got %s\nwant %s", name, indent, got.String(), want)
			}
		}
	}
}

func TestWriteReportsWhatEncodingJSONRefuses(t *testing.T) {
	for _, v := range []any{math.NaN(), map[string]any{"f": func() {}}, []any{math.Inf(1)}} {
		var got bytes.Buffer
		_, want := json.Marshal(v)
		if err := Write(&got, v, "  "); err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%#v: error %v, encoding/json's %v", v, err, want)
		}
	}
}

type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteReportsAFailedWrite(t *testing.T) {
	big := map[string]any{"a": strings.Repeat("x", 200<<10), "b": strings.Repeat("y", 200<<10)}
	if err := Write(&failingWriter{n: 300 << 10}, big, "  "); err == nil || err.Error() != "disk full" {
		t.Errorf("error %v, want disk full", err)
	}
}

func FuzzWrite(f *testing.F) {
	f.Add(`{"a": [1, "x", {"b": null}], "c": {}}`, "  ")
	f.Add(`"caf\u00e9 <&>"`, "")
	f.Add(`[[], {}, [{}], 1e300, -0.0]`, "\t")
	f.Fuzz(func(t *testing.T, doc, indent string) {
		if strings.Trim(indent, " \t") != "" {
			return // json.MarshalIndent's indent is white space
		}
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			v = doc
		}
		want, _ := json.MarshalIndent(v, "", indent)
		if indent == "" {
			want, _ = json.Marshal(v)
		}
		var got bytes.Buffer
		if err := Write(&got, v, indent); err != nil || got.String() != string(want) {
			t.Errorf("got %s (%v)\nwant %s", got.String(), err, want)
		}
	})
}

// Members reads an object member by member, nested objects too, and
// reads null as an object without members.
func TestMembers(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"a": 1, "vars": {"x": "caf\u00e9", "y": [1, 2]}, "b": null} null`))
	got := map[string]any{}
	err := Members(dec, func(key string) error {
		if key != "vars" {
			var v any
			return dec.Decode(&v)
		}
		return Members(dec, func(name string) error {
			var v any
			err := dec.Decode(&v)
			got[name] = v
			return err
		})
	})
	if err != nil || len(got) != 2 || got["x"] != "café" {
		t.Fatalf("got %v, %v", got, err)
	}
	if err := Members(dec, func(string) error { return errors.New("no member expected") }); err != nil {
		t.Errorf("null: %v", err)
	}
	if err := Members(json.NewDecoder(strings.NewReader(`[1]`)), nil); err == nil {
		t.Error("an array was read as an object")
	}
}

// Write holds no copy of a big string: what it allocates does not grow
// with the text it writes (encoding/json's Marshal makes two).
func TestWriteDoesNotCopyBigStrings(t *testing.T) {
	big := strings.Repeat("line <tag> \"q\"\n", 1<<20) // 16 MiB
	v := map[string]any{"vars": map[string]any{"a": big, "b": big}, "steps": []any{map[string]any{"id": "a"}}}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if err := Write(io.Discard, v, "  "); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 1<<20 {
		t.Errorf("writing 32 MiB of strings allocated %d bytes", got)
	}
}

package jsonstream

import (
	"bufio"
	"encoding"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Shaper is a value written as another value: a type whose MarshalJSON
// only reshapes it (a field renamed, bytes that are not UTF-8 moved to a
// base64 field) implements it too, returning what MarshalJSON marshals,
// so that Write streams that value instead of holding MarshalJSON's whole
// text. The two must give the same JSON.
type Shaper interface {
	JSONShape() any
}

// maxDepth is how deep Write descends before it leaves the rest to
// encoding/json (which reports a cycle as an error).
const maxDepth = 500

// Write writes v to w as json.Marshal(v) would, or with indent as
// json.MarshalIndent(v, "", indent) would, with no newline after it. It
// walks objects, arrays and structs itself and hands each value inside
// them (a string, a number, a value with its own MarshalJSON) to
// encoding/json alone, so the memory it takes beyond v is about its
// largest single value, not the whole text.
func Write(w io.Writer, v any, indent string) error {
	e := encoders.Get().(*encoder)
	defer e.release()
	e.w.Reset(w)
	e.indent = indent
	e.value(reflect.ValueOf(v), 0)
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// encoders are kept for the next Write: a journal line each step would
// otherwise allocate a 64 KiB buffer and two encoders, garbage that a
// long run's collector keeps chasing and its peak memory shows.
var encoders = sync.Pool{New: func() any {
	bw := bufio.NewWriterSize(nil, 64<<10)
	return &encoder{w: bw, plain: json.NewEncoder(leafWriter{bw}), nested: json.NewEncoder(leafWriter{bw})}
}}

// release forgets the writer and the last error and puts e back.
func (e *encoder) release() {
	e.w.Reset(nil)
	e.err = nil
	e.num = e.num[:0]
	encoders.Put(e)
}

type encoder struct {
	w      *bufio.Writer
	indent string
	// plain writes a value that is one token (a string, a number);
	// nested one that may span lines, indented at the depth set.
	plain, nested *json.Encoder
	num           []byte // where scalar formats a number
	err           error
}

// leafWriter drops the newline json.Encoder ends each value with (it
// writes a value and its newline in one call).
type leafWriter struct{ w *bufio.Writer }

func (l leafWriter) Write(p []byte) (int, error) {
	if _, err := l.w.Write(p[:len(p)-1]); err != nil {
		return 0, err
	}
	return len(p), nil
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	shaperType        = reflect.TypeFor[Shaper]()
	numberType        = reflect.TypeFor[json.Number]()
)

func (e *encoder) value(v reflect.Value, depth int) {
	if e.err != nil {
		return
	}
	if !v.IsValid() {
		e.str("null")
		return
	}
	t := v.Type()
	if howOf(t)&shapes != 0 && (t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface || !v.IsNil()) {
		e.value(reflect.ValueOf(v.Interface().(Shaper).JSONShape()), depth)
		return
	}
	if mine, ok := ownMarshaler(v); ok || depth > maxDepth {
		if !ok {
			mine = v.Interface()
		}
		e.leaf(mine, depth)
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			e.str("null")
			return
		}
		e.value(v.Elem(), depth)
	case reflect.Map:
		e.object(v, depth)
	case reflect.Slice:
		if v.IsNil() {
			e.str("null")
			return
		}
		if t.Elem().Kind() == reflect.Uint8 {
			e.leaf(v.Interface(), depth) // base64, unless its elements marshal themselves
			return
		}
		e.array(v, depth)
	case reflect.Array:
		e.array(v, depth)
	case reflect.Struct:
		e.structure(v, depth)
	case reflect.String:
		if t == numberType {
			e.leaf(v.Interface(), depth)
			return
		}
		e.text(v.String())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		if !e.scalar(v) {
			e.leaf(v.Interface(), depth)
		}
	default:
		e.leaf(v.Interface(), depth)
	}
}

// ownMarshaler is the value to hand to encoding/json whole when v's type
// marshals itself (MarshalJSON or MarshalText, on the value or, when it
// is addressable, on its pointer).
func ownMarshaler(v reflect.Value) (any, bool) {
	h := howOf(v.Type())
	if h&marshals != 0 {
		return v.Interface(), true
	}
	if h&pointerMarshals != 0 && v.CanAddr() {
		return v.Addr().Interface(), true
	}
	return nil, false
}

// how says what a type implements that changes how it is written. It is
// worked out once per type (hows): Implements walks the type's methods,
// and Write asks for every value it writes.
type how uint8

const (
	shapes          how = 1 << iota // Shaper
	marshals                        // json.Marshaler or encoding.TextMarshaler
	pointerMarshals                 // a pointer to the type (not itself one) does
)

var hows sync.Map // reflect.Type → how

func howOf(t reflect.Type) how {
	if h, ok := hows.Load(t); ok {
		return h.(how)
	}
	var h how
	if t.Implements(shaperType) {
		h |= shapes
	}
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		h |= marshals
	}
	if pt := reflect.PointerTo(t); t.Kind() != reflect.Pointer && (pt.Implements(marshalerType) || pt.Implements(textMarshalerType)) {
		h |= pointerMarshals
	}
	hows.Store(t, h)
	return h
}

// object writes a map whose keys are strings, in the sorted order of
// encoding/json; any other map goes whole to encoding/json.
func (e *encoder) object(v reflect.Value, depth int) {
	kt := v.Type().Key()
	if kt.Kind() != reflect.String || kt.Implements(textMarshalerType) || reflect.PointerTo(kt).Implements(textMarshalerType) {
		e.leaf(v.Interface(), depth)
		return
	}
	if v.IsNil() {
		e.str("null")
		return
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	e.str("{")
	for i, k := range keys {
		e.member(i, k.String(), depth)
		e.value(v.MapIndex(k), depth+1)
	}
	e.close(len(keys), "}", depth)
}

func (e *encoder) array(v reflect.Value, depth int) {
	e.str("[")
	n := v.Len()
	for i := range n {
		if i > 0 {
			e.str(",")
		}
		e.newline(depth + 1)
		e.value(v.Index(i), depth+1)
	}
	e.close(n, "]", depth)
}

func (e *encoder) structure(v reflect.Value, depth int) {
	si := structOf(v.Type())
	if si.opaque {
		e.leaf(v.Interface(), depth)
		return
	}
	e.str("{")
	n := 0
fields:
	for _, f := range si.fields {
		fv := v
		for _, i := range f.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue fields
				}
				fv = fv.Elem()
			}
			fv = fv.Field(i)
		}
		if f.omitEmpty && empty(fv) {
			continue
		}
		e.member(n, f.name, depth)
		e.value(fv, depth+1)
		n++
	}
	e.close(n, "}", depth)
}

// empty is encoding/json's test for omitempty.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// member starts the i-th member of an object at depth: its separator,
// line and key.
func (e *encoder) member(i int, key string, depth int) {
	if i > 0 {
		e.str(",")
	}
	e.newline(depth + 1)
	e.text(key)
	if e.indent != "" {
		e.str(": ")
	} else {
		e.str(":")
	}
}

// close ends an object or array of n members: on its own line when it has
// any, as encoding/json indents.
func (e *encoder) close(n int, end string, depth int) {
	if n > 0 {
		e.newline(depth)
	}
	e.str(end)
}

func (e *encoder) newline(depth int) {
	if e.indent == "" {
		return
	}
	e.str("\n")
	for range depth {
		e.str(e.indent)
	}
}

// leaf writes one value as encoding/json does, straight into the output
// (json.Encoder marshals into a pooled buffer and hands it over).
func (e *encoder) leaf(v any, depth int) {
	if e.err != nil {
		return
	}
	enc := e.plain
	if _, own := v.(json.Marshaler); e.indent != "" && (own || !token(reflect.ValueOf(v).Kind())) {
		// a value that marshals itself, a map with other keys: it may
		// span lines, indented from where it starts
		enc = e.nested
		enc.SetIndent(strings.Repeat(e.indent, depth), e.indent)
	}
	e.err = enc.Encode(v)
}

// scalar writes a boolean or a number as encoding/json writes it (floats
// in its 'f' or 'e' form, by magnitude); false for a float it refuses
// (NaN, an infinity), which leaf reports as it does.
func (e *encoder) scalar(v reflect.Value) bool {
	b := e.num[:0]
	switch v.Kind() {
	case reflect.Bool:
		b = strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b = strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b = strconv.AppendUint(b, v.Uint(), 10)
	default:
		f, bits := v.Float(), v.Type().Bits()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return false
		}
		format, abs := byte('f'), math.Abs(f)
		if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
			format = 'e'
		}
		b = strconv.AppendFloat(b, f, format, -1, bits)
		if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1] // e-09 is written e-9
			b = b[:n-1]
		}
	}
	e.num = b
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
	return true
}

// token reports whether values of kind k are written as one token.
func token(k reflect.Kind) bool {
	return k == reflect.String || k == reflect.Bool || k >= reflect.Int && k <= reflect.Float64
}

func (e *encoder) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

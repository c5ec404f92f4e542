package jsonstream

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// Members reads the JSON object dec is at one member at a time: read is
// called with each key and must read that member's value from dec (with
// Decode, or with Members for an object inside it), so that only one
// member's text is held at once. A null is an object without members.
func Members(dec *json.Decoder, read func(key string) error) error {
	return members(dec, func() {}, read)
}

// members is Members, calling opened once it finds an object (not null).
func members(dec *json.Decoder, opened func(), read func(key string) error) error {
	t, err := dec.Token()
	if err != nil || t == nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want a JSON object, found %v", t)
	}
	opened()
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if err := read(t.(string)); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}

// Lines calls fn with each line of r and its newline, however long it is
// (JSON lines of any size): a line is in a buffer that the next one
// reuses, so fn must not keep it. The last line lacks its newline when r
// does not end with one (a write cut short); fn's first error stops the
// reading.
func Lines(r io.Reader, fn func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than br's buffer, put together
	for {
		part, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = appendDoubling(long, part)
			continue
		}
		line := part
		if len(long) > 0 {
			long = appendDoubling(long, part)
			line = long
		}
		if len(line) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		long = long[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Object decodes the JSON object dec is at into a map one member at a
// time, so that only one member's text is held at once (dec.Decode holds
// the whole object's). A null is a nil map.
func Object(dec *json.Decoder) (map[string]any, error) {
	var m map[string]any
	err := members(dec, func() { m = map[string]any{} }, func(key string) error {
		var v any
		err := dec.Decode(&v)
		m[key] = v
		return err
	})
	return m, err
}

// appendDoubling appends b to buf, doubling its capacity when it must
// grow (append grows a big slice by a quarter at a time, allocating about
// five times what it ends up holding).
func appendDoubling(buf, b []byte) []byte {
	if len(buf)+len(b) > cap(buf) {
		buf = slices.Grow(buf, max(len(b), cap(buf)))
	}
	return append(buf, b...)
}

package llm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// maxEvent caps one server-sent event: a delta is a few bytes, a whole
// message at most a few megabytes.
const maxEvent = 16 << 20

// sseEvent is one server-sent event: its name (empty for a bare data
// event) and its data lines joined by newlines.
type sseEvent struct {
	name string
	data []byte
}

// sseReader reads the text/event-stream format (the WHATWG HTML
// standard's "server-sent events"): lines of field: value, an event
// ended by an empty line, comments starting with a colon.
type sseReader struct {
	r *bufio.Reader
	// err is what ended events early: nil at the stream's clean end.
	err error
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReaderSize(r, 32<<10)} }

// errEventTooLarge is an event over maxEvent: a broken server.
var errEventTooLarge = fmt.Errorf("an event is larger than %d MiB", maxEvent>>20)

// events yields the stream's events until it ends or fails; err then
// says which.
func (s *sseReader) events() iter.Seq[sseEvent] {
	return func(yield func(sseEvent) bool) {
		for {
			ev, err := s.next()
			if err != nil {
				if err != io.EOF {
					s.err = err
				}
				return
			}
			if !yield(ev) {
				return
			}
		}
	}
}

// next returns the next event; io.EOF when the stream ended between
// events, io.ErrUnexpectedEOF when it ended inside one.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	started := false
	for {
		line, err := s.line()
		if err != nil {
			if err == io.EOF && started {
				err = io.ErrUnexpectedEOF
			}
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if started {
				return ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue // a comment (keep-alive)
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.name, started = string(value), true
		case "data":
			if ev.data != nil {
				ev.data = append(ev.data, '\n')
			}
			if len(ev.data)+len(value) > maxEvent {
				return sseEvent{}, errEventTooLarge
			}
			ev.data, started = append(ev.data, value...), true
			if ev.data == nil {
				ev.data = []byte{}
			}
		}
	}
}

// line reads one line without its ending (\n or \r\n).
func (s *sseReader) line() ([]byte, error) {
	var long []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) > maxEvent {
				return nil, errEventTooLarge
			}
			long = append(long, chunk...)
			continue
		}
		if err != nil {
			if err == io.EOF && len(chunk)+len(long) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if long != nil {
			chunk = append(long, chunk...)
		}
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		return bytes.TrimSuffix(chunk, []byte("\r")), nil
	}
}

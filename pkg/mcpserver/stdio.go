package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrame is the largest message a client may send over stdio, in bytes:
// the SDK's own line limit. A longer one is refused on its own.
const MaxFrame = mcp.DefaultMaxLineLength

// Stdio is the transport of `chainrun mcp` over in and out: the SDK's,
// with every inbound line over max bytes refused on its own — answered
// with a JSON-RPC error (its id read from the line's start, null when it
// is not there) and skipped — instead of ending the connection, and with
// it every run the server drives.
func Stdio(in io.Reader, out io.Writer, max int) mcp.Transport {
	w := &lineWriter{w: out}
	g := &frameGuard{r: bufio.NewReaderSize(in, 64<<10), w: w, max: max}
	// the SDK's limit is never reached: the guard passes whole lines of
	// at most max bytes, and the decoder may read one ahead
	return &mcp.IOTransport{Reader: io.NopCloser(g), Writer: w, MaxLineLength: 2*max + 64<<10}
}

// lineWriter writes whole lines, one at a time: the SDK's messages and
// the guard's refusals never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return nil }

// frameGuard hands the SDK the lines of r of at most max bytes.
type frameGuard struct {
	r    *bufio.Reader
	w    io.Writer
	max  int
	line []byte // what is left of the line being handed out
	err  error
}

func (g *frameGuard) Read(p []byte) (int, error) {
	for len(g.line) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		g.line, g.err = g.next()
	}
	n := copy(p, g.line)
	g.line = g.line[n:]
	return n, nil
}

// headMax is how much of a refused line is kept to find its id in.
const headMax = 4096

// next reads the next message the SDK can take: a line of at most max
// bytes that is a JSON-RPC 2.0 message of a shape it reads. Any other
// line (not JSON, nested past JSON's depth, a batch, a wrong jsonrpc, an
// id that is not a string or a whole number, a method that is not text)
// is answered with a JSON-RPC error and skipped: the SDK would end the
// connection on it, and with it every run the server drives.
func (g *frameGuard) next() ([]byte, error) {
	for {
		line, err := g.nextLine()
		if code, why, id := vet(line); code != 0 {
			g.answer(id, code, why)
			if err != nil {
				return nil, err
			}
			continue
		}
		return line, err
	}
}

// vet says what is wrong with a message line for the SDK (code 0:
// nothing; a blank line is nothing), and the id to answer with.
func vet(line []byte) (code int, why string, id any) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return 0, "", nil
	}
	if !json.Valid(t) {
		return -32700, "parse error: the message is not JSON (or nests past JSON's depth); the server goes on", nil
	}
	if t[0] != '{' {
		return -32600, "invalid request: a message is one JSON object (batches are not taken); the server goes on", nil
	}
	var m struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
	}
	if json.Unmarshal(t, &m) != nil {
		return -32600, "invalid request; the server goes on", nil
	}
	switch {
	case len(m.ID) > 0 && !validID(m.ID):
		return -32600, "invalid request: an id is a string or a whole number; the server goes on", nil
	}
	if len(m.ID) > 0 {
		id = frameID(t)
	}
	switch {
	case string(m.JSONRPC) != `"2.0"`:
		return -32600, `invalid request: jsonrpc must be "2.0"; the server goes on`, id
	case len(m.Method) > 0 && m.Method[0] != '"':
		return -32600, "invalid request: a method is a string; the server goes on", id
	case len(m.Method) == 0 && len(m.ID) == 0:
		return -32600, "invalid request: a message has a method or an id; the server goes on", nil
	}
	return 0, "", nil
}

// validID reports whether raw is an id the SDK reads as it was sent: a
// string, or a whole number within int64 (1.5 would be answered as 1).
func validID(raw json.RawMessage) bool {
	if string(raw) == "null" {
		return true
	}
	if raw[0] == '"' {
		return true
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// answer writes a JSON-RPC error for a line the SDK is not given.
func (g *frameGuard) answer(id any, code int, why string) {
	data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": why}})
	if err != nil {
		return
	}
	_, _ = g.w.Write(append(data, '\n'))
}

// nextLine reads the next line of at most max bytes, refusing each longer
// one it meets on the way.
func (g *frameGuard) nextLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := g.r.ReadSlice('\n')
		if len(line)+len(chunk) <= g.max {
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			return line, err
		}
		head := append(line, chunk[:min(len(chunk), headMax)]...)
		size := len(line) + len(chunk)
		for err == bufio.ErrBufferFull {
			chunk, err = g.r.ReadSlice('\n')
			size += len(chunk)
		}
		g.refuse(head, size)
		if err != nil {
			return nil, err
		}
		line = nil
	}
}

// refuse answers a line too long to read, whose start is head, with a
// JSON-RPC error.
func (g *frameGuard) refuse(head []byte, size int) {
	msg := map[string]any{"jsonrpc": "2.0", "id": frameID(head), "error": map[string]any{
		"code":    -32600,
		"message": fmt.Sprintf("request refused: %d bytes, over the %d a message may have over stdio; the server goes on", size, g.max),
	}}
	data, err := json.Marshal(msg)
	if err != nil {
		return
	}
	_, _ = g.w.Write(append(data, '\n'))
}

// frameID is the id of a JSON-RPC message whose start is head, when it
// comes before anything head cuts off; nil (null) when it does not.
func frameID(head []byte) any {
	d := json.NewDecoder(bytes.NewReader(head))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return nil
		}
		if key == "id" {
			var id any
			if d.Decode(&id) != nil {
				return nil
			}
			switch id.(type) {
			case string, json.Number:
				return id
			}
			return nil
		}
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return nil
		}
	}
	return nil
}

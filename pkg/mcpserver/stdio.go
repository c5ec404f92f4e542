package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// next reads the next line of at most max bytes, refusing each longer
// one it meets on the way.
func (g *frameGuard) next() ([]byte, error) {
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

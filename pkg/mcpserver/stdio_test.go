package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestAnOversizedFrameIsRefusedAndTheServerGoesOn holds that a message
// over the stdio limit — its id first, its id after what is cut off, no
// JSON at all, or the last thing sent — is answered with a JSON-RPC error
// (with its id when it can be read) and skipped: the next request is
// served as if it had not come.
func TestAnOversizedFrameIsRefusedAndTheServerGoesOn(t *testing.T) {
	const limit = 4096
	big := strings.Repeat("x", 3*limit)
	for name, tc := range map[string]struct {
		line string
		id   any
	}{
		"id first":        {`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_run","arguments":{"run_id":"` + big + `"}}}`, float64(7)},
		"string id first": {`{"jsonrpc":"2.0","id":"a-1","method":"tools/list","params":{"pad":"` + big + `"}}`, "a-1"},
		"id after params": {`{"jsonrpc":"2.0","method":"tools/call","params":{"x":"` + strings.Repeat("y", 2*headMax) + `"},"id":8}`, nil},
		"not JSON":        {big, nil},
	} {
		t.Run(name, func(t *testing.T) {
			send, read, inW, done, cancel := stdioSession(t, limit)
			send(tc.line)
			refusal := read()
			e, _ := refusal["error"].(map[string]any)
			if e == nil || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), "over the 4096") || refusal["id"] != tc.id {
				t.Fatalf("the refusal: %v", refusal)
			}
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			if next := read(); next["id"] != float64(2) || next["result"] == nil {
				t.Fatalf("after the refusal: %v", next)
			}
			// one more oversized, as the last thing sent: refused, then the end
			send(tc.line)
			if again := read(); again["error"] == nil {
				t.Fatalf("the second refusal: %v", again)
			}
			inW.Close()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the server did not end with its input")
			}
			cancel()
		})
	}
}

// TestAMalformedMessageIsAnsweredAndTheServerGoesOn holds that a line the
// SDK would end the connection on — not JSON, invalid UTF-8, nested past
// JSON's depth, a batch, a bare value, a wrong jsonrpc, an id that is an
// object, a fraction or past int64, a method that is not text — is
// answered with a JSON-RPC error and skipped, and the next request is
// served.
func TestAMalformedMessageIsAnsweredAndTheServerGoesOn(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{"n":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}}`
	for name, tc := range map[string]struct {
		line string
		code float64
		id   any
	}{
		"not JSON":      {`{not json`, -32700, nil},
		"invalid UTF-8": {"\xff\xfe", -32700, nil},
		"too deep":      {deep, -32700, nil},
		"a batch":       {`[1,2]`, -32600, nil},
		"a number":      {`42`, -32600, nil},
		"empty object":  {`{}`, -32600, nil},
		"jsonrpc 1.0":   {`{"jsonrpc":"1.0","id":5,"method":"tools/list"}`, -32600, float64(5)},
		"object id":     {`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, nil},
		"fraction id":   {`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil},
		"huge id":       {`{"jsonrpc":"2.0","id":1000000000000000000000000000000,"method":"ping"}`, -32600, nil},
		"number method": {`{"jsonrpc":"2.0","id":3,"method":5}`, -32600, float64(3)},
	} {
		t.Run(name, func(t *testing.T) {
			send, read, inW, _, cancel := stdioSession(t, MaxFrame)
			defer cancel()
			send(tc.line)
			answer := read()
			e, _ := answer["error"].(map[string]any)
			if e == nil || e["code"] != tc.code || answer["id"] != tc.id || !strings.Contains(e["message"].(string), "the server goes on") {
				t.Fatalf("the answer: %v", answer)
			}
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			if next := read(); next["id"] != float64(2) || next["result"] == nil {
				t.Fatalf("after the answer: %v", next)
			}
			inW.Close()
		})
	}
}

// stdioSession starts a server over Stdio with the line limit given and
// initializes it as a client does: send writes a line to it, read reads
// its next message; closing in ends its input, done gives Run's end.
func stdioSession(t *testing.T, limit int) (send func(string), read func() map[string]any, in io.Closer, done chan error, cancel context.CancelFunc) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := New(newMemBackend(chainsDir(t)), Options{})
	s.Reload()
	t.Cleanup(s.Close)
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan error, 1)
	go func() { done <- s.MCP().Run(ctx, Stdio(inR, outW, limit)) }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send = func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	read = func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the server said nothing more: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", lines.Bytes(), err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	read()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return send, read, inW, done, cancel
}

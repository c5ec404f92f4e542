package chain

import (
	"strings"
	"testing"
)

// TestGatewayKeysAreWarnedOf: the keys that configure an mcp-flowgate
// gateway load with a warning naming each, never in silence; an MCP
// connection, which mcp executors use, loads without one.
func TestGatewayKeysAreWarnedOf(t *testing.T) {
	src := "version: '1'\nconnections:\n  fs: {kind: mcp, command: x}\nlexicon: []\naudit: {sink: stdout}\nworkflows:\n  w:\n    initialState: a\n    states:\n      a: {terminal: true}\n"
	l, err := Parse("g.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, w := range l.Warnings {
		said = append(said, w.String())
	}
	for _, key := range []string{"4:1: warning: lexicon:", "5:1: warning: audit:"} {
		if !strings.Contains(strings.Join(said, "\n"), key) {
			t.Errorf("no warning %q in %q", key, said)
		}
	}
	if strings.Contains(strings.Join(said, "\n"), "connection") {
		t.Errorf("the mcp connection was warned of: %q", said)
	}
}

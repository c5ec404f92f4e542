package flowgate

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

// TestGatewayConfigurationIsNamed: a gateway configuration that holds no
// workflows (mcp-flowgate's proxy examples) is refused as what it is, not
// as a chain missing its name and steps; a chain file with connections is
// still a chain.
func TestGatewayConfigurationIsNamed(t *testing.T) {
	cases := []struct{ src, want string }{
		{"version: '1'\nconnections:\n  fs: {kind: mcp, command: x}\naudit: {sink: stdout}\nproxy: {expose: all}\n",
			`g.yaml:1:1: an mcp-flowgate gateway configuration without workflows: its "connections", "audit", "proxy" are not supported: a gateway's settings configure what serves workflows, and chainrun runs a file's workflows: or steps:`},
		{"discovery: {enabled: true}\n", `its "discovery" is not supported`},
		{"name: c\nconnections:\n  fs: {kind: mcp, command: x}\n", "steps: a chain needs at least one step"},
	}
	for _, tc := range cases {
		_, err := Parse("g.yaml", []byte(tc.src), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
		if strings.Contains(tc.want, "gateway") && strings.Contains(err.Error(), "name is required") {
			t.Errorf("%q: also says %v", tc.src, err)
		}
	}
}

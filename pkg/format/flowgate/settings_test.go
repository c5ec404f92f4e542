package flowgate

import (
	"strings"
	"testing"
)

// TestWriteEnabled: the file's flowgate.authoring.write_enabled reaches
// each of its workflows; the gateway's other settings are warned of.
func TestWriteEnabled(t *testing.T) {
	for _, tc := range []struct {
		top  string
		want bool
		warn string
	}{
		{"", false, ""},
		{"flowgate:\n  authoring:\n    write_enabled: true\n", true, ""},
		{"flowgate:\n  authoring:\n    write_enabled: false\n    ingest: on\n", false, "flowgate.authoring.ingest: the gateway's own setting is ignored"},
		{"flowgate:\n  telemetry: {}\n", false, "flowgate.telemetry: the gateway's own setting is ignored"},
	} {
		l, err := Parse("c.yaml", []byte(executorFile(tc.top, "kind: registry\n")), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if l.Chain.WriteEnabled != tc.want {
			t.Errorf("%q: WriteEnabled = %v", tc.top, l.Chain.WriteEnabled)
		}
		var warns []string
		for _, w := range l.Warnings {
			warns = append(warns, w.String())
		}
		if tc.warn != "" && !strings.Contains(strings.Join(warns, "\n"), tc.warn) {
			t.Errorf("%q: warnings %q hold no %q", tc.top, warns, tc.warn)
		}
	}
}

// TestWriteEnabledNotABool: the gate is true or false, said at its line.
func TestWriteEnabledNotABool(t *testing.T) {
	expectLoad(t, executorFile("flowgate:\n  authoring:\n    write_enabled: yes please\n", "kind: registry\n"),
		`c.yaml:3:20: flowgate.authoring.write_enabled is true or false, not "yes please"`)
}

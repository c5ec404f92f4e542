package tracectx

import (
	"strings"
	"testing"
)

func TestParseAndFormat(t *testing.T) {
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	c, err := Parse(tp, " congo=t61rcWkgMzE ")
	if err != nil {
		t.Fatal(err)
	}
	if c.Traceparent() != tp || !c.Sampled || c.State != "congo=t61rcWkgMzE" {
		t.Fatalf("round trip: %+v -> %s", c, c.Traceparent())
	}
	c, err = Parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "")
	if err != nil || c.Sampled {
		t.Fatalf("unsampled: %+v %v", c, err)
	}
	// a later version is read as 00 when its first four fields fit
	if _, err := Parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", ""); err != nil {
		t.Fatalf("future version: %v", err)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{
		"",
		"garbage",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",             // no flags
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01",          // zero trace
		"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",          // zero span
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",          // forbidden version
		"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",          // upper case
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",    // 00 with more fields
		"00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",          // shifted
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-zz",          // flags not hex
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" + "\x00", // control byte
		strings.Repeat("0", 55),
	} {
		if _, err := Parse(bad, ""); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestDeriveIsStableAndDistinct(t *testing.T) {
	a, b := NewTrace(), NewTrace()
	if a.Trace == b.Trace || !a.Sampled {
		t.Fatalf("two new traces: %v %v", a.Trace, b.Trace)
	}
	if AttemptSpan(a.Trace, "build", 1) != AttemptSpan(a.Trace, "build", 1) {
		t.Fatal("the same span named twice got two ids")
	}
	seen := map[SpanID]string{}
	for _, name := range []struct {
		trace TraceID
		step  string
		n     int
	}{{a.Trace, "build", 1}, {a.Trace, "build", 2}, {a.Trace, "test", 1}, {b.Trace, "build", 1}, {a.Trace, "build1", 1}, {a.Trace, "buil", 11}} {
		id := AttemptSpan(name.trace, name.step, name.n)
		if prev, dup := seen[id]; dup {
			t.Fatalf("%v and %s share span id %s", name, prev, id)
		}
		seen[id] = name.step
	}
	if RunSpan(a.Trace) == AttemptSpan(a.Trace, "run", 0) {
		t.Fatal("the run's span collides with a step's")
	}
}

package chain

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHostileChains feeds the loader files built to hurt it. Each must be
// rejected with a positioned error, or loaded, within a bounded time —
// never a panic, a hang or a runaway allocation.
func TestHostileChains(t *testing.T) {
	big := strings.Repeat("x", 10<<20)
	var many strings.Builder
	many.WriteString("name: many\nsteps:\n")
	for i := range 100000 {
		fmt.Fprintf(&many, "  - {id: s%d, type: transform, expr: '%d'}\n", i, i)
	}
	deep := "name: deep\nsteps:\n  - {id: a, type: transform, expr: '1'}\nx-deep: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n"
	laughs := "name: lol\nx-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		laughs += fmt.Sprintf("x-%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	laughs += "steps:\n  - {id: a, type: cli, command: echo, args: *i}\n"
	cases := []struct {
		name, src string
		ok        bool
		want      string
		limit     time.Duration
	}{
		{"10 MB string", "name: big\nsteps:\n  - {id: a, type: cli, command: echo, args: ['" + big + "']}\n", true, "", 5 * time.Second},
		{"100,000 steps", many.String(), true, "", 20 * time.Second},
		{"deep nesting, ignored", deep, true, "", 5 * time.Second},
		{"deep nesting in a step", "name: deep\nsteps:\n  - {id: a, type: cli, command: echo, env: " + strings.Repeat("{a: ", 3000) + "x" + strings.Repeat("}", 3000) + "}\n", false, "c.yaml:3", 5 * time.Second},
		{"billion laughs", laughs, false, `c.yaml:9:6: step "a": args: a list is given here; text is expected`, 5 * time.Second},
		{"NUL bytes", "name: nul\nsteps:\n  - {id: a, type: cli, command: \"ec\x00ho\"}\n", false, "c.yaml:3:36: a NUL byte", time.Second},
		{"invalid UTF-8", "name: bad\xff\xfe\nsteps:\n  - {id: a, type: cli, command: echo}\n", false, "c.yaml:1:10: invalid UTF-8 (byte 0xff)", time.Second},
		{"only a scalar", "42", false, "c.yaml:1:1", time.Second},
		{"empty", "", false, "c.yaml:1:1", time.Second},
		{"tab indentation", "name: t\nsteps:\n\t- {id: a}\n", false, "c.yaml:", time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if raceEnabled && len(tc.src) > 1<<20 {
				t.Skip("the big inputs run without -race; they hold no concurrency")
			}
			start := time.Now()
			l, err := Parse("c.yaml", []byte(tc.src), Options{})
			if raceEnabled {
				tc.limit *= 20
			}
			if d := time.Since(start); d > tc.limit {
				t.Errorf("took %v (limit %v)", d, tc.limit)
			}
			if tc.ok {
				if err != nil {
					t.Fatalf("rejected: %.300v", err)
				}
				if l.Chain == nil {
					t.Fatal("no chain")
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			if !IsValidation(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %T: %.300v", err, err)
			}
		})
	}
}

package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// OCC 29f33c0 mcp-server/src/executor.ts (executeChain, "Type
// validation") and e3cf5fe mcp-server/tests/typed-inputs.test.ts
// ("validates boolean values", "rejects non-numeric value for number
// type", "validates URL format"): a boolean is true, false, 1, 0, yes or
// no in any case, a number what JavaScript's Number() reads, a url what
// starts with http:// or https://; each value kept as given. A file read
// as OCC's takes them (with a warning where chainrun's own format
// refuses one); chainrun's own format keeps its stricter types.
func TestOCCInputValuesAsOCCTakesThem(t *testing.T) {
	cases := []struct {
		typ, value string
		occ, own   bool
	}{
		{"boolean", "yes", true, false},
		{"boolean", "No", true, false},
		{"boolean", "TRUE", true, true},
		{"boolean", "0", true, true},
		{"boolean", "maybe", false, false},
		{"boolean", "y", false, false},
		{"boolean", "on", false, false},
		{"number", " 12 ", true, true},
		{"number", "0x1F", true, false},
		{"number", "1e3", true, true},
		{"number", "-Infinity", true, false},
		{"number", ".5", true, true},
		{"number", "NaN", false, false},
		{"number", "12abc", false, false},
		{"number", "1_000", false, true},
		{"url", "https://example.com/a b", true, true},
		{"url", "https://", false, false},
		{"url", "http://[::1", true, false},
		{"url", "HTTPS://example.com", false, true},
		{"url", "ftp://bad", false, false},
	}
	for _, tc := range cases {
		for _, occ := range []bool{true, false} {
			head, want := "name: t\n", tc.own
			if occ {
				head, want = occHead, tc.occ
			}
			c := load(t, head+"inputs: [{name: v, type: "+tc.typ+"}]\nsteps:\n  - {id: s1, type: transform, operation: template, template_str: '<{input.v}>', output_var: result}\noutput: result\n")
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"v": tc.value}})
			if !want {
				if err == nil || !strings.Contains(err.Error(), `input "v"`) {
					t.Errorf("occ %v: %s %q: want a refusal naming the input, got %v", occ, tc.typ, tc.value, err)
				}
				continue
			}
			if err != nil || res.Status != record.Succeeded || outputText(res) != "<"+tc.value+">" {
				t.Errorf("occ %v: %s %q: err %v, output %q: want it kept as given", occ, tc.typ, tc.value, err, res.Output)
				continue
			}
			warned := strings.Contains(strings.Join(res.Warnings, "\n"), "as OCC takes a "+tc.typ)
			if warned != (occ && !tc.own) {
				t.Errorf("occ %v: %s %q: warned %v: %q", occ, tc.typ, tc.value, warned, res.Warnings)
			}
		}
	}
}

// A default is judged as a given value is: OCC's file may write
// `default: "no"` for a boolean.
func TestOCCInputDefaultsAsOCCTakesThem(t *testing.T) {
	const body = "inputs: [{name: v, type: boolean, default: \"yes\"}]\nsteps:\n  - {id: s1, type: transform, operation: template, template_str: '{input.v}', output_var: result}\noutput: result\n"
	l, err := parseChain("t.yaml", []byte(occHead+body), chain.Options{})
	if err != nil || len(l.Warnings) == 0 || !strings.Contains(l.Warnings[0].Message, `default "yes" is taken as OCC takes a boolean`) {
		t.Fatalf("OCC file: err %v warnings %v", err, l)
	}
	if res := runChain(t, occHead+body, nil); outputText(res) != "yes" {
		t.Fatalf("output %q", outputText(res))
	}
	if _, err := parseChain("t.yaml", []byte("name: t\n"+body), chain.Options{}); err == nil || !strings.Contains(err.Error(), `"yes" is not true or false`) {
		t.Fatalf("own format: %v", err)
	}
}

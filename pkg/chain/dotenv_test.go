package chain

import (
	"slices"
	"testing"
)

// TestDotenvKey: dotenv: takes a path, a list of paths and
// {path, required} mappings, in a DAG chain and at the top of a workflow
// file; anything else is refused where it was written.
func TestDotenvKey(t *testing.T) {
	c := mustParse(t, "name: c\ndotenv: [.env, {path: .env.local, required: false}]\nsteps: [{id: a, type: cli, command: 'true'}]\n").Chain
	if len(c.Dotenv) != 2 || c.Dotenv[0].Path != ".env" || c.Dotenv[0].Optional() || !c.Dotenv[1].Optional() || c.Dotenv[1].Pos != (Pos{Line: 2, Col: 16}) {
		t.Errorf("dotenv = %+v", c.Dotenv)
	}
	if c := mustParse(t, "name: c\ndotenv: .env\nsteps: [{id: a, type: cli, command: 'true'}]\n").Chain; len(c.Dotenv) != 1 || c.Dotenv[0].Pos != (Pos{Line: 2, Col: 9}) {
		t.Errorf("one path: %+v", c.Dotenv)
	}
	wf := mustParse(t, "version: '1'\ndotenv: .env\nworkflows:\n  w:\n    initialState: a\n    states:\n      a: {terminal: true}\n").Chain
	if len(wf.Dotenv) != 1 || wf.Dotenv[0].Path != ".env" {
		t.Errorf("workflow file: %+v", wf.Dotenv)
	}
	const steps = "steps: [{id: a, type: cli, command: 'true'}]\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"misspelt key", "name: c\ndotenv: [{path: .env, requird: false}]\n" + steps,
			[]string{`c.yaml:2:23: dotenv: unknown field "requird" (did you mean required?)`}},
		{"no path", "name: c\ndotenv: [{required: false}]\n" + steps,
			[]string{`c.yaml:2:10: dotenv: a file needs a path`}},
		{"a list in a list", "name: c\ndotenv: [[.env]]\n" + steps,
			[]string{`c.yaml:2:10: dotenv: write a file's path, or a list of paths and {path, required: false}`}},
		{"required not a boolean", "name: c\ndotenv: {path: .env, required: maybe}\n" + steps,
			[]string{"c.yaml:2:32: dotenv: required: `maybe` is text here; true or false is expected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := findings(t, tc.src); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

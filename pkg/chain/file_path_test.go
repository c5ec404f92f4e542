package chain

import "testing"

// TestFilePathJSONPathIsChecked: a file step's path written as a $.-path
// is held to what the step can read, as an argument's is.
func TestFilePathJSONPathIsChecked(t *testing.T) {
	head := "name: c\ninputs: [file]\nsteps:\n  - {id: r, type: file, path: "
	wantFindings(t, head+"$.input.fiel}\n", []string{`c.yaml:4:25: step "r": path: $.input.fiel: no input is named fiel (did you mean file?)`}, nil)
	wantFindings(t, head+"'$.nothing'}\n", []string{`step "r": path: $.nothing: no input, step output_var`}, nil)
	l, err := Parse("c.yaml", []byte(head+"$.input.file}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := l.Chain.Step("r").C(); c.PathJSON == nil || c.Path != nil {
		t.Errorf("compiled %+v", c)
	}
}

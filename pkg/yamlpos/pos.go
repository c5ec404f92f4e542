package yamlpos

import "fmt"

// Pos is a 1-based line and column in a chain file, kept so that every
// error can point at the text a user must change.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// String renders the position as line:col, the form editors jump to.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

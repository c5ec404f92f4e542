package text

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run"
)

// ListedInput is one input of a listed chain.
type ListedInput struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required"`
	Default     *string `json:"default,omitempty"`
}

// ListedChain is one chain as `chainrun list` shows it; its JSON is the
// entry of `list -o json`. Error is set for a file that does not load.
type ListedChain struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	File        string        `json:"file"`
	Inputs      []ListedInput `json:"inputs"`
	Error       string        `json:"error,omitempty"`
}

// Chains writes the chains as a table: name, the first line of the
// description, and the inputs (optional ones marked ?).
func Chains(w io.Writer, chains []ListedChain) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "NAME\tDESCRIPTION\tINPUTS")
	for _, lc := range chains {
		desc := lc.Description
		if lc.Error != "" {
			desc = "(" + lc.Error + ")"
		}
		var ins []string
		for _, in := range lc.Inputs {
			s := in.Name
			if !in.Required {
				s += "?"
			}
			ins = append(ins, s)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", lc.Name, render.FirstLine(desc), strings.Join(ins, ", "))
	}
	return tw.Flush()
}

// InitHint is what to try after init wrote a starter project into dir:
// the starter chain's run, from inside dir.
func InitHint(dir string) string {
	try := "chainrun run hello --input who=you"
	if filepath.Clean(dir) != "." {
		try = "cd " + run.ShellWord(dir) + " && " + try
	}
	return "try: " + try
}

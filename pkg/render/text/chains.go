package text

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// ListedInput is one input of a listed chain.
type ListedInput struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Required    bool     `json:"required"`
	Default     *string  `json:"default,omitempty"`
	Enum        []string `json:"enum,omitempty"`
}

// ListedChain is one chain as `chainrun list` shows it; its JSON is the
// entry of `list -o json`. Error is set for a file that does not load:
// its first finding, with its place; Errors counts them all.
type ListedChain struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	File        string        `json:"file"`
	Inputs      []ListedInput `json:"inputs"`
	Error       string        `json:"error,omitempty"`
	Errors      int           `json:"errors,omitempty"`
}

// ListedChains are the catalog's chains as list shows them, a file that
// does not load with its first error.
func ListedChains(cat *catalog.Catalog) []ListedChain {
	out := make([]ListedChain, 0, len(cat.Files))
	for _, cf := range cat.Files {
		lc := ListedChain{Name: cf.Name, File: cf.Path, Inputs: []ListedInput{}}
		if cf.Err != nil {
			lc.Error, lc.Errors = cf.Err.Error(), 1
			var ve *chain.ValidationError
			if errors.As(cf.Err, &ve) && len(ve.Diagnostics) > 0 {
				lc.Error, lc.Errors = ve.Diagnostics[0].String(), len(ve.Diagnostics)-warnings(ve.Diagnostics)
			}
		} else {
			c := cf.Loaded.Chain
			lc.Description = c.Description
			for _, in := range c.Inputs {
				lc.Inputs = append(lc.Inputs, ListedInput{Name: in.Name, Description: in.Description, Required: in.Required(), Default: in.Default, Enum: in.Enum})
			}
		}
		out = append(out, lc)
	}
	return out
}

// maxErrorWidth is how much of a broken file's first error list shows.
const maxErrorWidth = 72

// Chains writes the chains as a table: name, the first line of the
// description, and the inputs (optional ones marked ?). A file that does
// not load shows its name (its path when it has none) and its first
// error with its place, cut short (validate shows them all).
func Chains(w io.Writer, chains []ListedChain) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "NAME\tDESCRIPTION\tINPUTS")
	for _, lc := range chains {
		desc := lc.Description
		name := lc.Name
		if lc.Error != "" {
			msg := lc.Error
			if name == "" { // the file names the row: its place is line:col
				name, msg = lc.File, strings.TrimPrefix(msg, lc.File+":")
			}
			desc = "invalid: " + shorten(render.FirstLine(msg), maxErrorWidth)
			if lc.Errors > 1 {
				desc += fmt.Sprintf(" (+%d more)", lc.Errors-1)
			}
		}
		var ins []string
		for _, in := range lc.Inputs {
			s := in.Name
			if !in.Required {
				s += "?"
			}
			ins = append(ins, s)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", name, render.FirstLine(desc), strings.Join(ins, ", "))
	}
	return tw.Flush()
}

// InitHint is what to try after init wrote a starter project into dir:
// the starter chain's run, from inside dir.
func InitHint(dir string) string {
	try := response.CommandFrom(dir) + " run hello --input who=you"
	if filepath.Clean(dir) != "." {
		try = "cd " + response.ShellWord(dir) + " && " + try
	}
	return "try: " + try
}

// shorten cuts s to at most n characters, marking the cut.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// warnings counts the warnings among a refused file's findings.
func warnings(ds []chain.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Warning {
			n++
		}
	}
	return n
}

package text

import (
	"errors"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
)

// ErrorReport is the object `-o json` prints on stdout for a failure that
// has no result (exit 2 included), so that a script always reads JSON.
type ErrorReport struct {
	Status      string             `json:"status"`
	ExitCode    int                `json:"exit_code"`
	Error       string             `json:"error"`
	Diagnostics []chain.Diagnostic `json:"diagnostics,omitempty"`
}

// Error prints a failure that has no result: every finding of a chain
// that does not validate, else the error, on errOut, with a usage hint
// when asked; with asJSON an ErrorReport on out as well.
func Error(out, errOut io.Writer, err error, code int, hint, asJSON bool) {
	var ve *chain.ValidationError
	isValidation := errors.As(err, &ve)
	if asJSON {
		rep := ErrorReport{Status: "error", ExitCode: code, Error: err.Error()}
		if isValidation {
			rep.Diagnostics = ve.Diagnostics
		}
		_ = render.PrintJSON(out, rep)
	}
	if isValidation {
		for _, d := range ve.Diagnostics {
			fmt.Fprintln(errOut, d.String())
		}
		return
	}
	fmt.Fprintln(errOut, "chainrun: "+err.Error())
	if hint {
		fmt.Fprintln(errOut, "Run 'chainrun --help' for usage.")
	}
}

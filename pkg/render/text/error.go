package text

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// ErrorReport is the object `-o json` prints on stdout for a failure that
// has no result (exit 2 included), so that a script always reads JSON:
// {status: "error", error: {...}}, as the contract promises.
type ErrorReport struct {
	Status string      `json:"status"`
	Error  ErrorDetail `json:"error"`
}

// ErrorDetail is what went wrong: the message, the process's exit code,
// and for a chain that does not validate, every finding with its place.
type ErrorDetail struct {
	Message     string             `json:"message"`
	ExitCode    int                `json:"exit_code"`
	Diagnostics []chain.Diagnostic `json:"diagnostics,omitempty"`
}

// Error prints a failure that has no result: every finding of a chain
// that does not validate, else the error, on errOut, with a usage hint
// when asked; with asJSON an ErrorReport on out as well.
func Error(out, errOut io.Writer, err error, code int, hint, asJSON bool) {
	var ve *chain.ValidationError
	isValidation := errors.As(err, &ve)
	msg := err.Error()
	if errors.Is(err, context.Canceled) {
		msg = "interrupted" // Ctrl-C before a run began: never Go's words
	}
	if asJSON {
		rep := ErrorReport{Status: "error", Error: ErrorDetail{Message: msg, ExitCode: code}}
		if isValidation {
			rep.Error.Diagnostics = ve.Diagnostics
		}
		_ = render.PrintJSON(out, rep)
	}
	if isValidation {
		for _, d := range ve.Diagnostics {
			fmt.Fprintln(errOut, d.String())
		}
		return
	}
	fmt.Fprintln(errOut, "chainrun: "+msg)
	if hint {
		fmt.Fprintf(errOut, "Run '%s --help' for usage.\n", response.Command())
	}
}

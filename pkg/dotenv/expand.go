package dotenv

import (
	"errors"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/template"
)

// expand is v's value with its variables replaced as Docker Compose
// replaces them in a .env file, by compose-go's own interpolation:
// ${NAME} and $NAME, ${NAME:-default} (unset or empty), ${NAME-default}
// (unset), ${NAME:?message} and ${NAME?message} (required), $$ for a
// literal $. A name is looked up among the variables set before it (in
// this file and earlier ones), then in lookup (the process's environment).
// An error names the file, line and key, never the value.
func expand(file string, v Var, set map[string]string, lookup func(string) (string, bool)) (string, error) {
	if !v.expand {
		return v.Value, nil
	}
	mapping := func(name string) (string, bool) {
		if s, ok := set[name]; ok {
			return s, true
		}
		return lookup(name)
	}
	out, err := template.SubstituteWithOptions(v.template, mapping, template.WithoutLogging)
	var missing *template.MissingRequiredError
	var invalid *template.InvalidTemplateError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &missing):
		why := missing.Reason
		if why == "" {
			why = "it is required"
		}
		return "", &SyntaxError{File: file, Line: v.Line, Msg: fmt.Sprintf("%s: ${%s} is not set: %s", v.Key, missing.Variable, why)}
	case errors.As(err, &invalid):
		return "", &SyntaxError{File: file, Line: v.Line, Msg: fmt.Sprintf("%s: the value holds a $ that is no variable (${NAME}, $NAME, ${NAME:-default}): write $$ for a literal $, or quote the value in single quotes", v.Key)}
	}
	return "", &SyntaxError{File: file, Line: v.Line, Msg: fmt.Sprintf("%s: the value's variables cannot be expanded", v.Key)}
}

// processEnv is the environment a file's variables are looked up in
// after its own.
var processEnv = os.LookupEnv

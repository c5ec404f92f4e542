package chain

import "github.com/chainrun/chainrun/pkg/yamlpos"

// Diagnostic is one finding about a chain file (pkg/yamlpos, where every
// reader of a file collects them).
type Diagnostic = yamlpos.Diagnostic

// ValidationError carries every error found in one or more chain files:
// callers map it to exit code 2, nothing ran.
type ValidationError = yamlpos.ValidationError

// IsValidation reports whether err is (or wraps) a ValidationError.
func IsValidation(err error) bool { return yamlpos.IsValidation(err) }

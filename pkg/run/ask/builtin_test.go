package ask_test

// The step kinds live in packages that import this one, so its internal
// tests cannot import them; this external test file links them into the
// same test binary, where they register with the package under test.
import _ "github.com/chainrun/chainrun/pkg/builtin"

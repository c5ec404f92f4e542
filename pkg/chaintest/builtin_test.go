package chaintest

// the step kinds and formats a chain test of a real chain needs
import _ "github.com/chainrun/chainrun/pkg/builtin"

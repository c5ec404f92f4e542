package chain

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// UnregisteredKind takes a workflows: file's executor whose kind no kind
// has, as mcp-flowgate takes it: its file loads, and its executor fails
// when it runs ("executor kind … is not registered"). chainrun warns at
// its line and keeps it as an executor that does nothing but is
// Unregistered, which a run that could reach it refuses before anything
// runs (a run of another path goes ahead), so nothing is half-run. A kind
// close to one chainrun has ("shel") is a misspelling, not another
// gateway's executor: the workflow reader still refuses it, naming the kind
// meant.
func UnregisteredKind(d *yamlpos.Diags, s *Step) {
	kinds := Kinds()
	d.Warnf(s.At("type"), "%s: unknown kind %q: loaded as mcp-flowgate loads it, which fails the executor when it runs; a run that could reach it is refused before anything runs; kinds are %s",
		s.Subject(), s.Type, strings.Join(kinds, ", "))
	s.unregistered = s.Type
	s.Type = string(KindNoop)
}

// Unregistered is the kind a workflows: file's executor names that no
// kind has ("" for any other step): a run that could reach the executor
// is refused, naming it.
func (s *Step) Unregistered() string { return s.unregistered }

// UnregisteredMessage says why a run that could reach an executor of an
// unregistered kind is refused.
func (s *Step) UnregisteredMessage() string {
	return fmt.Sprintf("kind %q is not one chainrun has: the executor cannot run (mcp-flowgate fails it when it runs: executor kind '%s' is not registered)", s.unregistered, s.unregistered)
}

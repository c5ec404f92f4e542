package run

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Script is the script a script step of c runs: its own file's, else one
// the engine's resolver finds in another file's scripts:. A script kind
// asks it before the run starts (to refuse a missing interpreter).
func (l *Local) Script(c *chain.Chain, s *chain.Step) (*chain.Script, error) {
	return scriptIn(c, s, l.Scripts)
}

func scriptIn(c *chain.Chain, s *chain.Step, r ScriptResolver) (*chain.Script, error) {
	return ScriptBySubject(c, chain.ScriptSubject(s), r)
}

// ScriptBySubject is the script of that subject: c's file's, else one r
// finds in another file's scripts:.
func ScriptBySubject(c *chain.Chain, subject string, r ScriptResolver) (*chain.Script, error) {
	if sc := c.Scripts[subject]; sc != nil {
		return sc, nil
	}
	if r == nil {
		return nil, fmt.Errorf("script %s is not in the scripts: library of %s, and no chains directory is open to find it in", subject, c.File)
	}
	return r(subject, c.File)
}

// preflightScript checks, before anything runs, that a script step's
// script is in its file's scripts: or another's. One found nowhere is
// pending (pending.go) when the file has no library of its own, as
// mcp-flowgate's capabilities leave their scripts to their repository's.
func preflightScript(c *chain.Chain, s *chain.Step, r Resolvers) error {
	err := FindScript(c, chain.ScriptSubject(s), "kind: script", r.Scripts)
	if err == nil {
		return nil
	}
	pe := &response.PreflightError{Kind: response.Pending, File: c.File, Pos: s.At("subject"), Step: s.ID, Who: s.Who(), Msg: err.Error()}
	if len(c.Scripts) > 0 {
		// a file with its own library is its own: a subject nothing
		// holds is a mistake in it, not one left to where it runs
		pe.Kind = response.BadCall
		return pe
	}
	return r.Deferred(pe)
}

// FindScript says, when no scripts: library holds the subject, which
// were looked in; what names what refers to it.
func FindScript(c *chain.Chain, subject, what string, r ScriptResolver) error {
	_, err := ScriptBySubject(c, subject, r)
	var nf notFound
	if errors.As(err, &nf) {
		dir, elsewhere := nf.LookedIn()
		known := slices.Sorted(maps.Keys(c.Scripts))
		err = fmt.Errorf("script %q (%s) is in no scripts: library: not its own file's%s, nor one of %s%s", subject, what, ownScripts(known), dir,
			chain.DidYouMean(subject, append(known, elsewhere...)))
	}
	return err
}

func ownScripts(known []string) string {
	if len(known) == 0 {
		return " (it declares none)"
	}
	return " (" + strings.Join(known, ", ") + ")"
}

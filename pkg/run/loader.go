package run

import "github.com/chainrun/chainrun/pkg/chain"

// Loader is what steps need to know of the chain files around the one
// running, beyond what the resolvers find (WithChains, WithWorkflows,
// WithScripts). The caller sets it from pkg/catalog (cmd does, and tests
// do): run, and the step kinds that will move out of it, import no
// catalog, which imports the chain format's readers, which import the
// kinds.
type Loader struct {
	// NamesBelow are the chain and workflow names of the chain files in
	// root and the directories below it, each with the files that hold it
	// (catalog.NamesBelow). dry_run and registry steps refuse a candidate
	// that would take one of them. nil: nothing is published unchecked;
	// the candidate is refused, saying its names cannot be checked.
	NamesBelow func(root string) map[string][]string
	// Parse reads chain text as the chains directory's files are read,
	// in every format (load.Parse): dry_run and registry steps load a
	// candidate with it. nil: chainrun's own format alone (chain.Parse).
	Parse func(file string, data []byte, opts chain.Options) (*chain.Loaded, error)
}

// WithLoader sets what steps read of the chain files around the running
// one (Loader).
func WithLoader(ld Loader) Option { return func(l *Local) { l.loader = ld } }

// notFound is a resolver's error for a name nothing holds where it looked
// (pkg/catalog's NotFoundError): where it looked and the names it saw
// there, from which run words its own message.
type notFound interface {
	error
	LookedIn() (where string, known []string)
}

// NamesBelow is the engine's Loader.NamesBelow (nil when it was given
// none): the names dry_run and registry steps check a candidate against.
func (a *Attempt) NamesBelow() func(root string) map[string][]string {
	return a.x.Engine.loader.NamesBelow
}

// Parse is the engine's Loader.Parse, or chain.Parse when it was given
// none: how dry_run and registry steps load a candidate.
func (a *Attempt) Parse() func(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	if p := a.x.Engine.loader.Parse; p != nil {
		return p
	}
	return chain.Parse
}

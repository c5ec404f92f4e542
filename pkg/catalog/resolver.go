package catalog

import "github.com/chainrun/chainrun/pkg/chain"

// Resolver finds what a step calls outside its own file, in a Library
// made on first use: Open makes it (cmd's factory reads the chains
// directory and the validation options from config, which may fail, and
// then every lookup fails the same way). Its methods are what
// run.Resolvers takes: Chain for chain steps, Workflow for workflow
// steps, Script for script steps.
type Resolver struct {
	Open func() (*Library, error)
}

// Chain finds the chain a chain step calls: a name in the chains
// directory, or beside the calling file from (Library.ResolveFrom), or a
// chain file's path.
func (r Resolver) Chain(name, from string) (*chain.Chain, error) {
	lib, err := r.Open()
	if err != nil {
		return nil, err
	}
	l, err := lib.ResolveFrom(name, from)
	if err != nil {
		return nil, err
	}
	return l.Chain, nil
}

// Workflow finds the workflow a workflow step names when its own file
// holds none: in the chains directory and its subdirectories, the
// nearest to the calling file (Library.FindWorkflow).
func (r Resolver) Workflow(name, from string) (*chain.Chain, error) {
	lib, err := r.Open()
	if err != nil {
		return nil, err
	}
	return lib.FindWorkflow(name, from)
}

// Script finds the script a script step runs when its own file's
// scripts: lacks it, as Workflow finds a workflow (Library.FindScript).
func (r Resolver) Script(subject, from string) (*chain.Script, error) {
	lib, err := r.Open()
	if err != nil {
		return nil, err
	}
	return lib.FindScript(subject, from)
}

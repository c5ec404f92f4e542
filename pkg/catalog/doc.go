// Package catalog finds chains in the files around the one asked for: a
// chains directory read whole (Open, for list, validate and the MCP
// server's tools) or one name at a time (FindIn), the Library commands
// resolve chains, workflows and scripts through (each file loaded once),
// the names of a directory's tree (NamesBelow), what chain, workflow and
// script steps call (Resolver), and the check of a file's calls that
// validate and run make (CheckCalls). It owns the errors of a chain that
// cannot be found (NotFoundError, DirError, AmbiguousError), each of
// which stops a command before anything runs, and the files `chainrun
// init` writes (StarterFiles).
//
// It reads files through the chain format's loader (pkg/load; a scripts
// library through the workflow reader's, wfyaml.LoadScripts) and knows
// nothing of running: pkg/run, and the step kinds, are given what they
// need of it as functions (run.Loader, run.Resolvers), so that the kinds
// never import the readers that import them.
//
// It may import, of this module: chain, chain/wfyaml, load, spell.
package catalog

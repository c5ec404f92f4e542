// Package chain owns the chain file format: the model of a chain and its
// steps, YAML loading that keeps the position of every field, validation that
// rejects a broken chain before anything runs, and the compiling of its
// interpolation templates and condition expressions (pkg/interp owns what
// they mean; this package checks their references and places their
// errors in the file).
//
// It knows nothing of execution, the command line or configuration: the run
// engine consumes a validated *Chain, and cmd/ decides where chain files live.
// It must not import cobra, viper or any package under pkg/run. It may
// import, of this module: chain/envfiles, chain/fileschema,
// chain/guardexpr, chain/reqparams, chain/wfpart, dag, fsutil, interp,
// spell, yamlpos.
package chain

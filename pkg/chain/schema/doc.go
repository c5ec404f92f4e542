// Package schema writes the JSON Schema of every file chainrun reads
// (docs/chain.schema.json, `chainrun schema`): a DAG chain and a file of
// state workflows, every step kind's keys with their descriptions, built
// from the model's Go types and the registered kinds so that it cannot
// drift from what chainrun accepts. pkg/chain gives the pieces a type
// describes itself with (chain.ObjectSchema); this package puts the
// document together, which no load or run needs, so pkg/chain does not
// hold it.
//
// It reads no file and runs nothing; pkg/load serves it
// (load.JSONSchema). It may import, of this module: chain, chain/envfiles,
// chain/wfpart, chain/wfyaml, yamlpos.
package schema

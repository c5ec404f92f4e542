// Package pretool reads, checks and runs a step's pre_tools: the data fetched before the
// step's body and bound under each inject_as (reference 004, OCC) —
// shell and bash commands, http requests, files read and written (with
// OCC's encodings), the time, environment variables, web searches and
// code outlines (ast_parse). It owns their order and parallel runs,
// retries, time limits, result cache, on_error modes and the OCC forms
// of their values (pretool.go, occ.go); what each type takes and requires
// (model.go, registered with pkg/chain: chain.RegisterPreToolReader, the
// way a kind's model unit is). It registers with pkg/run in its
// init (run.RegisterPreTools), so the step pipeline knows pre_tools only
// as something run before a step; it sees the run only through
// run.Attempt and the primitives kinds share (proc.RunCommand,
// proc.SendRequest, proc.ReadFile, run.WriteFile). pkg/builtin links it.
//
// It must not import pkg/kind, pkg/builtin, pkg/store or anything under
// cmd/. It may import, of this module: cache, chain, executor, fsutil,
// interp, retry, run, run/proc, run/web, yamlpos.
package pretool

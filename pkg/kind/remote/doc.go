// Package remote holds the step kinds that reach another system: OCC's
// webhook and browser and mcp as model unit (KIND.go: body, checks,
// compile, registered with chain.Register) and run unit (KIND_run.go,
// registered with run.Register), and the run units of http (and
// mcp-flowgate's rest), whose request body stays in pkg/chain as the part
// http, webhook and browser share. Each sees the run only through
// run.Attempt; the request itself is pkg/run/proc's (proc.SendRequest,
// proc.Send), which pre_tools share. A model unit imports only chain,
// interp and yamlpos. It may import, of this module: chain, executor,
// interp, mcpclient, redact, run, run/proc, run/record, run/web, tracectx,
// yamlpos.
package remote

// Package remote holds the run units of the step kinds that reach another
// system: http (and mcp-flowgate's rest), mcp and OCC's webhook. Each
// registers with run.Register in its init and sees the run only through
// run.Attempt; the request itself is pkg/run/proc's (proc.SendRequest,
// proc.Send), which pre_tools share. Their model units are in pkg/chain.
// It may import, of this module: chain, executor, mcpclient, redact, run,
// run/proc.
package remote

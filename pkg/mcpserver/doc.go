// Package mcpserver serves chains to MCP clients (`chainrun mcp`): a
// model lists the chains, starts a run, reads where it stands and takes
// the transition of a decision point, each call answered with one
// response in reference 000's shape (run_id, version, status, state,
// chain, context, guidance, links, error) as a tool's structured content.
//
// It runs nothing itself: a Backend (cmd's, over the engine and the saved
// runs of the state directory) starts, resumes and reads runs, so a run
// started over MCP is an ordinary saved run. What it adds is what a
// protocol of requests needs: a run that outlives the call that started
// it (progress notifications, a soft deadline, get_run), optimistic
// versions, elicitation of human decisions, and tools that follow the
// chains directory as it changes.
//
// It may import, of this module: catalog, chain, event, run, run/record,
// run/response, tracectx.
package mcpserver

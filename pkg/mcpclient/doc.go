// Package mcpclient calls the tools of MCP servers for steps and
// executors of kind mcp: a chain names a server (a program spoken to over
// its stdin and stdout, or a streamable HTTP URL) and a tool, and the
// step's value is what the tool returns. A run opens each server once and
// keeps the session for every step that calls it, so a stdio server is
// started once a run, not once a step, in a process group of its own that
// is stopped when its session closes, as a step's command's is.
//
// It may import, of this module: executor, redact, tracectx.
package mcpclient

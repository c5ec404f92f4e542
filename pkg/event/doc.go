// Package event defines the one stream of run events that every consumer
// reads: the progress display, the audit log, CI annotations and, later,
// an MCP server. Engines emit; they never print.
//
// The schema is versioned (SchemaVersion) and only grows: fields are
// added, never renamed or removed. It imports nothing of this module.
package event

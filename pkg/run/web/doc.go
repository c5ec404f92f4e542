// Package web is a run's reach into the web: a search provider asked for
// a web_search pre_tool or an agent's WebSearch (any endpoint answering a
// GET with results, whose common shapes it lists as text), and a page
// fetched for an agent's WebFetch, read as text; and what a request says
// of itself in a plan or a failure (MethodOf, AcceptHint).
//
// It is a leaf under pkg/run, which sets the provider and the HTTP client
// and decides what a failure means for a step; it must not import pkg/run
// or anything that does. It may import, of this module: chain, executor,
// redact.
package web

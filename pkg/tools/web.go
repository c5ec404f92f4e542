package tools

import (
	"context"
	"errors"
	"net/url"
	"strings"
)

// webFetchTool and webSearchTool are the network tools OCC's chains give
// agents (Claude Code's names). chainrun lends them what reaches the
// network (Env.Fetch, Env.Search): the tools themselves only check their
// arguments.
var webFetchTool = tool{
	description: "Fetches a web page or file over HTTP(S) and returns its text (HTML is reduced to its " +
		"text). Use it to read a page whose address you know, for example one WebSearch found.",
	params: []param{
		{name: "url", kind: "string", required: true, description: "The http or https address to fetch."},
		{name: "prompt", kind: "string", description: "What you are looking for in the page (kept for your own reasoning; the whole text is returned)."},
	},
	run: func(ctx context.Context, w *workspace, v values) (string, error) {
		raw := v.str("url")
		if raw == "" {
			return "", errEmpty("url")
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", errors.New("url must be an http or https address, as https://example.com/page")
		}
		if w.env.Fetch == nil {
			return "", errors.New("WebFetch cannot reach the network in this step")
		}
		return w.env.Fetch(ctx, u.String())
	},
}

var webSearchTool = tool{
	description: "Searches the web and returns the results: each a title, an address and a snippet, " +
		"numbered. Fetch a result's address with WebFetch to read it whole.",
	params: []param{
		{name: "query", kind: "string", required: true, description: "What to search for."},
	},
	run: func(ctx context.Context, w *workspace, v values) (string, error) {
		q := strings.TrimSpace(v.str("query"))
		if q == "" {
			return "", errEmpty("query")
		}
		if w.env.Search == nil {
			return "", errors.New("WebSearch has no search provider: set search_url in the config (or CHAINRUN_SEARCH_URL)")
		}
		return w.env.Search(ctx, q)
	},
}

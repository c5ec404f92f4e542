package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/redact"
)

// searchResults is how many results a web_search pre_tool keeps.
const searchResults = 10

// SetupError is a search that cannot be made as the engine is set up (no
// provider, an endpoint that is no URL): asking again cannot mend it.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// Provider is the web search provider web_search pre_tools and an
// agent's WebSearch ask: any HTTP endpoint that answers a GET with
// results (SearXNG's format=json, Brave, Tavily, Google's custom search,
// a company proxy).
type Provider struct {
	// URL is the endpoint. {query} in it is replaced by the query,
	// percent-encoded; without it the query is sent as the q parameter.
	URL string
	// Key, when set, is sent as Authorization: Bearer KEY, or bare in
	// KeyHeader when that is set (X-Subscription-Token for Brave).
	Key, KeyHeader string
}

// Search asks provider p for q (a web_search pre_tool's query, or an
// agent's WebSearch call) and lists its results.
func Search(ctx context.Context, client *http.Client, p Provider, q string) (string, error) {
	endpoint, key, keyHeader := p.URL, p.Key, p.KeyHeader
	if endpoint == "" {
		return "", &SetupError{fmt.Errorf("web_search has no search provider: set search_url in the config (or CHAINRUN_SEARCH_URL), and CHAINRUN_SEARCH_API_KEY if it needs a key")}
	}
	target := endpoint
	if strings.Contains(target, "{query}") {
		target = strings.ReplaceAll(target, "{query}", url.QueryEscape(q))
	} else {
		u, err := url.Parse(target)
		if err != nil {
			return "", &SetupError{fmt.Errorf("search_url %s: %v", redact.URL(target), err)}
		}
		v := u.Query()
		v.Set("q", q)
		u.RawQuery = v.Encode()
		target = u.String()
	}
	req := executor.HTTPRequest{Method: "GET", URL: target, Headers: map[string]string{"Accept": "application/json"}}
	if key != "" {
		if keyHeader != "" {
			req.Headers[keyHeader] = key
		} else {
			req.Headers["Authorization"] = "Bearer " + key
		}
	}
	resp, err := executor.DoHTTP(ctx, client, req)
	if err != nil {
		return "", fmt.Errorf("web search at %s: %w", redact.URL(endpoint), err)
	}
	if resp.Status < 200 || resp.Status > 299 {
		msg := fmt.Sprintf("web search at %s: HTTP %d", redact.URL(endpoint), resp.Status)
		if body := clip(strings.TrimSpace(resp.Body), 200); body != "" {
			msg += ": " + body
		}
		return "", errors.New(msg)
	}
	return searchText(resp.Body), nil
}

// searchText lists the results of a search answer. It reads the shapes
// providers answer with: a list under results (SearXNG, Tavily),
// web.results (Brave), organic (Serper) or items (Google), each result
// with a title, a url or link, and content, snippet or description.
func searchText(body string) string {
	var d map[string]any
	if json.Unmarshal([]byte(body), &d) != nil {
		return strings.TrimSpace(body)
	}
	var list []any
	for _, path := range [][]string{{"results"}, {"web", "results"}, {"organic"}, {"items"}} {
		var cur any = d
		for _, k := range path {
			m, _ := cur.(map[string]any)
			cur = m[k]
		}
		if l, ok := cur.([]any); ok {
			list = l
			break
		}
	}
	if list == nil {
		return strings.TrimSpace(body)
	}
	var b strings.Builder
	n := 0
	for _, r := range list {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		n++
		if n > searchResults {
			break
		}
		if n > 1 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d. %s\n", n, firstText(m, "title", "name"))
		if u := firstText(m, "url", "link"); u != "" {
			fmt.Fprintf(&b, "   %s\n", u)
		}
		if sn := firstText(m, "content", "snippet", "description"); sn != "" {
			fmt.Fprintf(&b, "   %s\n", strings.Join(strings.Fields(sn), " "))
		}
	}
	if n == 0 {
		return "(no results)"
	}
	return strings.TrimRight(b.String(), "\n")
}

// firstText is the first of keys that holds text.
func firstText(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// Fetch is an agent's WebFetch: the page at address u, as text (an HTML
// page's tags and scripts taken out), at most 100,000 characters.
func Fetch(ctx context.Context, client *http.Client, u string) (string, error) {
	resp, err := executor.DoHTTP(ctx, client, executor.HTTPRequest{Method: "GET", URL: u})
	if err != nil {
		return "", fmt.Errorf("fetching %s: %w", redact.URL(u), err)
	}
	if resp.Status < 200 || resp.Status > 299 {
		return "", fmt.Errorf("fetching %s: HTTP %d", redact.URL(u), resp.Status)
	}
	text := resp.Body
	if strings.Contains(strings.ToLower(clip(text, 512)), "<html") || strings.Contains(strings.ToLower(clip(text, 512)), "<!doctype html") {
		text = htmlText(text)
	}
	return clip(text, 100_000), nil
}

// htmlTags and htmlHidden are what htmlText takes out of a page.
var (
	htmlHidden = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<(script|style|noscript|template)\b.*?</(script|style|noscript|template)\s*>`)
	})
	htmlTags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<[^>]*>`) })
	blankRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n\s*\n\s*\n+`) })
)

// htmlText is the readable text of an HTML page: scripts, styles and tags
// out, entities decoded, blank lines folded.
func htmlText(page string) string {
	text := htmlHidden().ReplaceAllString(page, "")
	text = htmlTags().ReplaceAllString(text, "\n")
	text = html.UnescapeString(text)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		lines = append(lines, strings.TrimSpace(l))
	}
	return strings.TrimSpace(blankRun().ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// clip cuts s to n bytes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

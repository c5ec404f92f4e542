package cmd

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/load"
)

// occDefects are OCC's files that carry a defect of their own, and the
// message chainrun rejects each with: a call of another chain without an
// input it requires.
var occDefects = map[string]string{
	"chains/startup-pitch.yaml":         `step "market_validation": inputs: unknown input "query" (its inputs are topic, depth); missing required input "topic"`,
	"pipelines/startup-launch.yaml":     `step "market_validation": inputs: unknown input "query" (its inputs are topic, depth); missing required input "topic"`,
	"chains/data-pipeline-builder.yaml": `step "code_review": inputs: unknown input "code" (its inputs are path, focus); unknown input "language" (its inputs are path, focus); missing required input "path"`,
}

// occExternal are OCC's files that post to a webhook on the internet
// (hooks.example.com), which tests cannot reach: everything before it
// runs, and the run fails at that step, naming it.
var occExternal = map[string]string{
	"chains/incident-response.yaml":       "step webhook_notify failed: POST https://hooks.example.com/occ",
	"chains/security-audit.yaml":          "step webhook_notify failed: POST https://hooks.example.com/occ",
	"pipelines/full-security-review.yaml": "step webhook_notify failed: POST https://hooks.example.com/occ",
	"pipelines/repo-full-audit.yaml":      "step webhook_notify failed: POST https://hooks.example.com/occ",
}

// occBrowser are OCC's chains with a browser step, which loads but
// cannot run here: the run fails naming it.
var occBrowser = map[string]bool{"chains/linkedin-workflow.yaml": true, "chains/seo-analyzer.yaml": true}

// TestOCCCorpus: every one of OCC's 20 chains and 5 pipelines (the files
// as OCC's repository holds them, in testdata/occ with its licence) loads,
// except the three with defects of their own, which are rejected with the
// precise message; every one whose steps need only models, commands and
// local HTTP runs to success against a fake model server, with web_search
// answered by a local search server and URL inputs by a local page.
func TestOCCCorpus(t *testing.T) {
	srv := occModel()
	defer srv.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/search") {
			json.NewEncoder(w).Encode(map[string]any{"results": []map[string]string{{"title": "A result", "url": "http://example.test/a", "content": "what was found"}}})
			return
		}
		w.Write([]byte("<html><title>A page</title><body>Some text of the page.</body></html>"))
	}))
	defer page.Close()
	home := t.TempDir()
	// a merge or debate that names no model takes default_model (OCC
	// takes a Claude model of its own); bench-huggingface's models are
	// Hugging Face's, reached as an OpenAI-compatible provider
	config := "default_model: anthropic/claude-haiku-4-5\nproviders:\n  meta-llama: {type: openai, base_url: " + srv.OpenAIURL() + ", api_key_env: OPENAI_API_KEY}\n  mistralai: {type: openai, base_url: " + srv.OpenAIURL() + ", api_key_env: OPENAI_API_KEY}\n  Qwen: {type: openai, base_url: " + srv.OpenAIURL() + ", api_key_env: OPENAI_API_KEY}\n"
	if err := os.MkdirAll(filepath.Join(home, ".config", "chainrun"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "chainrun", "config.yaml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"ANTHROPIC_API_KEY": "ak-fake", "OPENAI_API_KEY": "ok-fake",
		"ANTHROPIC_BASE_URL": srv.AnthropicURL(), "OPENAI_BASE_URL": srv.OpenAIURL(),
		"OLLAMA_HOST": strings.TrimSuffix(srv.OpenAIURL(), "/v1"), "CHAINRUN_SEARCH_URL": page.URL + "/search",
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "CHAINRUN_STATE_DIR": filepath.Join(home, "state"),
		"CHAINRUN_CACHE_DIR": filepath.Join(home, "cache"),
	} {
		t.Setenv(k, v)
	}
	root, err := filepath.Abs("testdata/occ")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	files, _ := filepath.Glob("chains/*.yaml")
	pipes, _ := filepath.Glob("pipelines/*.yaml")
	files = append(files, pipes...)
	if len(files) != 25 {
		t.Fatalf("%d files, want OCC's 20 chains and 5 pipelines", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(file, ".yaml"), func(t *testing.T) {
			code, _, stderr := chainrunIn(t, "validate", file)
			if want, bad := occDefects[file]; bad {
				if code != 2 || !strings.Contains(stderr, want) {
					t.Fatalf("validate: exit %d\n%s\nwant exit 2 saying %s", code, stderr, want)
				}
				return
			}
			if code != 0 {
				t.Fatalf("validate: exit %d\n%s", code, firstLines(stderr, 5))
			}
			args := []string{"run", file, "-o", "json"}
			if occBrowser[file] {
				// a sibling of the browser step may fail first (the fake
				// model's answer lacks what it extracts) and cancel it
				// before it is refused: keep going, so it always is
				args = append(args, "--keep-going")
			}
			for _, in := range occInputs(t, file, page.URL) {
				args = append(args, "--input", in)
			}
			code, stdout, stderr := chainrunIn(t, args...)
			if occBrowser[file] {
				if code != 1 || !strings.Contains(stdout, "browser steps are not supported") {
					t.Fatalf("run: exit %d, want 1 naming the browser step: %s\n%s", code, resultError(stdout), firstLines(stderr, 5))
				}
				return
			}
			if want, ok := occExternal[file]; ok {
				if code != 1 || !strings.Contains(resultError(stdout), want) {
					t.Fatalf("run: exit %d, want 1 at the webhook: %s\n%s", code, resultError(stdout), firstLines(stderr, 5))
				}
				return
			}
			if code != 0 || !strings.Contains(stdout, `"status": "succeeded"`) {
				t.Fatalf("run: exit %d: %s\n%s", code, resultError(stdout), firstLines(stderr, 5))
			}
		})
	}
}

// occModel answers as a model would what OCC's chains ask: a route
// among those offered, PASS or a score to an evaluator, JSON where JSON is
// asked for, else some text.
func occModel() *llmtest.Server {
	return llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		prompt := r.LastUserMessage()
		if _, after, ok := strings.Cut(prompt, "Answer with one of: "); ok {
			route, _, _ := strings.Cut(after, ",")
			return llmtest.Reply{Text: strings.TrimSuffix(strings.TrimSpace(route), ".")}
		}
		switch {
		case strings.Contains(prompt, "Answer PASS or FAIL"):
			return llmtest.Reply{Text: "PASS\nIt meets the criteria."}
		case strings.Contains(prompt, "from 1 to 10"):
			return llmtest.Reply{Text: "8\nGood."}
		case strings.Contains(strings.ToLower(prompt), "json"):
			return llmtest.Reply{Text: jsonShown(prompt)}
		}
		if m := underChars.FindStringSubmatch(prompt); m != nil {
			return llmtest.Reply{Text: "A short answer, as asked (under " + m[1] + " characters)."}
		}
		// long enough for OCC's min_length guardrails
		return llmtest.Reply{Text: "An answer about: " + firstLines(prompt, 1) + "\n\n" + strings.Repeat("A sentence of the answer, with its reasons. ", 30)}
	})
}

// underChars finds a length a prompt asks an answer to stay under.
var underChars = regexp.MustCompile(`under (\d+) char`)

// jsonShown is the JSON shape a prompt shows (the first {…} that parses),
// filled as shown; else a small object.
func jsonShown(prompt string) string {
	for i := strings.IndexByte(prompt, '{'); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(prompt[i:]))
		var v map[string]any
		if dec.Decode(&v) == nil {
			b, _ := json.Marshal(v)
			return string(b)
		}
		next := strings.IndexByte(prompt[i+1:], '{')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return `{"summary": "ok", "items": ["one", "two"], "score": 8}`
}

// occInputs gives a value of its type to every input a file requires.
func occInputs(t *testing.T, file, pageURL string) []string {
	t.Helper()
	l, err := load.LoadFile(file, chain.Options{})
	if err != nil {
		return nil
	}
	var out []string
	for _, in := range l.Chain.Inputs {
		if !in.Required() {
			continue
		}
		v := "a value"
		switch {
		case len(in.Enum) > 0:
			v = in.Enum[0]
		case in.Type == "url" || strings.Contains(in.Name, "url"):
			v = pageURL + "/page"
		case in.Type == "path" || in.Name == "path" || strings.HasSuffix(in.Name, "_dir"):
			v = "."
		case in.Type == "number" || in.Type == "integer":
			v = "3"
		case in.Type == "boolean":
			v = "true"
		}
		out = append(out, in.Name+"="+v)
	}
	return out
}

// chainrunIn runs chainrun in this process, returning its exit code and
// what it printed.
func chainrunIn(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	io, _, out, errOut := iostreams.Test()
	code := Execute(context.Background(), io, args)
	return code, out.String(), errOut.String()
}

// resultError is the error of a run's JSON result.
func resultError(stdout string) string {
	var res struct {
		Error string `json:"error"`
	}
	if json.Unmarshal([]byte(stdout), &res) != nil {
		return firstLines(stdout, 3)
	}
	return res.Error
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

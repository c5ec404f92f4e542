package run

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// occHistoryDir holds OCC's chain files of other commits than the peer
// corpus, the chains of its docs and the chains `occ init` writes
// (testdata/occhistory/README.md names each one's commit and path).
const occHistoryDir = "testdata/occhistory"

// occHistoryChains finds a chain a file of occhistory calls by name, in
// its chains/ directory, as OCC's pipeline finds it in CHAINS_DIR.
func occHistoryChains(t *testing.T) ChainResolver {
	return func(name, _ string) (*chain.Chain, error) {
		path := filepath.Join(occHistoryDir, "chains", name+".yaml")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no chain named %q", name)
		}
		l, err := loader.LoadFile(path, chain.Options{})
		if err != nil {
			return nil, err
		}
		return l.Chain, nil
	}
}

// TestOCCHistoryFiles: every OCC file of testdata/occhistory loads, or is
// refused naming exactly what it lacks, as OCC's own loader and executor
// (mcp-server/src/loader.ts, pipeline-loader.ts, executor.ts) take or
// refuse it; the ones that need no network run against a fake model (and
// a local page for http_fetch), each model step answered once.
func TestOCCHistoryFiles(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<h1>Large language model</h1> a page about models")
	}))
	defer page.Close()
	cases := []struct {
		file    string
		inputs  map[string]string
		refused string // what the refusal names; "" when it loads
		calls   int    // model requests of a run; 0: loaded only (its pre_tools need the network)
		prompt  string // text one request's prompt holds
	}{
		{file: "chains/bench-claude.e4768a9.yaml", calls: 4, prompt: "artificial intelligence"},
		{file: "chains/bench-ollama.e4768a9.yaml", calls: 4, prompt: "COMPREHENSION: answer"},
		{file: "chains/bench-huggingface.59941a8.yaml"},
		{file: "docs/README.0118f87.chain-format.yaml", inputs: map[string]string{"topic": "AI"}},
		{file: "docs/README.c57a835.chain-format.yaml", inputs: map[string]string{"topic": "AI"}},
		{file: "docs/README.0118f87.pipeline.yaml", refused: `no chain named "dependency-scanner"`},
		{file: "docs/README.c591dab.pipeline.yaml", refused: `no chain named "dependency-scanner"`},
		{file: "docs/GS.9aa9674.gate.yaml", refused: "name is required"},
		{file: "docs/GS.9aa9674.mixmodels.yaml", refused: "name is required"},
		{file: "docs/GS.9aa9674.ollama.yaml", refused: "name is required"},
		{file: "docs/GS.9aa9674.parallel.yaml", refused: "name is required"},
		{file: "docs/GS.9aa9674.pretools.yaml", refused: "name is required"},
		{file: "init/hello-world.yaml", inputs: map[string]string{"topic": "tea"}, calls: 2, prompt: `5 key facts about "tea"`},
		{file: "init/parallel-pros-cons.yaml", inputs: map[string]string{"topic": "tea"}, calls: 3, prompt: "PROS: answer"},
		{file: "init/web-analyzer.yaml", inputs: map[string]string{"url": page.URL}, calls: 1, prompt: "a page about models"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			c, err := occHistoryLoad(t, tc.file)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("want it refused naming %q, got %v", tc.refused, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tc.calls == 0 {
				return
			}
			var n atomic.Int32
			s := llmtest.NewFunc(func(llmtest.Request) llmtest.Reply {
				n.Add(1)
				return llmtest.Reply{Text: "answer"}
			})
			defer s.Close()
			reg := registryFor(s, map[string]string{"OLLAMA_HOST": s.URL})
			res, err := New(WithDir(t.TempDir()), WithModels(reg), WithChains(occHistoryChains(t))).Run(context.Background(), Request{Chain: c, Inputs: tc.inputs})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Succeeded || res.Output != "answer" {
				t.Fatalf("status %s output %#v: %s", res.Status, res.Output, res.Error)
			}
			if int(n.Load()) != tc.calls {
				t.Errorf("%d model requests, want %d", n.Load(), tc.calls)
			}
			found := false
			for _, r := range s.Requests() {
				found = found || strings.Contains(r.LastUserMessage(), tc.prompt)
			}
			if !found {
				t.Errorf("no request's prompt holds %q", tc.prompt)
			}
		})
	}
}

// occHistoryLoad loads a file of occhistory and checks the chains it
// calls, as `chainrun validate` does.
func occHistoryLoad(t *testing.T, file string) (*chain.Chain, error) {
	l, err := loader.LoadFile(filepath.Join(occHistoryDir, file), chain.Options{})
	if err != nil {
		return nil, err
	}
	return l.Chain, CheckCalls(l.Chain, Resolvers{Chains: occHistoryChains(t)})
}

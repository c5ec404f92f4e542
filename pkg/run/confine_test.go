package run

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// confinedTools offers a model tools whose executors take paths built
// from its arguments: a file path, a file path that is the argument
// whole, and a cli cwd.
const confinedTools = `
name: t
tools:
  read_doc:
    description: read a doc
    input_schema: {type: object, required: [name], properties: {name: {type: string}}}
    executor: {kind: file, path: "docs/{args.name}"}
  read_any:
    description: read a file
    input_schema: {type: object, required: [name], properties: {name: {type: string}}}
    executor: {kind: file, path: "{args.name}"}
  list_in:
    description: list a directory
    input_schema: {type: object, required: [dir], properties: {dir: {type: string}}}
    executor: {kind: cli, command: cat, args: [a.txt], cwd: "{args.dir}"}
steps:
  - {id: agent, model: PROVIDER/m, prompt: go, tools: [read_doc, read_any, list_in], cwd: ws}
`

func TestChainDefinedToolsStayInTheStepsDirectory(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(filepath.Join(ws, "docs", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("top secret"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("top secret"), 0o644)
	os.WriteFile(filepath.Join(ws, "docs", "guide.md"), []byte("the guide"), 0o644)
	os.WriteFile(filepath.Join(ws, "docs", "sub", "a.txt"), []byte("sub listing"), 0o644)
	os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(ws, "docs", "out"))
	os.Symlink(dir, filepath.Join(ws, "docs", "outdir"))
	os.Symlink("loop2", filepath.Join(ws, "docs", "loop1"))
	os.Symlink("loop1", filepath.Join(ws, "docs", "loop2"))
	os.Symlink("guide.md", filepath.Join(ws, "docs", "in"))
	refused := []llmtest.ToolCall{
		{Name: "read_doc", Arguments: `{"name": "../../secret.txt"}`},
		{Name: "read_doc", Arguments: `{"name": "sub/../../../../../secret.txt"}`},
		{Name: "read_any", Arguments: `{"name": "` + filepath.Join(dir, "secret.txt") + `"}`},
		{Name: "read_any", Arguments: `{"name": "/etc/passwd"}`},
		{Name: "read_doc", Arguments: `{"name": "out"}`},
		{Name: "read_doc", Arguments: `{"name": "outdir/secret.txt"}`},
		{Name: "list_in", Arguments: `{"dir": ".."}`},
		{Name: "list_in", Arguments: `{"dir": "docs/outdir"}`},
		{Name: "list_in", Arguments: `{"dir": "` + dir + `"}`},
	}
	allowed := []llmtest.ToolCall{
		{Name: "read_doc", Arguments: `{"name": "guide.md"}`},
		{Name: "read_doc", Arguments: `{"name": "in"}`},
		{Name: "read_any", Arguments: `{"name": "` + filepath.Join(ws, "docs", "guide.md") + `"}`},
		{Name: "list_in", Arguments: `{"dir": "docs/sub"}`},
		{Name: "read_doc", Arguments: `{"name": "loop1"}`},
	}
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			res, s, _ := toolRun(t, p, confinedTools, dir, Request{},
				llmtest.Reply{ToolCalls: refused}, llmtest.Reply{ToolCalls: allowed}, llmtest.Reply{Text: "done"})
			if res.Status != record.Succeeded {
				t.Fatal(res.Error)
			}
			first := requestText(t, s, 1)
			if strings.Contains(first, "top secret") || strings.Contains(first, "root:") {
				t.Fatalf("a tool left its step's directory: %s", first)
			}
			if n := strings.Count(first, "outside the working directory"); n != len(refused) {
				t.Errorf("%d of %d escapes refused with a reason: %s", n, len(refused), first)
			}
			second := requestText(t, s, 2)
			if strings.Count(second, "the guide") != 3 || !strings.Contains(second, "sub listing") {
				t.Errorf("paths inside the directory were refused: %s", second)
			}
			if !strings.Contains(second, "too many levels of symbolic links") {
				t.Errorf("a symbolic link loop is not named: %s", second)
			}
		})
	}
}

func TestFileStepRefusesAFIFOAtOnce(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, src := range []string{`
name: t
steps:
  - {id: f, type: file, path: pipe, timeout_ms: 60000}
`, `
name: t
steps:
  - id: s
    type: cli
    command: echo
    args: ["{d}"]
    timeout_ms: 60000
    pre_tools: [{type: file, path: pipe, inject_as: d}]
`, `
name: t
steps:
  - {id: f, type: file, path: ., timeout_ms: 60000}
`} {
		start := time.Now()
		res := runChain(t, src, nil, WithDir(dir))
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the read blocked")
		}
		if res.Status != record.Failed || !strings.Contains(res.Error, "not a regular file") {
			t.Errorf("%s: %s", res.Status, res.Error)
		}
	}
}

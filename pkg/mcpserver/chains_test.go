package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
)

func TestAChainWhoseSchemaIsNoObjectGetsAnObjectTool(t *testing.T) {
	c := &chain.Chain{Name: "odd", Workflow: &chain.Workflow{InputSchema: map[string]any{"type": "array"}}}
	tool := chainTool(&catalog.File{Name: "odd", Loaded: &chain.Loaded{Chain: c}})
	if mustJSON(tool.InputSchema) != `{"type":"object"}` || !strings.Contains(tool.Description, "not of type object") {
		t.Errorf("tool %+v", tool)
	}
	broken := chainTool(&catalog.File{Name: "gone", Err: errors.New("gone.yaml:3: bad")})
	if mustJSON(broken.InputSchema) != `{"type":"object"}` || !strings.Contains(broken.Description, "gone.yaml:3: bad") {
		t.Errorf("tool %+v", broken)
	}
	// the SDK takes both without a panic
	s := New(newMemBackend(t.TempDir()), Options{})
	s.addRunTool(tool, nil)
	s.addRunTool(broken, nil)
}

func TestReloadFollowsTheChainsDirectory(t *testing.T) {
	dir := chainsDir(t)
	changed := make(chan struct{}, 10)
	s, cs := serve(t, newMemBackend(dir), Options{ChainTools: []string{"deploy", "hello"}}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
	tools := func() []string {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			if strings.HasPrefix(tool.Name, "run_") {
				out = append(out, tool.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := tools(); !slices.Equal(got, []string{"run_deploy"}) {
		t.Fatalf("marked chains' tools: %v", got)
	}
	hello := "name: hello\nsteps:\n  - {id: hi, type: cli, command: echo, args: [hi]}\n"
	if err := os.WriteFile(filepath.Join(dir, "hello.yaml"), []byte(hello), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "deploy.yaml")); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	<-changed
	if got := tools(); !slices.Equal(got, []string{"run_hello"}) {
		t.Errorf("after the change: %v", got)
	}
	if r, isErr := call(t, cs, toolStart, map[string]any{"chain": "deploy"}); !isErr || !strings.Contains(r.Error, `no chain "deploy"`) {
		t.Errorf("a chain gone: %+v", r)
	}
	if r, _ := call(t, cs, "run_hello", map[string]any{}); r.Status != "succeeded" {
		t.Errorf("the new chain's tool: %+v", r)
	}
}

// TestSecretInputsAreWriteOnlyAndTheirDefaultsUnshown holds that a
// secret input (secret: true, or writeOnly in a workflow's inputSchema)
// is marked writeOnly in list_chains and in the chain's own tool, with
// its default never shown, while other inputs keep theirs; and that a
// schema with no required input has no required at all.
func TestSecretInputsAreWriteOnlyAndTheirDefaultsUnshown(t *testing.T) {
	files := map[string]string{
		"dagsecret.yaml": `name: dagsecret
inputs:
  - {name: pass_phrase, secret: true, default: "hunter2-default"}
  - {name: region, default: eu-west}
steps:
  - {id: a, type: cli, run: "true"}
`,
		"flowsecret.yaml": `version: "1"
workflows:
  flowsecret:
    initialState: s
    inputSchema:
      type: object
      properties:
        apiToken: {type: string, writeOnly: true, default: "tok-default-9"}
        level: {type: integer, default: 3}
    states:
      s: {terminal: true}
`,
	}
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, cs := serve(t, newMemBackend(dir), Options{AllToolsUpTo: 10}, nil)
	listed, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolList})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := mustJSON(listed.StructuredContent) + mustJSON(tools)
	for _, secret := range []string{"hunter2-default", "tok-default-9"} {
		if strings.Contains(seen, secret) {
			t.Errorf("a secret's default is shown: %s", secret)
		}
	}
	for _, want := range []string{`"pass_phrase":{"type":"string","writeOnly":true}`, `"apiToken":{"type":"string","writeOnly":true}`, `"default":"eu-west"`, `"default":3`} {
		if strings.Count(seen, want) != 2 {
			t.Errorf("%s is not in both list_chains and the tool (%d): %s", want, strings.Count(seen, want), seen)
		}
	}
	if strings.Contains(seen, `"required":[]`) || strings.Contains(seen, `"required":null`) {
		t.Errorf("an empty required is shown: %s", seen)
	}
}

// TestARunStartedWithASecretGoesOnInTheServerThatStartedIt holds that a
// take of a run given a secret input (never saved) goes on with it in
// the server that started the run; another server (or the same after a
// restart) refuses in plain words and offers no take to loop on.
func TestARunStartedWithASecretGoesOnInTheServerThatStartedIt(t *testing.T) {
	dir := t.TempDir()
	const sec = `version: "1"
workflows:
  vault:
    initialState: s
    inputSchema: {type: object, required: [key, who], properties: {key: {type: string, writeOnly: true}, who: {type: string}}}
    states:
      s:
        transitions:
          open:
            target: done
            actor: agent
            executor: {kind: transform, expr: 'input.who + ":" + string(len(input.key))'}
            output: {seen: "$.output.text"}
      done: {terminal: true}
    output: context
`
	if err := os.WriteFile(filepath.Join(dir, "vault.yaml"), []byte(sec), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newMemBackend(dir)
	_, cs := serve(t, b, Options{}, nil)
	for _, who := range []string{"ana", "bo"} {
		r, _ := call(t, cs, toolStart, map[string]any{"chain": "vault", "inputs": map[string]any{"key": "k-12345", "who": who}})
		if r.Status != "paused" {
			t.Fatalf("start: %+v", r)
		}
		done, isErr := call(t, cs, toolTake, r.Links[0].Arguments)
		if isErr || done.Status != "succeeded" || done.Context["seen"] != who+":7" {
			t.Fatalf("take in the server that started it: %v %+v", isErr, done)
		}
	}
	r, _ := call(t, cs, toolStart, map[string]any{"chain": "vault", "inputs": map[string]any{"key": "k-1", "who": "cy"}})
	_, other := serve(t, b, Options{}, nil)
	refused, isErr := call(t, other, toolTake, r.Links[0].Arguments)
	if !isErr || refused.Status != "paused" || !strings.Contains(refused.Error, "secret input key") || strings.Contains(refused.Error, "--") {
		t.Fatalf("take in another server: %v %+v", isErr, refused)
	}
	if names := linkNames(refused.Links); !slices.Equal(names, []string{"get_run:"}) {
		t.Errorf("links offered after the refusal: %v", names)
	}
}

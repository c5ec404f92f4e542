package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// chainsDir is a copy of testdata/chains a test may change.
func chainsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir("testdata/chains")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata/chains", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// serve starts a server over b and connects a client with copts to it
// in memory.
func serve(t *testing.T, b Backend, opts Options, copts *mcp.ClientOptions) (*Server, *mcp.ClientSession) {
	t.Helper()
	s := New(b, opts)
	s.Reload()
	t.Cleanup(s.Close)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return s, cs
}

// call calls a tool and reads its structured content as a Response.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) (Response, bool) {
	t.Helper()
	return callWith(t, context.Background(), cs, &mcp.CallToolParams{Name: tool, Arguments: args})
}

func callWith(t *testing.T, ctx context.Context, cs *mcp.ClientSession, p *mcp.CallToolParams) (Response, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	var r Response
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: structured content %s: %v", p.Name, data, err)
	}
	return r, res.IsError
}

func linkNames(links []Link) []string {
	var out []string
	for _, l := range links {
		out = append(out, l.Tool+":"+l.Transition)
	}
	return out
}

func TestToolsAndListChains(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{AllToolsUpTo: 10}, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Name != toolList && tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
		if tool.Name == "run_deploy" && !strings.Contains(mustJSON(tool.InputSchema), `"required":["service"]`) {
			t.Errorf("run_deploy's input schema is not the chain's: %s", mustJSON(tool.InputSchema))
		}
	}
	slices.Sort(names)
	want := []string{"cancel_run", "get_run", "list_chains", "run_approve", "run_broken", "run_deploy", "run_gate", "run_slow", "start_run", "take_transition"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
	if init := cs.InitializeResult(); !strings.Contains(init.Instructions, "take_transition") {
		t.Errorf("instructions do not explain the flow: %q", init.Instructions)
	}

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolList})
	if err != nil || res.IsError {
		t.Fatalf("list_chains: %v %v", err, res)
	}
	var list ChainList
	data, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(data, &list)
	got := map[string]ListedChain{}
	for _, c := range list.Chains {
		got[c.Name] = c
	}
	if c := got["broken"]; !strings.Contains(c.Error, "nowhere") {
		t.Errorf("broken chain's diagnostics: %+v", c)
	}
	if c := got["deploy"]; !c.Workflow || c.Tool != "run_deploy" || c.InputSchema["type"] != "object" {
		t.Errorf("deploy: %+v", c)
	}
	if c := got["slow"]; c.Workflow || mustJSON(c.InputSchema) != `{"properties":{},"type":"object"}` {
		t.Errorf("slow: %+v", c)
	}
}

func mustJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func TestStartPausesThenTakeSucceeds(t *testing.T) {
	var mu sync.Mutex
	var notes []string
	b := newMemBackend(chainsDir(t))
	_, cs := serve(t, b, Options{}, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		notes = append(notes, req.Params.Message)
		mu.Unlock()
	}})
	p := &mcp.CallToolParams{Name: toolStart, Arguments: map[string]any{"chain": "deploy", "inputs": map[string]any{"service": "api", "replicas": 2}}}
	p.SetProgressToken("start-1")
	r, isErr := callWith(t, context.Background(), cs, p)
	if isErr || r.Status != "paused" || r.State != "ready" || r.RunID == "" {
		t.Fatalf("start_run: error %v, %+v", isErr, r)
	}
	if len(r.Chain) != 1 || r.Chain[0].Transition != "run_build" || r.Context["artifact"] != "a-1" || r.Guidance == nil || r.Guidance.Goal != "Confirm deployment" {
		t.Errorf("reference 000's response: %+v", r)
	}
	if got := linkNames(r.Links); !slices.Equal(got, []string{"take_transition:deploy", "take_transition:abort"}) {
		t.Errorf("links = %v", got)
	}
	if r.Version == 0 || r.Links[0].Arguments["expected_version"] != float64(r.Version) || r.Links[0].Arguments["run_id"] != r.RunID {
		t.Errorf("a link is a call ready to make: version %d, %+v", r.Version, r.Links[0])
	}
	// notifications arrive before the answer on the one connection, but
	// the client may hand them over afterwards
	waitFor(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Contains(notes, "build → ready (run_build)") && slices.Contains(notes, "paused at ready")
	})

	done, isErr := call(t, cs, toolTake, r.Links[0].Arguments)
	if isErr || done.Status != "succeeded" || done.State != "deployed" || done.Version <= r.Version {
		t.Fatalf("take deploy: error %v, %+v", isErr, done)
	}
	again, _ := call(t, cs, toolGet, map[string]any{"run_id": r.RunID})
	if again.Status != "succeeded" || again.Version != done.Version {
		t.Errorf("get_run after the take: %+v", again)
	}
}

// waitFor waits for what a client is told asynchronously.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for range 500 {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("never happened")
}

func TestStaleVersionIsRefusedWithTheCurrentLinks(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{}, nil)
	r, _ := call(t, cs, toolStart, map[string]any{"chain": "deploy", "inputs": map[string]any{"service": "api"}})
	got, isErr := call(t, cs, toolTake, map[string]any{"run_id": r.RunID, "transition": "deploy", "expected_version": r.Version - 1})
	if !isErr || !strings.Contains(got.Error, "stale version") || got.Status != "paused" || got.Version != r.Version {
		t.Fatalf("stale take: error %v, %+v", isErr, got)
	}
	if names := linkNames(got.Links); !slices.Equal(names, []string{"take_transition:deploy", "take_transition:abort"}) {
		t.Errorf("links = %v", names)
	}
	still, _ := call(t, cs, toolGet, map[string]any{"run_id": r.RunID})
	if still.Status != "paused" {
		t.Errorf("the refused take moved the run: %+v", still)
	}
}

func TestBadArgumentsAreToolErrorsWithALink(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{AllToolsUpTo: 10}, nil)
	paused, _ := call(t, cs, toolStart, map[string]any{"chain": "deploy", "inputs": map[string]any{"service": "api"}})
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		want       string
		link       string
	}{
		{"no chain", toolStart, map[string]any{}, "chain is required", toolList},
		{"unknown chain", toolStart, map[string]any{"chain": "deploi"}, `no chain "deploi" (did you mean deploy?)`, toolList},
		{"unknown argument", toolStart, map[string]any{"chain": "deploy", "input": map[string]any{}}, `unknown field "input"`, toolList},
		{"missing input", toolStart, map[string]any{"chain": "deploy"}, "service", toolStart},
		{"input of the wrong type", toolStart, map[string]any{"chain": "deploy", "inputs": map[string]any{"service": "a", "replicas": "many"}}, "replicas", toolStart},
		{"broken chain", "run_broken", map[string]any{}, "nowhere", toolList},
		{"unknown run", toolGet, map[string]any{"run_id": "nope"}, `no run "nope"`, toolList},
		{"no such transition", toolTake, map[string]any{"run_id": paused.RunID, "transition": "launch"}, "launch", toolTake},
		{"not running", toolCancel, map[string]any{"run_id": paused.RunID}, "not running in this server", toolTake},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, isErr := call(t, cs, tc.tool, tc.args)
			if !isErr || !strings.Contains(r.Error, tc.want) {
				t.Fatalf("error %v, %q; want one saying %q", isErr, r.Error, tc.want)
			}
			if len(r.Links) == 0 || r.Links[0].Tool != tc.link {
				t.Errorf("recovery links %v, want first %s", linkNames(r.Links), tc.link)
			}
		})
	}
}

func TestHumanDecisionByElicitation(t *testing.T) {
	accept := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"transition": "approve", "note": "looks good"}}
	for _, tc := range []struct {
		name     string
		protocol []string // the server's; the newest asks by multi round-trip requests
		answer   *mcp.ElicitResult
		status   string
		state    string
	}{
		{"accept", nil, accept, "succeeded", "approved"},
		{"decline", nil, &mcp.ElicitResult{Action: "decline"}, "paused", "gate"},
		{"accept on 2025-06-18", []string{"2025-06-18"}, accept, "succeeded", "approved"},
		{"cancel on 2025-06-18", []string{"2025-06-18"}, &mcp.ElicitResult{Action: "cancel"}, "paused", "gate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked *mcp.ElicitParams
			b := newMemBackend(chainsDir(t))
			_, cs := serve(t, b, Options{ProtocolVersions: tc.protocol}, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked = req.Params
				return tc.answer, nil
			}})
			r, _ := call(t, cs, toolStart, map[string]any{"chain": "approve"})
			if r.Status != tc.status || r.State != tc.state {
				t.Fatalf("after %s: %+v", tc.name, r)
			}
			if asked == nil || !strings.Contains(asked.Message, "Approve the release") {
				t.Fatalf("asked %+v", asked)
			}
			form := mustJSON(asked.RequestedSchema)
			for _, want := range []string{`{"const":"approve","title":"Approve"}`, `"note":{"type":"string"}`, `"required":["transition"]`} {
				if !strings.Contains(form, want) {
					t.Errorf("form %s lacks %s", form, want)
				}
			}
			if tc.status == "paused" {
				if names := linkNames(r.Links); !slices.Equal(names, []string{"take_transition:approve", "take_transition:reject"}) {
					t.Errorf("a declined decision keeps its links: %v", names)
				}
				return
			}
			if got := b.run(r.RunID).args; len(got) != 1 || got[0]["note"] != "looks good" {
				t.Errorf("the take's arguments = %v", got)
			}
		})
	}
}

func TestWithoutElicitationTheLinksWork(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{}, nil)
	r, _ := call(t, cs, toolStart, map[string]any{"chain": "approve"})
	if r.Status != "paused" || len(r.Links) != 2 || r.Links[0].Actor != "human" {
		t.Fatalf("start: %+v", r)
	}
	args := r.Links[1].Arguments
	done, isErr := call(t, cs, toolTake, args)
	if isErr || done.Status != "succeeded" || done.State != "rejected" {
		t.Fatalf("take reject: %v %+v", isErr, done)
	}
}

func TestARunOutlivesItsCall(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{Wait: time.Millisecond}, nil)
	r, isErr := call(t, cs, toolStart, map[string]any{"chain": "slow"})
	if isErr || r.Status != Running || r.RunID == "" {
		t.Fatalf("past the soft deadline: %v %+v", isErr, r)
	}
	if names := linkNames(r.Links); !slices.Equal(names, []string{"get_run:", "cancel_run:"}) {
		t.Errorf("links of a running run: %v", names)
	}
	if again, _ := call(t, cs, toolGet, map[string]any{"run_id": r.RunID}); again.Status != Running {
		t.Errorf("get_run: %+v", again)
	}
	if busy, isErr := call(t, cs, toolTake, map[string]any{"run_id": r.RunID}); !isErr || !strings.Contains(busy.Error, "still running") {
		t.Errorf("take on a running run: %+v", busy)
	}
	stopped, _ := call(t, cs, toolCancel, map[string]any{"run_id": r.RunID})
	if stopped.Status != "interrupted" || len(stopped.Links) == 0 || stopped.Links[0].Tool != toolTake {
		t.Errorf("cancel_run: %+v", stopped)
	}
}

// startedBackend tells when a run's first event came.
type startedBackend struct {
	*memBackend
	started chan struct{}
	once    sync.Once
}

func (b *startedBackend) Start(ctx context.Context, name string, inputs map[string]string, events event.Sink) (*record.Result, error) {
	return b.memBackend.Start(ctx, name, inputs, event.Func(func(e event.Event) {
		events.Emit(e)
		b.once.Do(func() { close(b.started) })
	}))
}

func TestAClientCancelDoesNotStopTheRun(t *testing.T) {
	b := &startedBackend{memBackend: newMemBackend(chainsDir(t)), started: make(chan struct{})}
	s, cs := serve(t, b, Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-b.started
		cancel()
	}()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolStart, Arguments: map[string]any{"chain": "slow"}}); err == nil {
		t.Fatal("the cancelled call returned no error")
	}
	var id string
	waitFor(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for k := range s.active {
			id = k
		}
		return id != ""
	})
	if r, _ := call(t, cs, toolGet, map[string]any{"run_id": id}); r.Status != Running {
		t.Fatalf("after the client's cancel: %+v", r)
	}
	if r, _ := call(t, cs, toolCancel, map[string]any{"run_id": id}); r.Status != "interrupted" {
		t.Errorf("cancel_run: %+v", r)
	}
}

// TestSchemasSuitStrictClients: every tool's input and output schema is
// one the official TypeScript client accepts (CI drives it, .ci/mcp-client):
// no "required": null, and no property whose schema is a bare boolean.
func TestSchemasSuitStrictClients(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{AllToolsUpTo: 10}, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(tool, where string, v any)
	walk = func(tool, where string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if r, has := m["required"]; has && r == nil {
			t.Errorf("%s: %s: required is null", tool, where)
		}
		props, _ := m["properties"].(map[string]any)
		for name, p := range props {
			if _, isBool := p.(bool); isBool {
				t.Errorf("%s: %s.%s: a boolean schema", tool, where, name)
			}
			walk(tool, where+"."+name, p)
		}
		walk(tool, where+"[]", m["items"])
	}
	for _, tool := range tools.Tools {
		for what, sch := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			var v any
			if err := json.Unmarshal([]byte(mustJSON(sch)), &v); err != nil {
				t.Fatal(err)
			}
			walk(tool.Name, what, v)
		}
	}
}

// TestAGateIsADecision: a DAG chain paused at an OCC gate answers with
// approve and reject links, and take_transition decides it.
func TestAGateIsADecision(t *testing.T) {
	_, cs := serve(t, newMemBackend(chainsDir(t)), Options{}, nil)
	r, isErr := call(t, cs, toolStart, map[string]any{"chain": "gate"})
	if isErr || r.Status != "paused" || r.State != "ok" || len(r.Links) != 2 || r.Links[0].Transition != "approve" || r.Links[1].Transition != "reject" {
		t.Fatalf("paused at the gate: %+v (error result %v)", r, isErr)
	}
	done, isErr := call(t, cs, toolTake, r.Links[0].Arguments)
	if isErr || done.Status != "succeeded" || done.Output != "shipped" {
		t.Fatalf("approved: %+v (error result %v)", done, isErr)
	}
}

// TestTakeAcknowledges: a transition whose guard waits for a skill's
// acknowledgment is a link whose call acknowledges it, the body is in
// the guidance, and a take without it is refused naming the guard.
func TestTakeAcknowledges(t *testing.T) {
	dir := chainsDir(t)
	rubric := `version: "1"
skills:
  review.rubric.house: {verb: review, lifecycle: stable, body: "Lead with the problem."}
workflows:
  publish:
    initialState: draft
    states:
      draft:
        goal: Read the rubric, then publish
        transitions:
          publish: {target: published, guards: [{kind: guidance_acknowledged, subject: review.rubric.house}]}
      published: {terminal: true}
`
	if err := os.WriteFile(filepath.Join(dir, "publish.yaml"), []byte(rubric), 0o644); err != nil {
		t.Fatal(err)
	}
	_, cs := serve(t, newMemBackend(dir), Options{}, nil)
	r, isErr := call(t, cs, toolStart, map[string]any{"chain": "publish"})
	if isErr || r.Status != "paused" || len(r.Links) != 1 || r.Guidance == nil || len(r.Guidance.Acknowledge) != 1 || r.Guidance.Acknowledge[0].Body != "Lead with the problem." {
		t.Fatalf("start_run: error %v, %+v", isErr, r)
	}
	if got, _ := r.Links[0].Arguments["acknowledge"].([]any); len(got) != 1 || got[0] != "review.rubric.house" {
		t.Fatalf("link %+v", r.Links[0])
	}
	no, _ := call(t, cs, toolTake, map[string]any{"run_id": r.RunID, "transition": "publish"})
	if no.Status == "succeeded" || !strings.Contains(no.Error, "guidance review.rubric.house has not been acknowledged in this run") {
		t.Fatalf("take without acknowledging: %+v", no)
	}
	done, isErr := call(t, cs, toolTake, r.Links[0].Arguments)
	if isErr || done.Status != "succeeded" {
		t.Fatalf("take acknowledging: error %v, %+v", isErr, done)
	}
}

package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// keyLog is a file a cli executor appends its IDEMPOTENCY_KEY to, one
// line per attempt, and the shell line that does it.
type keyLog string

func newKeyLog(t *testing.T) keyLog { return keyLog(filepath.Join(t.TempDir(), "keys")) }

// record appends "label key" and fails while the log holds fewer than
// fails lines.
func (k keyLog) record(label string, fails int) string {
	return `echo ` + label + ` "$IDEMPOTENCY_KEY" >> ` + string(k) + `; [ $(wc -l < ` + string(k) + `) -gt ` + itoa(fails) + ` ]`
}

func (k keyLog) lines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(string(k))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestIdempotencyKeyOfACLIExecutor: a cli executor's idempotencyKey is
// IDEMPOTENCY_KEY in its command's environment, the same on each of its
// retries: true is <run id>.<transition>.<take>, the take being how many
// transitions the run had recorded; an onEnter's transition is on_enter;
// a text fills {workflowId}, {transition}, {correlationId} and the run's
// values; a later transition has its own take.
func TestIdempotencyKeyOfACLIExecutor(t *testing.T) {
	log := newKeyLog(t)
	src := flowOf("", `      a:
        onEnter:
          executor: {kind: cli, run: '`+log.record("enter", 0)+`', idempotencyKey: "ord-{context.order}/{transition}/{workflowId}/{correlationId}"}
        transitions:
          pay:
            target: b
            actor: deterministic
            executor: {kind: cli, run: '`+log.record("pay", 3)+`', idempotencyKey: true}
            reliability: {retry: {maxAttempts: 4}}
      b:
        transitions:
          ship:
            target: c
            actor: deterministic
            executor: {kind: cli, run: '`+log.record("ship", 0)+` && printf "%s" "$IDEMPOTENCY_KEY"', idempotencyKey: true}
      c: {terminal: true}
`)
	src = strings.Replace(src, "    initialState: a\n", "    initialContext: {order: 'A-17'}\n    initialState: a\n", 1)
	res := runFlow(t, src, Request{})
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	id := res.RunID
	want := []string{
		"enter ord-A-17/on_enter/" + id + "/0",
		"pay " + id + ".pay.1", "pay " + id + ".pay.1", "pay " + id + ".pay.1",
		"ship " + id + ".ship.2",
	}
	if got := log.lines(t); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("keys:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := res.Steps[len(res.Steps)-1]; s.Attempts != 1 {
		t.Errorf("ship attempts %d", s.Attempts)
	}
}

// TestIdempotencyKeyIsKeptAcrossAResume: a transition that failed and is
// taken again by a resume of the same run sends the key it sent before
// (its take has not moved), so a receiver that saw the first attempt's
// effect can tell the second is the same.
func TestIdempotencyKeyIsKeptAcrossAResume(t *testing.T) {
	log := newKeyLog(t)
	src := flowOf("", `      a:
        transitions:
          charge:
            target: b
            actor: deterministic
            executor: {kind: cli, run: '`+log.record("charge", 1)+`', idempotencyKey: "{workflowId}:{transition}:{correlationId}"}
      b:
        transitions:
          note:
            target: c
            actor: deterministic
            executor: {kind: cli, run: 'printf "[%s]" "${IDEMPOTENCY_KEY-}"'}
      c: {terminal: true}
`)
	c := load(t, src)
	j := &memJournal{}
	dir := t.TempDir()
	first, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || first.Status != record.Failed {
		t.Fatalf("first call: %v %s", err, first.Status)
	}
	again, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, RunID: first.RunID, Journal: j, History: j.transitions, Take: "charge"})
	if err != nil || again.Status != record.Succeeded {
		t.Fatalf("resume: %v %s %s", err, again.Status, again.Error)
	}
	key := first.RunID + ":charge:0"
	if got := strings.Join(log.lines(t), "|"); got != "charge "+key+"|charge "+key {
		t.Errorf("keys %s, want %s twice", got, key)
	}
}

// TestIdempotencyKeyOfAnMCPExecutor: an mcp executor's key is the
// _idempotencyKey argument of its tool call, the same on each retry,
// besides its own arguments; one that passes the decision's arguments
// adds it to a copy (the run's $.arguments do not get it).
func TestIdempotencyKeyOfAnMCPExecutor(t *testing.T) {
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	src := flowOf("connections:\n  rec: {kind: mcp, url: '"+web.URL+"'}\n", `      a:
        transitions:
          book:
            target: b
            actor: deterministic
            executor: {kind: mcp, connection: rec, tool: record, arguments: {fail: 2, room: "$.context.room"}, idempotencyKey: true}
            reliability: {retry: {maxAttempts: 3}}
      b:
        transitions:
          confirm:
            target: c
            executor: {kind: mcp, connection: rec, tool: record, idempotencyKey: "confirm-{correlationId}"}
            output: {seen: "$.arguments"}
      c: {terminal: true}
`)
	src = strings.Replace(src, "    initialState: a\n", "    initialContext: {room: 12}\n    initialState: a\n", 1)
	c := load(t, src)
	j := &memJournal{}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
	res, err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, RunID: res.RunID, Journal: j, History: j.transitions, Take: "confirm", Args: map[string]any{"by": "ann"}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
	key := `"_idempotencyKey":"` + res.RunID + `.book.0"`
	want := []string{
		`{` + key + `,"fail":2,"room":12}`, `{` + key + `,"fail":2,"room":12}`, `{` + key + `,"fail":2,"room":12}`,
		`{"_idempotencyKey":"confirm-1","by":"ann"}`,
	}
	got := srv.Recorded()
	for i := range got {
		got[i] = canonical(t, got[i])
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if seen := asJSON(t, res.Context["seen"]); seen != `{"by":"ann"}` {
		t.Errorf("the decision's arguments became %s", seen)
	}
}

// canonical is JSON text with its keys sorted.
func canonical(t *testing.T, text string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return asJSON(t, v)
}

// TestIdempotencyKeyOfANoopOrAParallel: a noop executor takes a key and
// sends it nowhere, as mcp-flowgate's, and so does a parallel executor
// (with a warning); its branches each send their own, told apart by
// :branch:N, and a branch without one sends none.
func TestIdempotencyKeyOfANoopOrAParallel(t *testing.T) {
	log := newKeyLog(t)
	src := flowOf("", `      a:
        transitions:
          wait:
            target: b
            actor: deterministic
            executor: {kind: noop, idempotencyKey: true}
      b:
        transitions:
          fan:
            target: c
            actor: deterministic
            executor:
              kind: parallel
              idempotencyKey: true
              branches:
                - {kind: cli, run: '`+log.record("b0", 0)+`', idempotencyKey: true}
                - {kind: cli, run: '`+log.record("b1", 0)+`', idempotencyKey: "job-{transition}"}
                - {kind: cli, run: 'echo "b2 [${IDEMPOTENCY_KEY-}]" >> `+string(log)+`'}
              join: all
      c: {terminal: true}
`)
	res := runFlow(t, src, Request{})
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	got := log.lines(t)
	want := map[string]bool{"b0 " + res.RunID + ".fan.1:branch:0": true, "b1 job-fan:branch:1": true, "b2 []": true}
	if len(got) != 3 {
		t.Fatalf("lines %q", got)
	}
	for _, l := range got {
		if !want[l] {
			t.Errorf("line %q, want one of %v", l, want)
		}
	}
}

// TestIdempotencyKeyOfADAGStep: in a DAG chain, a cli step's key true
// is <run id>.<step id>, the same on each retry; each item of a
// for_each step has its own (:item:N), since each is an effect of its
// own; a text key reads the inputs, {workflowId} and {transition}.
func TestIdempotencyKeyOfADAGStep(t *testing.T) {
	log := newKeyLog(t)
	src := `name: keys
inputs: [order]
steps:
  - id: charge
    type: cli
    run: '` + log.record("charge", 1) + `'
    idempotencyKey: true
    retry: {max: 2}
  - id: each
    type: cli
    depends_on: [charge, lines]
    for_each: '{lines}'
    run: 'echo "item {item} $IDEMPOTENCY_KEY" >> ` + string(log) + `'
    idempotencyKey: true
  - id: lines
    type: cli
    run: 'printf "a\nb\n"'
    output_var: lines
  - id: named
    type: cli
    depends_on: [each]
    run: 'echo "named $IDEMPOTENCY_KEY" >> ` + string(log) + `'
    idempotencyKey: 'order-{input.order}/{transition}/{workflowId}'
`
	res := runChain(t, src, map[string]string{"order": "77"})
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	id := res.RunID
	got := log.lines(t)
	want := map[string]int{"charge " + id + ".charge": 2, "item a " + id + ".each:item:0": 1, "item b " + id + ".each:item:1": 1, "named order-77/named/" + id: 1}
	for _, l := range got {
		want[l]--
	}
	for l, n := range want {
		if n != 0 {
			t.Errorf("line %q: %d more or fewer than wanted; lines %q", l, n, got)
		}
	}
}

// TestIdempotencyKeyHeaderOfADAGRequest: an http step's key (and an
// OCC webhook's) is its Idempotency-Key header, the same on the retry
// that follows a 503; a text key reads the inputs.
func TestIdempotencyKeyHeaderOfADAGRequest(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path+" "+r.Header.Get("Idempotency-Key"))
		n := len(got)
		mu.Unlock()
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	src := `name: keys
inputs: [order]
steps:
  - id: charge
    type: http
    method: POST
    url: '` + srv.URL + `/charge'
    idempotencyKey: true
    retry: {max: 2}
  - id: notify
    type: http
    depends_on: [charge]
    url: '` + srv.URL + `/notify'
    idempotencyKey: 'n-{input.order}-{transition}'
`
	res := runChain(t, src, map[string]string{"order": "9"})
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	want := "/charge " + res.RunID + ".charge|/charge " + res.RunID + ".charge|/notify n-9-notify"
	if strings.Join(got, "|") != want {
		t.Errorf("requests %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestKeyScopeKeepsAGivenKey: a key handed to a step in another's
// stead (a fallback sends its primary's) is kept whatever the step's
// own, once: what that step runs inside works out its own again; a step
// of another transition works its own out from the name given.
func TestKeyScopeKeepsAGivenKey(t *testing.T) {
	c := load(t, flowOf("", `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: cli, command: date, idempotencyKey: "own-{transition}"}
      b: {terminal: true}
`))
	x := New().newExecution(c, "R1", newStore(nil), nil, Request{}, nil)
	x.KeyTake = "4"
	s := c.Steps[0]
	given := Scope{Vars: x.Vars, key: "primary-key", keyGiven: true}
	sc, err := x.keyScope(s, s.KeyTransition(), given)
	if err != nil || sc.key != "primary-key" || sc.keyGiven {
		t.Errorf("given: %q %v %v", sc.key, sc.keyGiven, err)
	}
	sc, err = x.keyScope(s, s.KeyTransition(), sc)
	if err != nil || sc.key != "own-go" {
		t.Errorf("inside: %q %v", sc.key, err)
	}
	sc, err = x.keyScope(s, "retry_go", Scope{Vars: x.Vars, keySuffix: branchKey(2)})
	if err != nil || sc.key != "own-retry_go:branch:2" || sc.keySuffix != "" {
		t.Errorf("as another transition: %q %q %v", sc.key, sc.keySuffix, err)
	}
}

// TestIdempotencyKeyOfAFallbackIsThePrimarys: a reliability.fallback
// executor stands in for the same call, so it sends the key its primary
// sent on every try (mcp-flowgate's execute_with_reliability hands the
// one key to every candidate); a key written on the fallback itself is
// not its own.
func TestIdempotencyKeyOfAFallbackIsThePrimarys(t *testing.T) {
	log := newKeyLog(t)
	src := flowOf("", `      a:
        transitions:
          pay:
            target: b
            actor: deterministic
            executor: {kind: cli, run: '`+log.record("pay", 9)+`', idempotencyKey: true}
            reliability:
              retry: {maxAttempts: 2, backoff: none}
              fallback:
                executors:
                  - {kind: cli, run: '`+log.record("backup", 4)+`', idempotencyKey: "own-{transition}"}
                  - {kind: cli, run: '`+log.record("last", 0)+`'}
      b: {terminal: true}
`)
	res := runFlow(t, src, Request{})
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	key := res.RunID + ".pay.0"
	want := []string{"pay " + key, "pay " + key, "backup " + key, "backup " + key, "last " + key}
	if got := log.lines(t); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("keys:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

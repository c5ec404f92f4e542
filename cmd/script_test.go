package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
)

// TestMain makes the test binary double as the chainrun program for the
// scripts in testdata/script, and as expect-exit, which runs chainrun and
// checks its exact exit code (testscript's exec only tells zero from
// non-zero).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"chainrun": func() { os.Exit(Main()) },
		// an MCP server over stdio, for the steps of kind mcp
		"mcptest-server": func() { os.Exit(mcptest.ServeStdio()) },
		"expect-exit": func() {
			if len(os.Args) < 2 {
				fmt.Fprintln(os.Stderr, "usage: expect-exit CODE chainrun-args...")
				os.Exit(2)
			}
			want, err := strconv.Atoi(os.Args[1])
			if err != nil {
				fmt.Fprintln(os.Stderr, "expect-exit: bad code", os.Args[1])
				os.Exit(2)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			got := Execute(ctx, iostreams.System(), os.Args[2:])
			stop()
			if got != want {
				fmt.Fprintf(os.Stderr, "chainrun exited with %d, want %d\n", got, want)
				os.Exit(1)
			}
			os.Exit(0)
		},
	})
}

func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("UPDATE_GOLDEN") != "",
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo)
			// A fake model server speaking both wire formats, per script.
			srv := fakeModels()
			e.Defer(srv.Close)
			e.Values["llm"] = srv
			e.Setenv("ANTHROPIC_API_KEY", "ak-fake-0123")
			e.Setenv("OPENAI_API_KEY", "ok-fake-4567")
			e.Setenv("ANTHROPIC_BASE_URL", srv.AnthropicURL())
			e.Setenv("LLMURL", srv.AnthropicURL())
			e.Setenv("OPENAIURL", srv.OpenAIURL())
			e.Setenv("OPENAI_BASE_URL", srv.OpenAIURL())
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(e.WorkDir, ".config"))
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// sleep DURATION pauses the script (for signal tests).
			"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				time.Sleep(d)
			},
			// waitfile PATH waits up to 10s for a file to appear.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				deadline := time.Now().Add(10 * time.Second)
				for {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						return
					}
					if time.Now().After(deadline) {
						ts.Fatalf("%s did not appear", args[0])
					}
					time.Sleep(20 * time.Millisecond)
				}
			},
			// llm-requests N checks how many requests the fake model server got.
			"llm-requests": func(ts *testscript.TestScript, neg bool, args []string) {
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				if got := ts.Value("llm").(*llmtest.Server).Count(); got != want {
					ts.Fatalf("the model server got %d requests, want %d", got, want)
				}
			},
			"pty-live": ptyLive, // live progress on a terminal: see live_pty_test.go
			// lastrun VAR sets VAR to the id of the newest saved run.
			"lastrun": func(ts *testscript.TestScript, neg bool, args []string) {
				entries, err := os.ReadDir(filepath.Join(stateDir(ts), "runs"))
				ts.Check(err)
				if len(entries) == 0 {
					ts.Fatalf("no saved run")
				}
				ts.Setenv(args[0], entries[len(entries)-1].Name())
			},
			// crashrun FILE ARGS... runs chainrun ARGS, kills it with SIGKILL
			// once FILE appears (a crash), and waits for it to die.
			"crashrun": func(ts *testscript.TestScript, neg bool, args []string) {
				cmd := chainrunCommand(ts, args[1:]...)
				ts.Check(cmd.Start())
				deadline := time.Now().Add(10 * time.Second)
				for {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						break
					}
					if time.Now().After(deadline) {
						_ = cmd.Process.Kill()
						ts.Fatalf("%s did not appear", args[0])
					}
					time.Sleep(20 * time.Millisecond)
				}
				_ = cmd.Process.Signal(syscall.SIGKILL)
				_ = cmd.Wait()
			},
			// sigrun SIG FILE OUT ARGS... runs chainrun ARGS (stdout to
			// OUT, stderr to OUT.err), sends it SIG (HUP, TERM, QUIT, INT)
			// once FILE appears, and checks that it exits 130.
			"sigrun": sigRun,
			// mcp-call TOOL [JSON] [-- MCP-FLAGS...] calls a tool of chainrun mcp
			// over stdio (see mcp_script_test.go).
			"mcp-call": mcpCall,
			// piperun OUT ARGS... runs chainrun ARGS with stdout to OUT and
			// stderr to a pipe whose reader is already gone, and checks
			// that it exits 130.
			"piperun": pipeRun,
			// pty ANSWER ARGS... runs chainrun ARGS on a terminal and types
			// ANSWER at its prompt; what the terminal showed is stdout.
			"pty": ptyRun,
			// ci-action FILE writes the run step's script of action.yml's
			// composite action (see ci_action_test.go).
			"ci-action": ciAction,
			// crashloop ROUNDS CHAIN MAXMS kills runs at random points and
			// resumes them (see crashLoop).
			"crashloop": crashLoop,
			// runscrash ROUNDS CHAIN MAXUS kills runs being created at
			// random points and finds every run left (see runsCrash).
			"runscrash": runsCrash,
			// crashonce ROUNDS WORKFLOW MAXMS kills a workflow's runs at
			// random points and resumes them, counting the effects of its
			// non-idempotent steps (see crashOnce).
			"crashonce": crashOnce,
			// killpid PIDFILE kills the process a file names (cleanup).
			"killpid": func(ts *testscript.TestScript, neg bool, args []string) {
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
				ts.Check(err)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			},
			// dead PIDFILE checks that the process it names is gone.
			"dead": func(ts *testscript.TestScript, neg bool, args []string) {
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
				ts.Check(err)
				deadline := time.Now().Add(5 * time.Second)
				for processAlive(pid) {
					if time.Now().After(deadline) {
						ts.Fatalf("process %d is still running", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			},
		},
	})
}

// fakeModels answers every prompt with "answer to: PROMPT"; a prompt
// holding FAIL401 is refused, one holding FLAKY fails once with 503, one
// holding NOHEADING is answered without the heading a guardrail asks for.
func fakeModels() *llmtest.Server {
	var mu sync.Mutex
	flaky := map[string]bool{}
	return llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		prompt := r.LastUserMessage()
		mu.Lock()
		defer mu.Unlock()
		switch {
		case strings.Contains(prompt, "FAIL401"):
			return llmtest.Reply{Status: 401}
		case strings.Contains(prompt, "FLAKY") && !flaky[prompt]:
			flaky[prompt] = true
			return llmtest.Reply{Status: 503, RetryAfter: "0"}
		case strings.Contains(prompt, "NOHEADING") && !strings.Contains(prompt, "broke these rules"):
			return llmtest.Reply{Text: "plain text"}
		case strings.Contains(prompt, "broke these rules"):
			return llmtest.Reply{Text: "## Summary fixed"}
		case strings.Contains(prompt, "SLOWLLM"):
			return llmtest.Reply{Text: "late", Delay: 20 * time.Second}
		case toolResultsCame(r):
			return llmtest.Reply{Text: "done after tools"}
		case strings.Contains(prompt, "TOOLCALL "):
			// an agent with tools: call the tool the prompt names, then
			// answer once results came back
			_, spec, _ := strings.Cut(prompt, "TOOLCALL ")
			name, args, _ := strings.Cut(strings.SplitN(spec, "\n", 2)[0], " ")
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: name, Arguments: args}}}
		case strings.Contains(prompt, "DESCRIBE=") && !toolResultsIn(r):
			// a decision that reads a subject's body first (describe);
			// its result comes back, and the model chooses then
			_, after, _ := strings.Cut(prompt, "DESCRIBE=")
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "describe", Arguments: `{"subject": "` + strings.Fields(after)[0] + `"}`}}}
		case toolResultsIn(r) && strings.Contains(asText(r.Body), "DESCRIBE="):
			choice := "none"
			if _, after, ok := strings.Cut(asText(r.Body), "CHOOSE="); ok {
				choice = strings.FieldsFunc(after, func(c rune) bool { return c == ' ' || c == '\\' || c == '"' })[0]
			}
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "` + choice + `"}`}}}
		case strings.Contains(prompt, "<rubric>") && r.Body["tools"] != nil:
			// Anthropic's structured output: the answer is the input of
			// the one tool the request offers
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "grading", Arguments: fakeGrade(prompt)}}}
		case strings.Contains(prompt, "<rubric>"):
			return llmtest.Reply{Text: fakeGrade(prompt)}
		case strings.Contains(prompt, "Transitions you may take:"):
			// a decision: the guidance says which link to choose
			choice := "none"
			if _, after, ok := strings.Cut(prompt, "CHOOSE="); ok {
				choice = strings.Fields(after)[0]
			}
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "` + choice + `"}`}}}
		}
		return llmtest.Reply{Text: "answer to: " + prompt}
	})
}

// fakeGrade grades as a model-graded matcher's grader would: a rubric
// "mentions WORD" passes when the output holds WORD (score 0.9, else
// 0.2); any other rubric passes with 0.5.
func fakeGrade(prompt string) string {
	_, output, _ := strings.Cut(prompt, "<output>\n")
	output, _, _ = strings.Cut(output, "\n</output>")
	_, rubric, _ := strings.Cut(prompt, "<rubric>\n")
	rubric, _, _ = strings.Cut(rubric, "\n</rubric>")
	pass, score, reason := true, 0.5, "no rule for this rubric"
	if _, word, ok := strings.Cut(rubric, "mentions "); ok {
		pass = strings.Contains(output, word)
		score, reason = 0.2, "the output does not mention "+word
		if pass {
			score, reason = 0.9, "the output mentions "+word
		}
	}
	answer, _ := json.Marshal(map[string]any{"pass": pass, "score": score, "reason": reason})
	return string(answer)
}

// chainrunCommand is chainrun ARGS as a separate process, in the
// script's directory with the script's environment.
func chainrunCommand(ts *testscript.TestScript, args ...string) *exec.Cmd {
	cmd := exec.Command("chainrun", args...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "CHAINRUN_STATE_DIR", "CHAINRUN_FAST", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	// the chainrun program testscript put on the script's PATH
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(dir, "chainrun"); fileExists(p) {
			cmd.Path = p
			break
		}
	}
	return cmd
}

// toolResultsCame reports whether a request of a TOOLCALL prompt carries
// tool results (in either wire format): the tool loop's second turn.
func toolResultsCame(r llmtest.Request) bool {
	body, _ := json.Marshal(r.Body)
	b := string(body)
	return strings.Contains(b, "TOOLCALL ") && (strings.Contains(b, "tool_call_id") || strings.Contains(b, "tool_result"))
}

// toolResultsIn reports whether a request carries tool results (in
// either wire format).
func toolResultsIn(r llmtest.Request) bool {
	b := asText(r.Body)
	return strings.Contains(b, "tool_call_id") || strings.Contains(b, "tool_result")
}

func asText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func processAlive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == nil
}

func sigRun(ts *testscript.TestScript, neg bool, args []string) {
	sig := map[string]syscall.Signal{"HUP": syscall.SIGHUP, "TERM": syscall.SIGTERM, "QUIT": syscall.SIGQUIT, "INT": syscall.SIGINT}[args[0]]
	if sig == 0 {
		ts.Fatalf("unknown signal %s", args[0])
	}
	cmd := chainrunCommand(ts, args[3:]...)
	out, err := os.Create(ts.MkAbs(args[2]))
	ts.Check(err)
	defer out.Close()
	errOut, err := os.Create(ts.MkAbs(args[2] + ".err"))
	ts.Check(err)
	defer errOut.Close()
	cmd.Stdout, cmd.Stderr = out, errOut
	ts.Check(cmd.Start())
	deadline := time.Now().Add(10 * time.Second)
	for !fileExists(ts.MkAbs(args[1])) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			ts.Fatalf("%s did not appear", args[1])
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Check(cmd.Process.Signal(sig))
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		ts.Fatalf("SIG%s: exit %d (%s), want 130", args[0], code, cmd.ProcessState)
	}
}

func pipeRun(ts *testscript.TestScript, neg bool, args []string) {
	cmd := chainrunCommand(ts, args[1:]...)
	out, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	defer out.Close()
	r, w, err := os.Pipe()
	ts.Check(err)
	r.Close() // the reader is gone before anything is written
	cmd.Stdout, cmd.Stderr = out, w
	ts.Check(cmd.Start())
	w.Close()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		ts.Fatalf("chainrun went on with its stderr gone")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		ts.Fatalf("stderr closed: exit %d (%s), want 130", code, cmd.ProcessState)
	}
}

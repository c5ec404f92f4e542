package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// A tools task's written args are the chain author's: the run's input
// fills only the arguments the task leaves open, so whoever gives the
// input never replaces a fixed command or a fixed file.
func TestTaskChainToolsTaskWrittenArgsWin(t *testing.T) {
	cases := []struct {
		name, tools, input string
		want               map[string]string // file: content ("" absent)
	}{
		{"a fixed shell command is not replaced",
			`{"name":"local_shell","tool_name":"Bash","args":{"command":"printf author > by-author"}}`,
			`{"command": "printf caller > by-caller"}`,
			map[string]string{"by-author": "author", "by-caller": ""}},
		{"a fixed shell command is not replaced by its tool's own name",
			`{"name":"local_shell","tool_name":"local_shell","args":{"command":"printf kept > kept.txt"}}`,
			`{"command": "touch swapped.txt", "timeout_ms": 5000}`,
			map[string]string{"kept.txt": "kept", "swapped.txt": ""}},
		{"a fixed path, written as contenox's path, is not replaced by file_path",
			`{"name":"local_fs","tool_name":"write_file","args":{"path":"fixed.txt"}}`,
			`{"file_path": "elsewhere.txt", "content": "from the input"}`,
			map[string]string{"fixed.txt": "from the input", "elsewhere.txt": ""}},
		{"an argument the task leaves open comes from the input",
			`{"name":"local_fs","tool_name":"Write","args":{"file_path":"open.txt"}}`,
			`{"content": "filled"}`,
			map[string]string{"open.txt": "filled"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := `{"id":"tt","tasks":[{"id":"call","handler":"tools","tools":` + tc.tools + `}]}`
			l, err := loader.Parse("tt.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New()
			defer s.Close()
			dir := t.TempDir()
			res, _ := taskRun(t, l.Chain, tc.input, s, dir)
			if res.Status != record.Succeeded {
				t.Fatalf("%s: %s", res.Status, res.Error)
			}
			for file, want := range tc.want {
				b, err := os.ReadFile(filepath.Join(dir, file))
				switch {
				case want == "" && err == nil:
					t.Errorf("%s was written (%q): the input replaced a written argument", file, b)
				case want != "" && string(b) != want:
					t.Errorf("%s = %q (%v), want %q", file, b, err, want)
				}
			}
		})
	}
}

// shellChain is a chat task offering ask's hooks under ask's policy, and
// an execute_tool_calls task with exec's hooks and policy.
func shellChain(t *testing.T, askTools, askPolicy, execTools, execPolicy string) *chain.Chain {
	t.Helper()
	src := `{"id":"sh","tasks":[
 {"id":"ask","handler":"chat_completion","execute_config":{"tools":` + askTools + `,"tools_policies":` + askPolicy + `},
  "transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"run"},{"operator":"default","goto":"end"}]}},
 {"id":"run","handler":"execute_tool_calls","input_var":"ask","execute_config":{"tools":` + execTools + `,"tools_policies":` + execPolicy + `},
  "transition":{"branches":[{"operator":"default","goto":"ask"}]}}]}`
	l, err := loader.Parse("sh.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Chain
}

// The commands a model's Bash calls may run are what the tools_policies
// of the task that offered Bash and of the task that runs the call both
// allow; a call of a tool the model was not offered is not run, whatever
// the executing task's tools.
func TestTaskChainToolsPoliciesHoldModelCalls(t *testing.T) {
	shellOnly := `{"local_shell":{"_allowed_commands":"ls,echo,printf","_denied_commands":"touch,rm,sudo"}}`
	cases := []struct {
		name                                      string
		askTools, askPolicy, execTools, execPolic string
		command                                   string
		ran                                       bool
		said                                      string
	}{
		{"a denied command", `["local_shell"]`, shellOnly, `["local_shell"]`, `{"local_shell":{"_denied_commands":"touch,rm,sudo"}}`,
			"touch made", false, `"touch" is denied`},
		{"a command outside the offering task's allow list, the executing task having none", `["local_shell"]`, shellOnly, `["*"]`, `{}`,
			"mkdir made", false, `"mkdir" is not among the allowed commands`},
		{"a command denied by the executing task only", `["local_shell"]`, `{}`, `["local_shell"]`, `{"local_shell":{"_denied_commands":["mkdir"]}}`,
			"mkdir made", false, `"mkdir" is denied`},
		{"a substitution hides the program", `["local_shell"]`, shellOnly, `["local_shell"]`, `{}`,
			"echo $(mkdir made)", false, "cannot tell"},
		{"an allowed command", `["local_shell"]`, shellOnly, `["local_shell"]`, `{}`,
			"printf x > made", true, ""},
		{"Bash not offered to the model, the executing task having every tool", `["local_fs"]`, `{}`, `["*"]`, `{}`,
			"mkdir made", false, "was not offered Bash"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := shellChain(t, tc.askTools, tc.askPolicy, tc.execTools, tc.execPolic)
			args, _ := json.Marshal(map[string]string{"command": tc.command})
			s := llmtest.New(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: string(args)}}}, llmtest.Reply{Text: "done"})
			defer s.Close()
			dir := t.TempDir()
			res, events := taskRun(t, c, "go", s, dir)
			if res.Status != record.Succeeded {
				t.Fatalf("%s: %s", res.Status, res.Error)
			}
			if _, err := os.Stat(filepath.Join(dir, "made")); (err == nil) != tc.ran {
				t.Fatalf("ran = %v, want %v", err == nil, tc.ran)
			}
			if tc.ran {
				return
			}
			said, _ := json.Marshal(tc.said) // as the request's JSON holds it
			if got := body(s.Requests()[1]); !strings.Contains(got, strings.Trim(string(said), `"`)) {
				t.Errorf("the model was not told why: %s", got)
			}
			denied, audited := false, false
			for _, e := range events {
				denied = denied || e.Tool == "Bash" && e.Status == event.Denied
				audited = audited || e.Type == event.ToolDenied && e.Tool == "Bash" && e.DecidedBy == "chain"
			}
			if !denied || !audited {
				t.Errorf("denial in the event log %v, audited %v", denied, audited)
			}
		})
	}
}

// A tools_policies entry chainrun does not apply is in the run's
// warnings, not only on stderr.
func TestTaskChainUnappliedPoliciesAreRunWarnings(t *testing.T) {
	c := shellChain(t, `["local_fs"]`, `{"local_fs":{"_allowed_dir":"/srv","_max_read_bytes":"10"}}`, `["local_fs"]`, `{}`)
	s := llmtest.New(llmtest.Reply{Text: "nothing to do"})
	defer s.Close()
	res, _ := taskRun(t, c, "go", s, "")
	if res.Status != record.Succeeded || !strings.Contains(strings.Join(res.Warnings, "\n"), "tools_policies.local_fs (_allowed_dir, _max_read_bytes) is not applied") {
		t.Fatalf("%s %q: %s", res.Status, res.Warnings, res.Error)
	}
}

package contenox

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A tools task that leaves the argument deciding what its tool does to
// the machine open is valid, but validate says the run's input decides it.
func TestTaskChainToolsTaskInputDecidesWarning(t *testing.T) {
	cases := []struct{ name, tools, want string }{
		{"shell without a command", `{"name":"local_shell","tool_name":"Bash"}`, "sets no command: the run's input decides the shell command"},
		{"shell with other args only", `{"name":"local_shell","tool_name":"Bash","args":{"timeout_ms":"100"}}`, "sets no command"},
		{"write without a path", `{"name":"local_fs","tool_name":"write_file","args":{"content":"x"}}`, "sets no file_path: the run's input decides the file it writes"},
		{"edit without a path", `{"name":"local_fs","tool_name":"Edit","args":{"old_string":"a","new_string":"b"}}`, "the file it edits"},
		{"fixed command", `{"name":"local_shell","tool_name":"local_shell","args":{"command":"true"}}`, ""},
		{"fixed path as contenox writes it", `{"name":"local_fs","tool_name":"write_file","args":{"path":"a.txt"}}`, ""},
		{"read leaves the path open", `{"name":"local_fs","tool_name":"read_file"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := `{"id":"tt","tasks":[{"id":"call","handler":"tools","tools":` + tc.tools + `}]}`
			l, err := parseChain("tt.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range l.Warnings {
				got = append(got, w.String())
			}
			all := strings.Join(got, "\n")
			if tc.want == "" && strings.Contains(all, "input decides") || tc.want != "" && !strings.Contains(all, tc.want) {
				t.Errorf("warnings %q, want %q", all, tc.want)
			}
			if tc.want != "" && !strings.Contains(all, "tt.json:1:") {
				t.Errorf("the warning names no file and line: %q", all)
			}
		})
	}
}

// local_shell's command lists become the task's policy; other policies
// are warnings naming them; a list that is not names is an error at its
// line.
func TestTaskChainToolsPoliciesAreRead(t *testing.T) {
	src := `{"id":"p","tasks":[{"id":"ask","handler":"chat_completion","execute_config":{"tools":["*"],
 "tools_policies":{"local_shell":{"_allowed_commands":" ls, echo ,","_denied_commands":["rm","sudo"]},"local_fs":{"_allowed_dir":"."}}}}]}`
	l, err := parseChain("p.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := HandlerOf(l.Chain.Workflow.State("ask").Task)
	if strings.Join(h.AllowedCommands, ",") != "echo,ls" || strings.Join(h.DeniedCommands, ",") != "rm,sudo" {
		t.Errorf("allowed %q, denied %q", h.AllowedCommands, h.DeniedCommands)
	}
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0].String(), "tools_policies.local_fs (_allowed_dir) is not applied") {
		t.Errorf("warnings %v", l.Warnings)
	}
	for _, bad := range []string{`{"local_shell":{"_denied_commands":5}}`, `{"local_shell":{"_allowed_commands":[1]}}`, `{"local_shell":"ls"}`, `["ls"]`} {
		src := `{"id":"p","tasks":[{"id":"run","handler":"execute_tool_calls","execute_config":{"tools":["local_shell"],
 "tools_policies":` + bad + `}}]}`
		_, err := parseChain("p.json", []byte(src), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), "p.json:1:") || !strings.Contains(err.Error(), "tools_policies") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

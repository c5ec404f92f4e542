package chain

import (
	"strings"
	"testing"
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
			l, err := Parse("tt.json", []byte(src), Options{})
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

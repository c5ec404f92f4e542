package run

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
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
			l, err := chain.Parse("tt.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New()
			defer s.Close()
			dir := t.TempDir()
			res, _ := taskRun(t, l.Chain, tc.input, s, dir)
			if res.Status != Succeeded {
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

package contenox

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// TestFileKeys pins the keys of a task chain file and of a task, in the
// order did-you-mean tries them (pkg/chain's kinds inventory held them
// before the format moved here): a change is a change of what files load.
func TestFileKeys(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want []string
	}{
		{"task chain file", yamlpos.KeysOf[taskChainFile](), []string{"$schema", "id", "description", "debug", "token_limit", "routing_strategy", "tasks"}},
		{"task", yamlpos.KeysOf[taskKeys](), []string{"id", "description", "handler", "system_instruction", "prompt_template", "input_var", "print", "execute_config", "transition", "retry_on_failure", "timeout", "input_max_bytes", "tools", "output_template", "hook", "valid_conditions", "compose"}},
	} {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s keys = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

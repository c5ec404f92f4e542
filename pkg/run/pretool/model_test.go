package pretool

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestEveryPreToolTypeIsRead: the reader knows what each of the core's
// pre_tool types takes, in the core's order (messages and the schema's
// enum list them so), and no type the core does not know.
func TestEveryPreToolTypeIsRead(t *testing.T) {
	var read []string
	for _, u := range preToolUnits {
		read = append(read, u.name)
	}
	if core := chain.PreToolTypes(); !slices.Equal(read, core) {
		t.Errorf("the reader's types %v are not the core's %v", read, core)
	}
}

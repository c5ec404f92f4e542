package chain

import (
	"strings"
	"testing"
)

// TestPreToolsNeedAReader: a program that links no reader of pre_tools
// refuses a step's pre_tools at the key, naming what it lacks, and reads
// the rest of the file.
func TestPreToolsNeedAReader(t *testing.T) {
	saved := preToolReader
	preToolReader = nil
	defer func() { preToolReader = saved }()
	src := "name: c\nsteps:\n  - id: a\n    type: noop\n    pre_tools: [{type: current_datetime, inject_as: now}]\n"
	_, err := Parse("c.yaml", []byte(src), Options{})
	if err == nil || !strings.Contains(err.Error(), "c.yaml:5:5") || !strings.Contains(err.Error(), "links no pre_tools reader") {
		t.Fatalf("err = %v", err)
	}
}

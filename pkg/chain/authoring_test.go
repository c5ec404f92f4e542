package chain

import (
	"testing"
)

// TestAuthoringKinds: dry_run and registry load with their defaults and
// with their own places; bad fields are named at their line.
func TestAuthoringKinds(t *testing.T) {
	// the file's gate, flowgate.authoring.write_enabled, is mcp-flowgate's
	// (format/flowgate's TestWriteEnabled); a registry step loads without
	// it
	cases := []struct{ name, top, executor, want string }{
		{"dry_run with defaults", "", "kind: dry_run\n", ""},
		{"dry_run with its places", "", "kind: dry_run\ndefinition: \"$.context.draft\"\ndefinitionId: \"$.context.name\"\n", ""},
		{"registry with a literal name and a dir", "", "kind: registry\ndefinitionId: published-one\ndir: published/flows\n", ""},
		{"registry without the gate loads", "", "kind: registry\n", ""},
		{"registry dir outside", "", "kind: registry\ndir: ../elsewhere\n", `c.yaml:12:15: transition "go" executor: dir "../elsewhere" must stay inside`},
		{"registry dir absolute", "", "kind: registry\ndir: /etc\n", `dir "/etc" must stay inside`},
		{"a name that is a path", "", "kind: dry_run\ndefinitionId: ../x\n", `definitionId "../x" is a $.-path or a name`},
		{"a bad path", "", "kind: dry_run\ndefinition: \"$.context[\"\n", `definition:`},
		{"a field of another kind", "", "kind: dry_run\ndir: x\n", `dir does not belong to a dry_run step`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { expectLoad(t, executorFile(tc.top, tc.executor), tc.want) })
	}
}

package wfpart

import "github.com/chainrun/chainrun/pkg/yamlpos"

// Fragment is a reusable block of guidance (mcp-flowgate's "skill"),
// declared once in a file's top-level skills: library and referenced by
// subject from workflows, states and transitions: its body is shown to
// whoever decides where it is in scope.
type Fragment struct {
	Subject   string `yaml:"-"`
	Verb      string `yaml:"verb" doc:"The fragment's cognitive posture: triage, diagnose, plan, implement, review, refactor, explain or compose."`
	Lifecycle string `yaml:"lifecycle" doc:"experimental, stable or deprecated."`
	Body      string `yaml:"body" doc:"The guidance text (static: never templated)."`
	Title     string `yaml:"title" doc:"A human-readable label."`
	Source    string `yaml:"source" doc:"Where the fragment came from."`
	// Hash, when written, must match the body's (sha256: of its
	// whitespace-normalised text); Digest is the computed one.
	Hash   string      `yaml:"hash" doc:"sha256:<hex> of the whitespace-normalised body; checked when written."`
	Digest string      `yaml:"-"`
	Pos    yamlpos.Pos `yaml:"-"`
}

// SkillRefs are the subjects of guidance fragments in scope at one
// place (a workflow, a state, a transition), as written.
type SkillRefs struct {
	Subjects []string
	Pos      yamlpos.Pos
}

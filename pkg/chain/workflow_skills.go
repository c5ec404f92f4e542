package chain

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

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
	Hash   string `yaml:"hash" doc:"sha256:<hex> of the whitespace-normalised body; checked when written."`
	Digest string `yaml:"-"`
	Pos    Pos    `yaml:"-"`
}

// subjectPattern is the shape of a fragment's subject: lowercase dotted
// words (kebab tokens of one character or more), at least two, after an
// optional namespace/ (mcp-flowgate's is_subject_pattern).
var subjectPattern = lazyRegexp(`^([a-z][a-z0-9-]*/)?[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$`)

// subjectRoots are mcp-flowgate's blessed first words of a fragment's
// subject (discovery.rs BLESSED_SUBJECT_ROOTS): five of a topic, then
// the fragment verbs.
var subjectRoots = append([]string{"authoring", "debug", "deploy", "import", "lifecycle"}, fragmentVerbs...)

// FragmentHash is a fragment body's content address: sha256 of the body
// with every run of whitespace made one space and the ends trimmed, so a
// reflowed paragraph keeps its hash and an edit changes it.
func FragmentHash(body string) string {
	norm := strings.Join(strings.Fields(body), " ")
	sum := sha256.Sum256([]byte(norm))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CheckFragment checks one fragment of the skills: library.
func CheckFragment(d *yamlpos.Diags, f *Fragment) {
	prefix := "skills: " + quote(f.Subject) + ": "
	if !subjectPattern().MatchString(f.Subject) {
		d.Errorf(f.Pos, "%sa subject is lowercase dotted words, at least two (review.style.house-voice)", prefix)
	} else if root, _, _ := strings.Cut(f.Subject[strings.Index(f.Subject, "/")+1:], "."); !slices.Contains(subjectRoots, root) {
		// mcp-flowgate refuses it unless the gateway relaxes its
		// strict_namespacing, which chainrun does not read: a warning
		d.Warnf(f.Pos, "%sits root %s is none of %s: mcp-flowgate refuses the file (INVALID_SUBJECT_ROOT) unless flowgate.strict_namespacing is false%s",
			prefix, root, strings.Join(subjectRoots, ", "), didYouMean(root, subjectRoots))
	}
	switch {
	case f.Verb == "":
		d.Errorf(f.Pos, "%sverb is required (one of %s)", prefix, strings.Join(fragmentVerbs, ", "))
	case !slices.Contains(fragmentVerbs, f.Verb):
		d.Errorf(f.Pos, "%sverb %q is not one of %s%s", prefix, f.Verb, strings.Join(fragmentVerbs, ", "), didYouMean(strings.ToLower(f.Verb), fragmentVerbs))
	}
	switch {
	case f.Lifecycle == "":
		d.Errorf(f.Pos, "%slifecycle is required (one of %s)", prefix, strings.Join(lifecycles, ", "))
	case !slices.Contains(lifecycles, f.Lifecycle):
		d.Errorf(f.Pos, "%slifecycle %q is not one of %s", prefix, f.Lifecycle, strings.Join(lifecycles, ", "))
	}
	if strings.TrimSpace(f.Body) == "" {
		d.Errorf(f.Pos, "%sbody is required", prefix)
	}
	f.Digest = FragmentHash(f.Body)
	if f.Hash != "" && f.Hash != f.Digest {
		d.Errorf(f.Pos, "%shash %s does not match the body's, %s", prefix, f.Hash, f.Digest)
	}
}

// SkillRefs are the subjects of guidance fragments in scope at one
// place (a workflow, a state, a transition), as written.
type SkillRefs struct {
	Subjects []string
	Pos      Pos
}

// Fragments returns the fragments of the library the subjects name, in
// order and once each; subjects the library lacks are left out (load
// warned of them).
func (w *Workflow) Fragments(subjects ...[]string) []*Fragment {
	var out []*Fragment
	seen := map[string]bool{}
	for _, list := range subjects {
		for _, s := range list {
			if f := w.Library[s]; f != nil && !seen[s] {
				seen[s] = true
				out = append(out, f)
			}
		}
	}
	return out
}

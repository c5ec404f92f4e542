package wfyaml

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/wfpart"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// The libraries a workflows: file declares for all its workflows: its
// guidance fragments (skills:) and its scripts (scripts:).

// subjectPattern is the shape of a fragment's subject: lowercase dotted
// words (kebab tokens of one character or more), at least two, after an
// optional namespace/ (mcp-flowgate's is_subject_pattern).
var subjectPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-z][a-z0-9-]*/)?[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$`)
})

// subjectRoots are mcp-flowgate's blessed first words of a fragment's
// subject (discovery.rs BLESSED_SUBJECT_ROOTS): five of a topic, then
// the fragment verbs.
var subjectRoots = append([]string{"authoring", "debug", "deploy", "import", "lifecycle"}, wfpart.FragmentVerbs()...)

// fragmentHash is a fragment body's content address: sha256 of the body
// with every run of whitespace made one space and the ends trimmed, so a
// reflowed paragraph keeps its hash and an edit changes it.
func fragmentHash(body string) string {
	norm := strings.Join(strings.Fields(body), " ")
	sum := sha256.Sum256([]byte(norm))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// checkFragment checks one fragment of the skills: library.
func checkFragment(d *yamlpos.Diags, f *chain.Fragment) {
	prefix := "skills: " + chain.Quote(f.Subject) + ": "
	if !subjectPattern().MatchString(f.Subject) {
		d.Errorf(f.Pos, "%sa subject is lowercase dotted words, at least two (review.style.house-voice)", prefix)
	} else if root, _, _ := strings.Cut(f.Subject[strings.Index(f.Subject, "/")+1:], "."); !slices.Contains(subjectRoots, root) {
		// mcp-flowgate refuses it unless the gateway relaxes its
		// strict_namespacing, which chainrun does not read: a warning
		d.Warnf(f.Pos, "%sits root %s is none of %s: mcp-flowgate refuses the file (INVALID_SUBJECT_ROOT) unless flowgate.strict_namespacing is false%s",
			prefix, root, strings.Join(subjectRoots, ", "), chain.DidYouMean(root, subjectRoots))
	}
	switch {
	case f.Verb == "":
		d.Errorf(f.Pos, "%sverb is required (one of %s)", prefix, strings.Join(wfpart.FragmentVerbs(), ", "))
	case !slices.Contains(wfpart.FragmentVerbs(), f.Verb):
		d.Errorf(f.Pos, "%sverb %q is not one of %s%s", prefix, f.Verb, strings.Join(wfpart.FragmentVerbs(), ", "), chain.DidYouMean(strings.ToLower(f.Verb), wfpart.FragmentVerbs()))
	}
	switch {
	case f.Lifecycle == "":
		d.Errorf(f.Pos, "%slifecycle is required (one of %s)", prefix, strings.Join(wfpart.Lifecycles(), ", "))
	case !slices.Contains(wfpart.Lifecycles(), f.Lifecycle):
		d.Errorf(f.Pos, "%slifecycle %q is not one of %s", prefix, f.Lifecycle, strings.Join(wfpart.Lifecycles(), ", "))
	}
	if strings.TrimSpace(f.Body) == "" {
		d.Errorf(f.Pos, "%sbody is required", prefix)
	}
	f.Digest = fragmentHash(f.Body)
	if f.Hash != "" && f.Hash != f.Digest {
		d.Errorf(f.Pos, "%shash %s does not match the body's, %s", prefix, f.Hash, f.Digest)
	}
}

// decodeScripts reads a workflow file's scripts: library.
func decodeScripts(d *yamlpos.Diags, v *yaml.Node) map[string]*chain.Script {
	out := map[string]*chain.Script{}
	EachEntry(d, v, "script", "its body (and verb, lifecycle)", func(key *yaml.Node, n *yaml.Node, prefix string) {
		var k wfpart.ScriptKeys
		pos := map[string]chain.Pos{}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, prefix), &k, pos, yamlpos.WalkOpts{Prefix: prefix}, nil)
		sc := &chain.Script{Subject: key.Value, Verb: k.Verb, Body: k.Body, Pos: yamlpos.Of(key)}
		switch {
		case k.URI != "":
			d.Errorf(pos["uri"], "%suri %q: a script's body is read from the file only; write it inline as body:", prefix, k.URI)
			return
		case strings.TrimSpace(k.Body) == "":
			d.Errorf(sc.Pos, "%sbody is required (the script to run)", prefix)
			return
		}
		sc.Hash = scriptHash(k.Body)
		if k.Hash != "" && k.Hash != sc.Hash {
			d.Errorf(pos["hash"], "%shash %s does not match the body, whose hash is %s", prefix, k.Hash, sc.Hash)
		}
		out[sc.Subject] = sc
	})
	return out
}

// LoadScripts reads the scripts: library of a file (one of scripts:
// alone, or a workflow file's), for script steps of other files.
func LoadScripts(path string) (map[string]*chain.Script, error) {
	data, err := chain.ReadFile(path)
	if err != nil {
		return nil, &chain.ValidationError{Diagnostics: []chain.Diagnostic{{File: path, Message: "cannot read scripts: " + err.Error()}}}
	}
	d := &yamlpos.Diags{File: path, Src: data}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		d.SyntaxError(err)
		return nil, &chain.ValidationError{Diagnostics: d.Errs()}
	}
	var lib map[string]*chain.Script
	if root := yamlpos.Deref(&doc); root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		if v := yamlpos.ValueOf(yamlpos.Deref(root.Content[0]), "scripts"); v != nil {
			lib = decodeScripts(d, yamlpos.Deref(v))
		}
	}
	if errs := d.Errs(); len(errs) > 0 {
		return nil, &chain.ValidationError{Diagnostics: errs}
	}
	return lib, nil
}

// scriptHash is mcp-flowgate's script hash: sha256 of the body with its
// whitespace kept and its trailing newlines made exactly one.
func scriptHash(body string) string {
	sum := sha256.Sum256([]byte(strings.TrimRight(body, "\n") + "\n"))
	return "sha256:" + hex.EncodeToString(sum[:])
}

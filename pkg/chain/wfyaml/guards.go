package wfyaml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	yaml "go.yaml.in/yaml/v4"
)

// guardFields are the keys each guard kind needs besides kind.
var guardFields = map[string]string{
	chain.GuardExpr:        "expr",
	chain.GuardPermission:  "permission",
	chain.GuardRole:        "role",
	chain.GuardEvidence:    "requires",
	chain.GuardAllOf:       "guards",
	chain.GuardAnyOf:       "guards",
	chain.GuardNot:         "guard",
	chain.GuardGuidanceAck: "subject",
	chain.GuardScriptAck:   "subject",
}

// guardAliases are other spellings of guard kinds: camelCase, and
// mcp-flowgate's former name of expr.
var guardAliases = map[string]string{"allOf": chain.GuardAllOf, "anyOf": chain.GuardAnyOf, "jsonpath": chain.GuardExpr}

// guardExamples show each field written out, for messages.
var guardExamples = map[string]string{
	"expr":       `expr: "$.context.approved == true"`,
	"permission": "permission: deploy.approve",
	"role":       "role: release_manager",
	"requires":   "requires: [{kind: tests_passed, count: 1}]",
	"guards":     "guards: [{kind: expr, expr: ...}, ...]",
	"guard":      "guard: {kind: role, role: intern}",
	"subject":    "subject: deploy.production.rollout",
}

// decodeGuards reads a transition's guards: a list of guards.
func decodeGuards(d *yamlpos.Diags, v *yaml.Node, prefix string) []*chain.Guard {
	if v.Kind != yaml.SequenceNode {
		d.LooseErrorf(yamlpos.Of(v), "%sguards is a list of guards, as in [{kind: expr, %s}]", prefix, guardExamples["expr"])
		return nil
	}
	return decodeGuardList(d, v, prefix+"guards")
}

// decodeGuardList reads the guards of a list; path names the list in
// messages (guards, guards[2].guards).
func decodeGuardList(d *yamlpos.Diags, v *yaml.Node, path string) []*chain.Guard {
	var out []*chain.Guard
	for i, n := range v.Content {
		if g := decodeGuard(d, yamlpos.Deref(n), fmt.Sprintf("%s[%d]", path, i+1)); g != nil {
			out = append(out, g)
		}
	}
	return out
}

// decodeGuard reads one guard: its kind, then the one field that kind
// needs, refusing fields of other kinds. A guard with an error is left
// out (reported, it stops no other check of the file).
func decodeGuard(d *yamlpos.Diags, n *yaml.Node, path string) *chain.Guard {
	before := len(d.Errs())
	g := readGuard(d, n, path)
	if len(d.Errs()) != before {
		return nil
	}
	return g
}

func readGuard(d *yamlpos.Diags, n *yaml.Node, path string) *chain.Guard {
	prefix := path + ": "
	kinds := strings.Join(chain.GuardKinds(), ", ")
	if n.Kind != yaml.MappingNode {
		d.LooseErrorf(yamlpos.Of(n), "%sa guard is a mapping with kind (%s) and its field", prefix, kinds)
		return nil
	}
	g := &chain.Guard{Pos: yamlpos.Of(n), FieldPos: map[string]chain.Pos{}}
	pairs := yamlpos.MappingPairs(d, n, prefix)
	kn := yamlpos.ValueOf(n, "kind")
	if kn == nil {
		d.LooseErrorf(yamlpos.Of(n), "%skind is required: %s", prefix, kinds)
		return nil
	}
	kn = yamlpos.Deref(kn)
	kind := kn.Value
	if k, ok := guardAliases[kind]; ok {
		if kind == "jsonpath" {
			d.Warnf(yamlpos.Of(kn), "%skind jsonpath is mcp-flowgate's former name of expr; write expr", prefix)
		}
		kind = k
	}
	if guardFields[kind] == "" || kn.Kind != yaml.ScalarNode {
		d.LooseErrorf(yamlpos.Of(kn), "%sunknown guard kind %q%s: use %s", prefix, kind, chain.DidYouMean(kind, chain.GuardKinds()), kinds)
		return nil
	}
	g.Kind = kind
	need := guardFields[kind]
	for _, p := range pairs {
		key, v := p.Key.Value, yamlpos.Deref(p.Value)
		g.FieldPos[key] = yamlpos.Of(p.Key)
		switch {
		case key == "kind":
		case key != need:
			why := chain.DidYouMean(key, []string{need})
			if slices.Contains(yamlpos.KeysOf[chain.Guard](), key) {
				why = ""
			}
			d.LooseErrorf(yamlpos.Of(p.Key), "%sunknown field %q%s: %s holds kind and %s", prefix, key, why, guardNoun(kind), need)
		default:
			decodeGuardField(d, g, v, path, prefix)
		}
	}
	if _, ok := g.FieldPos[need]; !ok {
		d.LooseErrorf(yamlpos.Of(n), "%s%s needs %s (%s)", prefix, guardNoun(kind), need, guardExamples[need])
	}
	return g
}

// decodeGuardField reads the field the guard's kind needs.
func decodeGuardField(d *yamlpos.Diags, g *chain.Guard, v *yaml.Node, path, prefix string) {
	switch g.Kind {
	case chain.GuardExpr, chain.GuardPermission, chain.GuardRole, chain.GuardGuidanceAck, chain.GuardScriptAck:
		field := guardFields[g.Kind]
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
			d.LooseErrorf(yamlpos.Of(v), "%s%s is a text (%s)", prefix, field, guardExamples[field])
			return
		}
		switch g.Kind {
		case chain.GuardPermission:
			g.Permission = v.Value
		case chain.GuardRole:
			g.Role = v.Value
		case chain.GuardGuidanceAck, chain.GuardScriptAck:
			g.Subject = v.Value
		default:
			if err := g.SetExpr(v.Value); err != nil {
				g.Expr = v.Value
				d.LooseErrorf(yamlpos.Of(v), "%sexpr %q %v", prefix, v.Value, err)
				return
			}
		}
	case chain.GuardAllOf, chain.GuardAnyOf:
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			d.LooseErrorf(yamlpos.Of(v), "%sguards is a list of one guard or more (%s)", prefix, guardExamples["guards"])
			return
		}
		g.Guards = decodeGuardList(d, v, path+".guards")
	case chain.GuardNot:
		g.Inner = decodeGuard(d, v, path+".guard")
	case chain.GuardEvidence:
		g.Requires = decodeRequires(d, v, prefix+"requires: ")
	}
}

// decodeRequires reads an evidence guard's requires: each entry a kind,
// or {kind, count, require_digest, distinct_principals, min_confidence}.
func decodeRequires(d *yamlpos.Diags, v *yaml.Node, prefix string) []*chain.EvidenceRequirement {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.LooseErrorf(yamlpos.Of(v), "%sa list of the evidence needed, as in [tests_passed] or [{kind: approval, count: 2}]", prefix)
		return nil
	}
	var out []*chain.EvidenceRequirement
	for _, n := range v.Content {
		n = yamlpos.Deref(n)
		r := &chain.EvidenceRequirement{Count: 1}
		switch n.Kind {
		case yaml.ScalarNode:
			r.Kind = n.Value
		case yaml.MappingNode:
			if !yamlpos.DecodeChecked(d, n, prefix, yamlpos.KeysOf[chain.EvidenceRequirement](), r) {
				continue
			}
			if c := yamlpos.ValueOf(n, "count"); c != nil && r.Count < 1 {
				d.LooseErrorf(yamlpos.Of(c), "%scount %d: at least 1 record is needed", prefix, r.Count)
			}
			if c := yamlpos.ValueOf(n, "min_confidence"); c != nil && r.MinConfidence != nil {
				if *r.MinConfidence < 0 || *r.MinConfidence > 1 {
					d.LooseErrorf(yamlpos.Of(c), "%smin_confidence %g: a confidence is between 0 and 1", prefix, *r.MinConfidence)
				} else {
					d.Warnf(yamlpos.Of(c), "%smin_confidence: the evidence chainrun records states no confidence, so this requirement is never met", prefix)
				}
			}
		default:
			d.LooseErrorf(yamlpos.Of(n), "%san entry is a kind of evidence, or {kind, count}", prefix)
			continue
		}
		if strings.TrimSpace(r.Kind) == "" {
			d.LooseErrorf(yamlpos.Of(n), "%san entry needs the kind of evidence it counts", prefix)
			continue
		}
		out = append(out, r)
	}
	return out
}

// guardNoun is "an expr guard", "a role guard".
func guardNoun(kind string) string {
	if strings.ContainsRune("aeio", rune(kind[0])) {
		return "an " + kind + " guard"
	}
	return "a " + kind + " guard"
}

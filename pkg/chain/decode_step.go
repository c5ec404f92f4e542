package chain

import (
	"sync"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// stepAliases: reference 000 writes an executor's type as kind; every
// kind's KeyAliases (OCC's debate_agents, webhook_url: its engine's
// spellings of a debate's and a webhook's fields), each read with its
// note; and what a front-end adds for its peer (RegisterStepAlias:
// mcp-flowgate's timeoutMs).
var stepAliases = sync.OnceValue(func() map[string]string {
	out := map[string]string{"kind": "type"}
	for _, u := range units() {
		for from, a := range u.KeyAliases {
			out[from] = a.To
		}
	}
	for from, to := range registeredAliases {
		out[from] = to
	}
	return out
})

// keyAliasNote is the note of a kind's other spelling of a key, "" for
// a key that is none.
func keyAliasNote(key string) string {
	for _, u := range units() {
		if a, ok := u.KeyAliases[key]; ok {
			return a.Note
		}
	}
	return ""
}

// DecodeStep reads one step's mapping n, of any kind, into a Step: the
// reader of a DAG chain's steps, shared with the workflow reader's
// executors and tasks; false when n cannot be a step.
func DecodeStep(d *yamlpos.Diags, n *yaml.Node, prefix string) (*Step, bool) {
	s := &Step{Pos: yamlpos.Of(n), FieldPos: make(map[string]Pos, len(n.Content)/2)}
	before := d.Blocking()
	pairs := yamlpos.MappingPairs(d, n, prefix)
	if kindNode, at := kindOfPairs(pairs); kindNode != nil {
		if _, known := kindOf(kindNode.Value); !known {
			s.Type, s.FieldPos["type"] = kindNode.Value, at
			if id := idOfPairs(pairs); id != nil {
				s.ID, s.FieldPos["id"] = id.Value.Value, yamlpos.Of(id.Key)
			}
			return s, d.Blocking() == before
		}
	}
	aliases := stepAliases()
	for _, p := range pairs {
		if _, alias := aliases[p.Key.Value]; alias {
			if note := keyAliasNote(p.Key.Value); note != "" {
				d.Warnf(yamlpos.Of(p.Key), "%s%s %s", prefix, p.Key.Value, note)
			}
		}
	}
	ok := yamlpos.Walk(d, pairs, s, s.FieldPos, yamlpos.WalkOpts{Prefix: prefix, Aliases: aliases, Sorted: true, Meant: &s.meant, Peer: true,
		Keys: stepKeySet(), Into: s.fieldOf}, func(k, v *yaml.Node) bool {
		if note, registered := aliasNotes[k.Value]; registered {
			d.Warnf(yamlpos.Of(k), "%s%s: %s", prefix, k.Value, note)
		}
		return decodeStepSpecial(d, s, k, v, prefix)
	})
	// a value of the wrong type keeps the step: its other fields are
	// checked in the same pass
	return s, ok && d.Blocking() == before
}

// decodeStepSpecial reads the step keys whose value is more than a plain
// decode: a parallel step's branches and a pipeline's steps (steps
// themselves), and a body written as a mapping or list (JSON,
// mcp-flowgate's rest body).
func decodeStepSpecial(d *yamlpos.Diags, s *Step, k, v *yaml.Node, prefix string) bool {
	if dec := keyDecoders()[k.Value]; dec != nil && dec(d, s, v, prefix) {
		return true
	}
	switch {
	case k.Value == "pre_tools":
		decodePreTools(d, s, k, v, prefix)
		return true
	case k.Value == "body" && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode):
		var body any
		if yamlpos.DecodeInto(d, v, &body) {
			Own[HTTPFields](s).BodyData = NormalizeYAML(body)
		}
		return true
	}
	return false
}

// kindOfPairs finds the text of a step's type (or kind) and where it was
// written; nil when it is absent or not text.
func kindOfPairs(pairs []yamlpos.Pair) (*yaml.Node, Pos) {
	for _, p := range pairs {
		if p.Key.Value != "type" && p.Key.Value != "kind" {
			continue
		}
		if v := yamlpos.Deref(p.Value); v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
			return v, yamlpos.Of(p.Key)
		}
		return nil, Pos{}
	}
	return nil, Pos{}
}

// idOfPairs is a step's id pair, when it is text.
func idOfPairs(pairs []yamlpos.Pair) *yamlpos.Pair {
	for _, p := range pairs {
		if p.Key.Value == "id" {
			if v := yamlpos.Deref(p.Value); v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
				return &yamlpos.Pair{Key: p.Key, Value: v}
			}
		}
	}
	return nil
}

package chain

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// kindUnit is what the chain format knows of one step kind: the body of
// fields it adds to CommonFields, the keys of other kinds' bodies it
// accepts too, what it requires and what it compiles. Everything else
// about kinds (the keys a step may hold, the owners a misplaced field is
// sent to, the model-only fields, the schema's enum) is derived from the
// units, so adding a kind is adding its file and one line to kindUnits.
type kindUnit struct {
	kind    Kind
	aliases []Kind // other names users write for it (shell for cli)
	// body is the struct of the kind's own fields, embedded in Step; nil
	// when the kind has none.
	body reflect.Type
	// also are keys of other kinds' bodies this kind accepts.
	also []string
	// check reports what the kind requires or forbids of its fields.
	check func(v *validator, s *Step)
	// compile parses the kind's templates and expressions.
	compile func(v *validator, s *Step, c *Compiled)
	// model marks a kind whose steps ask a model: it accepts every field
	// of an agent step too (without being named their owner), and is not
	// Deterministic.
	model bool
	// models is set on a kind that calls models, itself or through the
	// steps it holds: the fields that configure a model call are its too.
	models bool
	// ignored are fields of other kinds that OCC's files write on steps
	// of this kind, where they do nothing: accepted with a warning.
	ignored []string
}

// kindUnits are the step kinds, in the order messages and the schema name
// them.
var kindUnits = []*kindUnit{&agentKind, &cliKind, &httpKind, &transformKind, &fileKind, &humanKind, &callKind, &noopKind, &scriptKind, &parallelKind, &pipelineKind, &workflowKind, &routerKind, &evaluatorKind, &gateKind, &loopKind, &mergeKind, &subchainKind, &debateKind, &webhookKind, &browserKind, &mcpKind, &structuralKind, &dryRunKind, &registryKind}

// kindIndex is what the units say, worked out once: the unit of every
// name and the names in unit order. The keys a kind accepts are worked
// out the first time a step of that kind is checked, so loading a chain
// reflects on the bodies of the kinds it uses, not of every kind.
type kindIndex struct {
	byName map[Kind]*kindUnit
	names  []string // kinds and their aliases, in unit order
	// accepts are the keys of each kind besides the common ones.
	accepts map[Kind]func() map[string]bool
}

var kindsIndex = sync.OnceValue(func() *kindIndex {
	ix := &kindIndex{byName: map[Kind]*kindUnit{}, accepts: map[Kind]func() map[string]bool{}}
	for _, u := range kindUnits {
		ix.names = append(ix.names, string(u.kind))
		ix.byName[u.kind] = u
		for _, a := range u.aliases {
			ix.names = append(ix.names, string(a))
			ix.byName[a] = u
		}
		ix.accepts[u.kind] = sync.OnceValue(func() map[string]bool {
			set := map[string]bool{}
			for _, k := range ownKeys(u) {
				set[k] = true
			}
			if u.model {
				for _, k := range ownKeys(&agentKind) {
					set[k] = true
				}
			}
			return set
		})
	}
	return ix
})

// commonKeys are the keys every kind accepts.
var commonKeys = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, k := range fieldsOf(reflect.TypeFor[CommonFields]()).keys {
		set[k] = true
	}
	return set
})

// ownKeys are the keys a unit adds to the common ones: its body's and
// the other kinds' it accepts too.
func ownKeys(u *kindUnit) []string {
	own := slices.Clone(u.also)
	if u.body != nil {
		own = append(own, fieldsOf(u.body).keys...)
	}
	return own
}

// keyOwners are the kinds owning each key, for messages about a key on
// the wrong kind.
var keyOwners = sync.OnceValue(func() map[string][]string {
	owners := map[string][]string{}
	for _, u := range kindUnits {
		for _, k := range ownKeys(u) {
			owners[k] = append(owners[k], string(u.kind))
		}
	}
	return owners
})

// kindOf normalises a step's type.
func kindOf(t string) (Kind, bool) {
	if t == "" {
		return KindAgent, true
	}
	if u := kindsIndex().byName[Kind(t)]; u != nil {
		return u.kind, true
	}
	return "", false
}

// unitOf is the unit of a normalised kind, or nil.
func unitOf(k Kind) *kindUnit { return kindsIndex().byName[k] }

// Kinds lists the valid step types, for messages and the schema.
func Kinds() []string { return slices.Clone(kindsIndex().names) }

// fieldAllowed reports whether a step of kind k may set field f.
func fieldAllowed(k Kind, f string) bool {
	if commonKeys()[f] {
		return true
	}
	own := kindsIndex().accepts[k]
	return own != nil && own()[f]
}

// fieldOwners are the kinds whose steps may set field f (not counting
// the fields every kind shares).
func fieldOwners(f string) []string { return keyOwners()[f] }

// modelOnly reports whether field f configures a model call: only kinds
// that call models accept it.
func modelOnly(f string) bool {
	owners := fieldOwners(f)
	for _, o := range owners {
		if !unitOf(Kind(o)).models {
			return false
		}
	}
	return len(owners) > 0
}

// Conversational reports whether a step of kind k is one model
// conversation, as an agent step is (agent, router, evaluator): its
// attempts share one allowance with its model requests. Kinds that ask
// models through steps of their own (merge, debate, loop) keep theirs.
func (k Kind) Conversational() bool {
	u := unitOf(k)
	return u != nil && u.model
}

// runsModel reports whether steps of kind k call models.
func runsModel(k Kind) bool {
	u := unitOf(k)
	return u != nil && (u.models || u.model)
}

// reportUnknownKind names a step kind that does not exist, with the
// closest one. It is reported before any field of the step, whose fields
// cannot be judged without their kind, and does not keep the rest of the
// file from being validated. who names the step, word is how the file
// calls its kind (type or kind).
func (d *diags) reportUnknownKind(at Pos, who, word, kind string, kinds []string) {
	d.softErrorf(at, "%s", unknownKind(who, word, kind, kinds))
}

func unknownKind(who, word, kind string, kinds []string) string {
	return fmt.Sprintf("%s: unknown %s %q%s; %ss are %s", who, word, kind, didYouMean(kind, kinds), word, strings.Join(kinds, ", "))
}

// stepName is how messages name a DAG step: step "id", or step when it
// has none.
func stepName(s *Step) string {
	if s.ID == "" {
		return "step"
	}
	return fmt.Sprintf("step %q", s.ID)
}

package chain

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// Unit is what the chain format knows of one step kind: the body of
// fields it adds to CommonFields, the keys of other kinds' bodies it
// accepts too, what it requires and what it compiles. Everything else
// about kinds (the keys a step may hold, the owners a misplaced field is
// sent to, the model-only fields, the schema's enum) is derived from the
// units, so adding a kind is adding its file, whose init calls Register.
type Unit struct {
	Kind Kind
	// Order places the kind among the others: Kinds(), the schema's enum
	// and the owners a message names follow it. The built-in kinds are
	// numbered in tens.
	Order   int
	Aliases []Kind // other names users write for it (shell for cli)
	// Body is the struct of the kind's own fields, embedded in Step; nil
	// when the kind has none.
	Body reflect.Type
	// Also are keys of other kinds' bodies this kind accepts.
	Also []string
	// Borrows names a kind whose keys this kind's steps accept too,
	// without being named their owner (router and evaluator take every
	// key of an agent step).
	Borrows Kind
	// Conversational marks a kind whose steps are one model
	// conversation, as an agent step is: see Kind.Conversational.
	Conversational bool
	// Models is set on a kind that calls models, itself or through the
	// steps it holds: the fields that configure a model call are its too.
	Models bool
	// Ignored are fields of other kinds that OCC's files write on steps
	// of this kind, where they do nothing: accepted with a warning.
	Ignored []string
	// KeyAliases are other spellings of the kind's keys (OCC's engine
	// writes debate_agents for a debate's agents): each is read, on any
	// step, as the key it stands for, with a warning saying so.
	KeyAliases map[string]KeyAlias
	// Check reports what the kind requires or forbids of its fields.
	Check func(v Checker, s *Step)
	// Compile parses the kind's templates and expressions.
	Compile func(v Checker, s *Step, c *Compiled)
	// Decode reads the keys of the kind's body whose YAML is more than
	// its Go type (a command written as a list, a step inside a step):
	// each reader reports whether it took the value, else the key is
	// decoded by its tag.
	Decode map[string]KeyDecoder
	// Nested are the steps written inside a step of the kind, besides
	// a parallel's and a pipeline's (a loop's step_template).
	Nested func(s *Step) []*Step
	// Schema gives the JSON Schema of the kind's keys that their Go type
	// does not say (an enum, a value of several types).
	Schema map[string]any
	// Queue, on a kind that asks people, is the queue a step of it asks
	// (chainrun approvals --queue lists the runs waiting on it).
	Queue func(s *Step) string
	// Script, on a kind that runs a script of a scripts: library, is the
	// subject of the script a step of it runs.
	Script func(s *Step) string
}

// KeyDecoder reads one key of a step (k, its value v) into the step,
// reporting into d with prefix naming the step; false leaves the value
// to the key's tag.
type KeyDecoder func(d *yamlpos.Diags, s *Step, v *yaml.Node, prefix string) bool

// keyDecoders are the units' Decode readers by key.
var keyDecoders = sync.OnceValue(func() map[string]KeyDecoder {
	all := map[string]KeyDecoder{}
	for _, u := range units() {
		for k, dec := range u.Decode {
			if all[k] != nil {
				panic("chain: two kinds decode key " + k)
			}
			all[k] = dec
		}
	}
	return all
})

// KeyAlias is what another spelling of a kind's key stands for: To, the
// key, and Note, the rest of the warning that follows the spelling
// where it is written ("is OCC's own spelling of …").
type KeyAlias struct {
	To   string
	Note string
}

// unitSet holds registered units in Order. It is read once, the first
// time anything asks about kinds; a unit added after that would not be
// seen, so add refuses it.
type unitSet struct {
	sync.Mutex
	units  []*Unit
	sealed bool
}

// registry is the chain format's kinds.
var registry unitSet

// Register adds a step kind to the chain format. It is called from the
// init of the file that declares the kind. It panics on a kind or alias
// that is already registered, an Order already taken, or a call after the
// kinds were first read: each is a fault of the program, not of a file.
func Register(u Unit) {
	if err := registry.add(u); err != nil {
		panic(err)
	}
}

func (r *unitSet) add(u Unit) error {
	r.Lock()
	defer r.Unlock()
	if r.sealed {
		return fmt.Errorf("chain.Register(%q): the kinds were already read", u.Kind)
	}
	if u.Kind == "" {
		return fmt.Errorf("chain.Register: a unit needs a Kind")
	}
	for _, o := range r.units {
		for _, name := range append([]Kind{u.Kind}, u.Aliases...) {
			if name == o.Kind || slices.Contains(o.Aliases, name) {
				return fmt.Errorf("chain.Register(%q): %q is already a kind", u.Kind, name)
			}
		}
		if o.Order == u.Order {
			return fmt.Errorf("chain.Register(%q): order %d is %q's", u.Kind, u.Order, o.Kind)
		}
	}
	i, _ := slices.BinarySearchFunc(r.units, u.Order, func(o *Unit, n int) int { return cmp.Compare(o.Order, n) })
	r.units = slices.Insert(r.units, i, &u)
	return nil
}

// read returns the units in Order and seals the set.
func (r *unitSet) read() []*Unit {
	r.Lock()
	defer r.Unlock()
	r.sealed = true
	return r.units
}

// units are the registered step kinds, in Order; the first call seals the
// registry.
func units() []*Unit { return registry.read() }

// Units are the registered step kinds, in the order messages and the
// schema name them.
func Units() []Unit {
	var out []Unit
	for _, u := range units() {
		out = append(out, *u)
	}
	return out
}

// kindIndex is what the units say, worked out once: the unit of every
// name and the names in unit order. The keys a kind accepts are worked
// out the first time a step of that kind is checked, so loading a chain
// reflects on the bodies of the kinds it uses, not of every kind.
type kindIndex struct {
	byName map[Kind]*Unit
	names  []string // kinds and their aliases, in unit order
	// accepts are the keys of each kind besides the common ones.
	accepts map[Kind]func() map[string]bool
}

var kindsIndex = sync.OnceValue(func() *kindIndex {
	ix := &kindIndex{byName: map[Kind]*Unit{}, accepts: map[Kind]func() map[string]bool{}}
	for _, u := range units() {
		ix.names = append(ix.names, string(u.Kind))
		ix.byName[u.Kind] = u
		for _, a := range u.Aliases {
			ix.names = append(ix.names, string(a))
			ix.byName[a] = u
		}
		ix.accepts[u.Kind] = sync.OnceValue(func() map[string]bool {
			set := map[string]bool{}
			for _, k := range ownKeys(u) {
				set[k] = true
			}
			if b := ix.byName[u.Borrows]; b != nil {
				for _, k := range ownKeys(b) {
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
	for _, k := range yamlpos.FieldsOf(reflect.TypeFor[CommonFields]()).Keys {
		set[k] = true
	}
	return set
})

// ownKeys are the keys a unit adds to the common ones: its body's and
// the other kinds' it accepts too.
func ownKeys(u *Unit) []string {
	own := slices.Clone(u.Also)
	if u.Body != nil {
		own = append(own, yamlpos.FieldsOf(u.Body).Keys...)
	}
	return own
}

// keyOwners are the kinds owning each key, for messages about a key on
// the wrong kind.
var keyOwners = sync.OnceValue(func() map[string][]string {
	owners := map[string][]string{}
	for _, u := range units() {
		for _, k := range ownKeys(u) {
			owners[k] = append(owners[k], string(u.Kind))
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
		return u.Kind, true
	}
	return "", false
}

// unitOf is the unit of a normalised kind, or nil.
func unitOf(k Kind) *Unit { return kindsIndex().byName[k] }

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
		if !unitOf(Kind(o)).Models {
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
	return u != nil && u.Conversational
}

// runsModel reports whether steps of kind k call models.
func runsModel(k Kind) bool {
	u := unitOf(k)
	return u != nil && (u.Models || u.Conversational)
}

// reportUnknownKind names a step kind that does not exist, with the
// closest one. It is reported before any field of the step, whose fields
// cannot be judged without their kind, and does not keep the rest of the
// file from being validated. who names the step, word is how the file
// calls its kind (type or kind).
func reportUnknownKind(d *yamlpos.Diags, at Pos, who, word, kind string, kinds []string) {
	d.SoftErrorf(at, "%s", unknownKind(who, word, kind, kinds))
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

package chain

import "github.com/chainrun/chainrun/pkg/yamlpos"

// FireCap is the transition's max_fires_per_visit and whether it has
// one: a negative value is none, as mcp-flowgate reads it (not a whole
// number it can count to), which validation warns of.
func (t *Transition) FireCap() (int, bool) {
	_, written := t.FieldPos["max_fires_per_visit"]
	return t.MaxFiresPerVisit, written && t.MaxFiresPerVisit >= 0
}

// fireCapWarnings warns of a max_fires_per_visit that bounds nothing as
// written: a negative one is no cap, as mcp-flowgate reads it, and 0
// keeps the transition from ever firing.
func fireCapWarnings(d *yamlpos.Diags, t *Transition) {
	if _, written := t.FieldPos["max_fires_per_visit"]; !written {
		return
	}
	switch {
	case t.MaxFiresPerVisit < 0:
		d.Warnf(t.At("max_fires_per_visit"), "transition %q: max_fires_per_visit %d is no cap (mcp-flowgate counts to a whole number of 0 or more): the transition fires without bound", t.Name, t.MaxFiresPerVisit)
	case t.MaxFiresPerVisit == 0:
		d.Warnf(t.At("max_fires_per_visit"), "transition %q: max_fires_per_visit 0: the transition can never fire", t.Name)
	}
}

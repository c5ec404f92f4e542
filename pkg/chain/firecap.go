package chain

// FireCap is the transition's max_fires_per_visit and whether it has
// one: a negative value is none, as mcp-flowgate reads it (not a whole
// number it can count to), which validation warns of.
func (t *Transition) FireCap() (int, bool) {
	_, written := t.FieldPos["max_fires_per_visit"]
	return t.MaxFiresPerVisit, written && t.MaxFiresPerVisit >= 0
}

// Package spell finds what a mistyped name most likely meant: the
// "(did you mean X?)" of every message about a name a user typed (a
// chain's field, a config key, a flag, a JSONPath's root), so each gets
// the same help whichever package reports it.
//
// It is a leaf: chains' model (pkg/chain) and their templates and
// expressions (pkg/interp) both use it. It imports nothing of this module.
package spell

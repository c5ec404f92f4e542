// Package spell finds what a mistyped name most likely meant: the
// "(did you mean X?)" of every message about a name a user typed (a
// chain's field, a config key, a flag, a JSONPath's root), so each gets
// the same help whichever package reports it.
//
// It is a leaf, so that every package reporting a typed name can use it.
// It imports nothing of this module.
package spell

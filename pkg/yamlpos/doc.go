// Package yamlpos holds what every reader of a chain file shares about
// reading YAML by hand: a position (line and column) that messages point
// at, the diagnostics a file's readers collect (Diags), and Walk, the one
// reader of a mapping into a tagged struct with unknown keys, merge keys
// and keys given twice reported. chainrun's own format and each peer's
// front-end read their files with it, so every file's errors look alike
// and none of those readers imports another. It may import, of this
// module: spell.
package yamlpos

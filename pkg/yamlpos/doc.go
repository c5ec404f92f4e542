// Package yamlpos holds what every reader of a chain file shares about
// places in it: a position (line and column) that messages point at. It
// is a leaf, so the packages that model a file's parts (guards, the
// chain, the peers' front-ends) can all name the same position without
// importing one another. It imports nothing of this module.
package yamlpos

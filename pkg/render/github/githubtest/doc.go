// Package githubtest reads a job's log as the GitHub Actions runner does,
// for the tests of the GitHub view and of the CLI running in Actions: they
// check what the runner would obey, not the bytes written. Both command
// syntaxes are read: "::name props::data" at the start of a line once
// leading white space (every Unicode space, as .NET's TrimStart) is
// trimmed, and the older "##[name props]data" ANYWHERE in a line. Command
// names are matched without case. While ::stop-commands::TOKEN is in
// force only ::TOKEN:: (or ##[TOKEN]) is obeyed. The runner matches its
// prefixes with culture-aware comparisons, which skip zero-width and
// other ignorable characters: this reader skips them too.
//
// It imports nothing of this module.
package githubtest

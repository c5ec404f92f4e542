// Package tools holds the built-in tools an LLM agent step may call —
// Read, Write, Edit, Glob, Grep and Bash — named and shaped as coding
// agents already know them, so that a model needs no instructions to use
// them. Each call acts inside one working directory (Env.Dir): file tools
// refuse any path that leaves it, by ".." or through a symbolic link, and
// do every open, stat, write and walk through an os.Root opened there, so
// that a link changed between the check and the use leads nowhere; Bash
// runs there in a process group of its own (pkg/executor) that is
// killed on timeout or cancellation, and only when the Env's
// CommandPolicy, which reads the programs a command would start without
// running it, allows them.
//
// A failed call is an error whose message is written for the model, so
// that it can correct its call; nothing here panics on what a model sends.
// The package knows nothing of chains, steps or providers. It may import,
// of this module: executor, fsutil.
package tools

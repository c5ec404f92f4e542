package contenox

// shellOnlyArgs are local_shell's arguments that only the chain writes:
// an input's fields never add a fixed command's arguments or move it to
// another directory.
var shellOnlyArgs = map[string]bool{"args": true, "cwd": true, "timeout": true, "shell": true, "stdin": true}

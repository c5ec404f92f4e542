package chain

// shellScript compiles a run: script and refuses every reference that a
// program inside it would run as code (sh -c '…', eval, ssh host '…',
// awk '…', a pipe or heredoc into a shell): no quoting by the outer shell
// protects a value parsed a second time.
func (v *validator) shellScript(s *Step, field, text string) *Template {
	return v.checkShell(s, field, v.template(s, field, text))
}

// checkShell reports the references of a script that stand where a shell
// would run them as code.
func (v *validator) checkShell(s *Step, field string, t *Template) *Template {
	if t == nil {
		return nil
	}
	for _, p := range t.CheckShell() {
		v.d.Errorf(s.At(field), "%s: %s: %s (script line %d) is inside what %s runs as code, where a value would run too; pass it as data instead: an argument after the script (sh -c '… \"$1\" …' sh %s) or an environment variable (env: {NAME: \"%s\"}, then \"$NAME\")",
			s.Subject(), field, p.Ref, p.Line, p.Program, p.Ref, p.Ref)
	}
	return t
}

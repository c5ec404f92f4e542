package chain

// This file reads an input's value as the file's reading judges it
// (Reading.InputValue: OCC's executor, OCC 29f33c0 mcp-server/src/
// executor.ts, executeChain): such a file takes what its peer takes, kept
// as given, where chainrun's own format may refuse it.

// checkValue judges an input's value as the chain's file reads it.
func (c *Chain) checkValue(typ, text string) error {
	if judge := c.reads().InputValue; judge != nil {
		return judge(typ, text)
	}
	return CheckInputValue(typ, text)
}

// readingInputDefault warns of a default the file's reading takes
// (Reading.InputValue) where chainrun's own format would refuse it.
func (v *validator) readingInputDefault(in *Input) {
	if v.c.reads().InputValue == nil || in.Default == nil {
		return
	}
	if err := CheckInputValue(in.Type, *in.Default); err != nil {
		v.d.Warnf(in.Pos, "input %q: default %q is taken as %s takes a %s, kept as written (chainrun's own format refuses it: %v)", in.Name, *in.Default, v.c.reads().Source, in.Type, err)
	}
}

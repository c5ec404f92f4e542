package iostreams

// ColorEnabled decides whether output is painted, by the conventions
// other command-line tools share (no-color.org, bixense.com/clicolors,
// FORCE_COLOR): NO_COLOR, set and not empty, turns colour off whatever
// else says; CLICOLOR_FORCE (not "0") or FORCE_COLOR (not "0" or
// "false") turn it on even where the output is no terminal (a CI log that
// renders colour); CLICOLOR=0 turns it off on a terminal; else a terminal
// (tty) is painted and anything else is not. lookupEnv is os.LookupEnv.
func ColorEnabled(lookupEnv func(string) (string, bool), tty bool) bool {
	if v, ok := lookupEnv("NO_COLOR"); ok && v != "" {
		return false
	}
	if v, ok := lookupEnv("CLICOLOR_FORCE"); ok && v != "" && v != "0" {
		return true
	}
	if v, ok := lookupEnv("FORCE_COLOR"); ok && v != "0" && v != "false" {
		return true
	}
	if v, ok := lookupEnv("CLICOLOR"); ok && v == "0" {
		return false
	}
	return tty
}

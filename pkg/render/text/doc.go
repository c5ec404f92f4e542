// Package text writes the text views of runs and chains for stdout: a
// run's output, a paused workflow's choices, the failure message behind
// an exit code (with the command that resumes the run), a dry run's plan,
// the saved runs and one run's steps, what runs prune removed, the list
// of chains, the verdicts of validate, and the choices shell completion
// offers with their words.
//
// It owns their wording and layout, not the choice between text and
// JSON (commands choose) nor the exit codes. It must not import cobra,
// viper, or another view package (only pkg/render's shared pieces).
package text

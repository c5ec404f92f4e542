// Package github renders a run for a GitHub Actions log: each step's log
// in a collapsible group, failures as annotations on the chain file's
// line, a paused workflow as a notice with its resume commands, a
// Markdown report appended to $GITHUB_STEP_SUMMARY, and the run's step
// outputs (run_id, status, exit_code, output) appended to $GITHUB_OUTPUT,
// never a secret's value. It also escapes every
// workflow command it writes, registers secret inputs with ::add-mask::,
// and stops command processing around any other line that looks like a
// command (Guard wraps the process's stdout and stderr), so nothing a
// step prints is obeyed by the runner.
//
// It must not import cobra or viper, nor another view package but text
// (whose failure wording annotations repeat); commands build it with New
// and give it the run's events and result.
package github

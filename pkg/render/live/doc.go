// Package live draws a run on a terminal that can redraw: a spinner bar
// (built with mpb) for every running step, side by side, and plain lines
// above them for finished steps, transitions and tool calls, with the
// wording of pkg/render/progress. A board turns events into changes of
// the screen with no I/O; Display turns those into bars.
//
// It owns the terminal only while it draws: Hold lends it to a prompt.
// It must not import cobra or viper, nor another view package but
// progress; whether to draw live at all is the command's choice.
package live

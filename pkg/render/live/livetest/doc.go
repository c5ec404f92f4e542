// Package livetest replays what the live display wrote to a terminal,
// for the tests of the display and of the CLI on a pseudo-terminal: both
// check the screen a person would finally see, not the bytes.
//
// It imports nothing of this module.
package livetest

//go:build race

package chain

// raceEnabled slows time limits of tests: the race detector makes code
// several times slower.
const raceEnabled = true

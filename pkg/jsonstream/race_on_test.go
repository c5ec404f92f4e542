//go:build race

package jsonstream

// raceEnabled: the race detector makes sync.Pool drop what is put back
// at random, so counts of allocations do not hold under it.
const raceEnabled = true

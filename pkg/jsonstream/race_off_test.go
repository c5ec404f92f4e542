//go:build !race

package jsonstream

const raceEnabled = false

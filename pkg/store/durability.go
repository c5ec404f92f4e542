package store

import "fmt"

// Durability is how far a saved step is on disk when the engine goes on
// to the next one. SQLite's WAL modes make the same choice
// (synchronous=NORMAL against FULL).
type Durability int

const (
	// Survives a crash of chainrun (kill -9, a panic, an OOM kill): each
	// step's record is written to the journal (a write(2), so in the
	// kernel's page cache) before the next step starts, and files are
	// replaced by rename, so a killed run never loses a finished step.
	// A crash of the machine itself (a power cut, a kernel panic) may
	// lose the last steps' records, never corrupt the run: resume then
	// runs those steps again. The default: it costs no fsync.
	Normal Durability = iota
	// Strict also flushes every record to the disk (fsync, group
	// commit for steps finishing together) and every new file's
	// directory entry before going on: a finished step survives a power
	// cut. Choose it for steps that must never run twice, at the cost
	// of a disk flush per step.
	Strict
)

// ParseDurability reads a durability setting: "normal" (or empty) or
// "strict".
func ParseDurability(s string) (Durability, error) {
	switch s {
	case "", "normal":
		return Normal, nil
	case "strict":
		return Strict, nil
	}
	return Normal, fmt.Errorf("durability %q: want normal or strict", s)
}

// String is the setting's name.
func (d Durability) String() string {
	if d == Strict {
		return "strict"
	}
	return "normal"
}

// OpenDurable opens the store in dir with the durability a setting
// names ("normal", "strict" or empty), or says why the setting is wrong.
func OpenDurable(dir, durability string) (*Store, error) {
	d, err := ParseDurability(durability)
	if err != nil {
		return nil, err
	}
	s := Open(dir)
	s.SetDurability(d)
	return s, nil
}

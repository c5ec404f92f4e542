package cache

import "time"

// Advance moves a cache's clock forward, for the conformance suite.
func Advance(c Cache) func(time.Duration) {
	var now *func() time.Time
	switch c := c.(type) {
	case *Store:
		now = &c.now
	case *Mem:
		now = &c.now
	}
	var offset time.Duration
	base := (*now)
	*now = func() time.Time { return base().Add(offset) }
	return func(d time.Duration) { offset += d }
}

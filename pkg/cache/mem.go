package cache

import (
	"encoding/json"
	"sync"
	"time"
)

// Mem is a cache in memory: a run that must not touch the disk, and the
// fake beside Store in tests. Values are kept as JSON, as Store keeps
// them, so a value read back is a copy and types convert alike.
type Mem struct {
	mu      sync.Mutex
	entries map[string]memEntry
	now     func() time.Time
}

type memEntry struct {
	value   []byte
	expires time.Time
}

var _ Cache = (*Mem)(nil)

// NewMem returns an empty in-memory cache.
func NewMem() *Mem { return &Mem{entries: map[string]memEntry{}, now: time.Now} }

// Get reads the value stored under key into v.
func (m *Mem) Get(key string, v any) bool {
	m.mu.Lock()
	e, ok := m.entries[key]
	if ok && !e.expires.IsZero() && m.now().After(e.expires) {
		delete(m.entries, key)
		ok = false
	}
	m.mu.Unlock()
	return ok && json.Unmarshal(e.value, v) == nil
}

// Put stores v under key for ttl (0: no expiry).
func (m *Mem) Put(key string, v any, ttl time.Duration) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	e := memEntry{value: b}
	m.mu.Lock()
	defer m.mu.Unlock()
	if ttl > 0 {
		e.expires = m.now().Add(ttl)
	}
	m.entries[key] = e
	return nil
}

// Len is the number of entries, expired ones included.
func (m *Mem) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

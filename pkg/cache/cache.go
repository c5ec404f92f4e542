// Package cache keeps model answers on disk so that an identical request
// never pays for a second call. Entries are files named by the hash of
// everything that changes the answer, written to a temporary file and
// renamed into place, so concurrent runs sharing a directory never see a
// half-written entry and the last writer wins whole. Entries expire by
// their TTL.
//
// It knows nothing of chains or providers: callers give a key and bytes.
// It may import, of this module: fsutil.
package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// maxEntry bounds an entry as read back: far above any answer a model
// gives, it stops a device put in an entry's place from being read for
// good (a FIFO or a directory there is refused at once, and is a miss).
const maxEntry = 1 << 30

// Cache stores values by key for a time. Store (a directory) and Mem
// implement it, and both pass one conformance suite (cachetest), so the
// engine and tests can use either.
type Cache interface {
	// Get reads the value stored under key into v; false for a missing,
	// expired or unreadable entry.
	Get(key string, v any) bool
	// Put stores v under key for ttl (0: no expiry).
	Put(key string, v any, ttl time.Duration) error
}

var _ Cache = (*Store)(nil)

// Store is a cache directory.
type Store struct {
	dir string
	now func() time.Time
}

// Open returns the store in dir, creating it on first write.
func Open(dir string) *Store { return &Store{dir: dir, now: time.Now} }

// Dir is where the entries live.
func (s *Store) Dir() string { return s.dir }

// Key hashes the parts that change an answer into an entry name.
// Parts that JSON cannot carry are hashed as Go prints them, so two
// different requests never share a key by accident.
func Key(parts any) string {
	b, err := json.Marshal(parts)
	if err != nil {
		b = fmt.Appendf(nil, "%#v", parts)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// entry is one file.
type entry struct {
	Expires time.Time       `json:"expires"`
	Created time.Time       `json:"created"`
	Value   json.RawMessage `json:"value"`
}

func (s *Store) path(key string) string {
	return filepath.Join(s.dir, key[:2], key+".json")
}

// Get reads the value stored under key into v. It reports false for a
// missing, expired or unreadable entry (which it removes).
func (s *Store) Get(key string, v any) bool {
	p := s.path(key)
	data, err := fsutil.ReadRegular(p, maxEntry)
	if err != nil {
		return false
	}
	var e entry
	if json.Unmarshal(data, &e) != nil || json.Unmarshal(e.Value, v) != nil {
		_ = os.Remove(p)
		return false
	}
	if !e.Expires.IsZero() && s.now().After(e.Expires) {
		_ = os.Remove(p)
		return false
	}
	return true
}

// Put stores v under key for ttl (0: no expiry).
func (s *Store) Put(key string, v any, ttl time.Duration) error {
	value, err := json.Marshal(v)
	if err != nil {
		return err
	}
	e := entry{Created: s.now().UTC(), Value: value}
	if ttl > 0 {
		e.Expires = e.Created.Add(ttl)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	p := s.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return fsutil.WriteFile(p, data, false)
}

// Stats describes the store.
type Stats struct {
	Dir     string `json:"dir"`
	Entries int    `json:"entries"`
	Expired int    `json:"expired"`
	Bytes   int64  `json:"bytes"`
}

// Stats counts the entries.
func (s *Store) Stats() (Stats, error) {
	st := Stats{Dir: s.dir}
	err := s.walk(func(path string, info fs.FileInfo) {
		st.Entries++
		st.Bytes += info.Size()
		var e entry
		if data, err := fsutil.ReadRegular(path, maxEntry); err == nil && json.Unmarshal(data, &e) == nil {
			if !e.Expires.IsZero() && s.now().After(e.Expires) {
				st.Expired++
			}
		}
	})
	return st, err
}

// Clear removes every entry and reports how many there were.
func (s *Store) Clear() (int, error) {
	n := 0
	var firstErr error
	err := s.walk(func(path string, _ fs.FileInfo) {
		if err := os.Remove(path); err != nil && firstErr == nil {
			firstErr = err
			return
		}
		n++
	})
	if err != nil {
		return n, err
	}
	return n, firstErr
}

func (s *Store) walk(f func(string, fs.FileInfo)) error {
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isEntryName(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f(path, info)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// isEntryName recognises an entry file (64 hex digits + .json), so that
// stats and clear never touch other files in the directory.
func isEntryName(name string) bool {
	hexPart, ok := strings.CutSuffix(name, ".json")
	if !ok || len(hexPart) != 64 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil
}

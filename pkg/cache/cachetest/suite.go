// Package cachetest is the conformance suite every cache.Cache
// implementation passes: what the engine relies on, checked once for all.
// It may import, of this module: cache.
package cachetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
)

type answer struct {
	Text string
	N    int
}

// Run checks the cache that fresh makes (a new, empty one per call). clock
// moves that cache's time forward; it is used for expiry.
func Run(t *testing.T, fresh func(t *testing.T) (c cache.Cache, advance func(time.Duration))) {
	t.Run("miss, put, hit", func(t *testing.T) {
		c, _ := fresh(t)
		k := cache.Key([]string{"step", "prompt", "model"})
		var got answer
		if c.Get(k, &got) {
			t.Fatal("hit on an empty cache")
		}
		if err := c.Put(k, answer{"hi", 3}, time.Hour); err != nil {
			t.Fatal(err)
		}
		if !c.Get(k, &got) || got != (answer{"hi", 3}) {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("last write wins", func(t *testing.T) {
		c, _ := fresh(t)
		k := cache.Key("k")
		_ = c.Put(k, answer{"one", 1}, 0)
		_ = c.Put(k, answer{"two", 2}, 0)
		var got answer
		if !c.Get(k, &got) || got.Text != "two" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("expiry", func(t *testing.T) {
		c, advance := fresh(t)
		short, forever := cache.Key("short"), cache.Key("forever")
		_ = c.Put(short, answer{"old", 1}, time.Minute)
		_ = c.Put(forever, answer{"kept", 1}, 0)
		advance(2 * time.Minute)
		var got answer
		if c.Get(short, &got) {
			t.Error("an expired entry was served")
		}
		if !c.Get(forever, &got) {
			t.Error("an entry without ttl expired")
		}
	})
	t.Run("a value of another shape is a miss", func(t *testing.T) {
		c, _ := fresh(t)
		k := cache.Key("shape")
		_ = c.Put(k, "just text", 0)
		var got answer
		if c.Get(k, &got) {
			t.Errorf("a string read as a struct: %+v", got)
		}
	})
	t.Run("concurrent writers and readers", func(t *testing.T) {
		c, _ := fresh(t)
		k := cache.Key("shared")
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = c.Put(k, answer{fmt.Sprint("writer ", i), i}, time.Hour)
				var got answer
				if c.Get(k, &got) && got.Text != fmt.Sprint("writer ", got.N) {
					t.Errorf("a torn entry: %+v", got)
				}
			}()
		}
		wg.Wait()
	})
}

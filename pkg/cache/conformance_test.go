package cache_test

import (
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/cache/cachetest"
)

func TestStoreConformance(t *testing.T) {
	cachetest.Run(t, func(t *testing.T) (cache.Cache, func(time.Duration)) {
		s := cache.Open(t.TempDir())
		return s, cache.Advance(s)
	})
}

func TestMemConformance(t *testing.T) {
	cachetest.Run(t, func(t *testing.T) (cache.Cache, func(time.Duration)) {
		m := cache.NewMem()
		return m, cache.Advance(m)
	})
}

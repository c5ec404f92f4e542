package run

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

func llmChain(n int, deps bool, cached bool) string {
	var b strings.Builder
	b.WriteString("name: llm\nsteps:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {id: s%d, model: openai/m, prompt: 'question %d', output_var: v%d", i, i, i)
		if deps && i > 0 {
			fmt.Fprintf(&b, ", depends_on: [s%d]", i-1)
		}
		if cached {
			b.WriteString(", cache: true")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// BenchmarkParallelLLM16 runs 16 independent agent steps against a server
// that answers after 200 ms, with --max-parallel 16. No hidden
// serialisation means one run takes about 200 ms (target: under 300 ms).
func BenchmarkParallelLLM16(b *testing.B) {
	s := llmtest.New(llmtest.Reply{Text: "answer", Delay: 200 * time.Millisecond})
	defer s.Close()
	c := load(b, llmChain(16, false, false))
	e := New(WithParallel(16), WithModels(registryFor(s, nil)))
	for b.Loop() {
		res, err := e.Run(context.Background(), Request{Chain: c})
		if err != nil || res.Status != record.Succeeded {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkCachedRerun20 reruns a 20-step chain of agent steps whose
// answers are all cached (target: under 50 ms).
func BenchmarkCachedRerun20(b *testing.B) {
	s := llmtest.New(llmtest.Reply{Text: "answer"})
	defer s.Close()
	c := load(b, llmChain(20, true, true))
	e := New(WithModels(registryFor(s, nil)), WithCache(cache.Open(b.TempDir()), true))
	if res, _ := e.Run(context.Background(), Request{Chain: c}); res.Status != record.Succeeded {
		b.Fatal(res.Error)
	}
	before := s.Count()
	for b.Loop() {
		res, err := e.Run(context.Background(), Request{Chain: c})
		if err != nil || res.Status != record.Succeeded || res.Usage.Cached != 20 {
			b.Fatal(err, res.Error, res.Usage)
		}
	}
	if s.Count() != before {
		b.Fatal("a cached rerun sent requests")
	}
}

package llm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm"
)

// An Anthropic answer with no stop_reason (null, or none) did not finish:
// the Messages API always gives one on an answer it finished. It is not
// taken for stop, so it is never cached: the next call asks again.
func TestAnAnswerWithoutStopReasonIsNotCached(t *testing.T) {
	for _, reason := range []string{`null`, `""`} {
		var asked atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			asked.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"half an ans"}],"stop_reason":`+reason+`,"usage":{"input_tokens":5,"output_tokens":7}}`)
		}))
		p := llm.Cached(llm.NewAnthropic("anthropic", srv.URL, "k", srv.Client()), cache.NewMem(), llm.CacheOptions{Key: func(llm.Request) string { return "k" }, TTL: time.Hour, Read: true})
		for range 2 {
			resp, err := p.Complete(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "hi"}}, MaxTokens: 10})
			if err != nil || resp.FinishReason != llm.FinishUnknown {
				t.Fatalf("%s: %+v, %v", reason, resp, err)
			}
		}
		if asked.Load() != 2 {
			t.Errorf("%s: asked %d times, want 2 (never cached)", reason, asked.Load())
		}
		srv.Close()
	}
}

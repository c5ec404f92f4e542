package store

import (
	"strconv"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/jsonstream"
)

// appendEvent appends e to b as json.Marshal writes it, field by field
// without reflection: a step emits four or five events, and marshalling
// them was about a tenth of chainrun's own time per command step. It
// reports false for what it leaves to json.Marshal: a Record (which
// encoding/json compacts), a cost (a float, as encoding/json writes it) or
// a time json.Marshal refuses.
// TestEventLineIsJSONMarshal holds every field of event.Event to it.
func appendEvent(b []byte, e *event.Event) ([]byte, bool) {
	if len(e.Record) > 0 || e.CostUSD != nil || e.Unpriced != nil || e.Time.Year() < 0 || e.Time.Year() > 9999 {
		return b, false
	}
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(e.V), 10)
	b = append(b, `,"time":"`...)
	b = e.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","run_id":`...)
	b = jsonstream.AppendString(b, e.RunID)
	b = append(b, `,"type":`...)
	b = jsonstream.AppendString(b, string(e.Type))
	b = str(b, `,"chain":`, e.Chain)
	b = str(b, `,"step":`, e.Step)
	b = str(b, `,"kind":`, e.Kind)
	b = num(b, `,"attempt":`, int64(e.Attempt))
	b = str(b, `,"status":`, string(e.Status))
	b = num(b, `,"pid":`, int64(e.PID))
	b = str(b, `,"stream":`, e.Stream)
	b = str(b, `,"line":`, e.Line)
	b = str(b, `,"error":`, e.Error)
	b = num(b, `,"duration_ms":`, e.DurationMS)
	b = str(b, `,"detail":`, e.Detail)
	b = str(b, `,"model":`, e.Model)
	b = num(b, `,"input_tokens":`, int64(e.InputTokens))
	b = num(b, `,"output_tokens":`, int64(e.OutputTokens))
	b = str(b, `,"state":`, e.State)
	b = str(b, `,"target":`, e.Target)
	b = str(b, `,"actor":`, e.Actor)
	b = str(b, `,"decided_by":`, e.DecidedBy)
	b = str(b, `,"principal":`, e.Principal)
	b = str(b, `,"tool":`, e.Tool)
	b = str(b, `,"digest":`, e.Digest)
	b = str(b, `,"subject":`, e.Subject)
	b = num(b, `,"turn":`, int64(e.Turn))
	b = num(b, `,"candidate":`, int64(e.Candidate))
	b = str(b, `,"handler":`, e.Handler)
	b = str(b, `,"lines":`, e.Lines)
	b = num(b, `,"line_count":`, int64(e.LineCount))
	b = num(b, `,"bytes":`, e.Bytes)
	b = str(b, `,"response_model":`, e.ResponseModel)
	b = str(b, `,"finish_reason":`, e.FinishReason)
	b = num(b, `,"cache_read_tokens":`, int64(e.CacheReadTokens))
	b = num(b, `,"cache_write_tokens":`, int64(e.CacheWriteTokens))
	b = str(b, `,"prompt":`, e.Prompt)
	b = str(b, `,"answer":`, e.Answer)
	b = str(b, `,"trace":`, e.Trace)
	return append(b, '}'), true
}

// str appends an omitempty string member.
func str(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return jsonstream.AppendString(append(b, key...), v)
}

// num appends an omitempty number member.
func num(b []byte, key string, v int64) []byte {
	if v == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), v, 10)
}

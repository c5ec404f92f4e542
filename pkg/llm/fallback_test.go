package llm

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// scripted is a provider that answers with err, or with its name.
type scripted struct {
	name string
	err  error
}

func (s scripted) Name() string { return s.name }

func (s scripted) Complete(context.Context, Request) (*Response, error) {
	if s.err != nil {
		return nil, s.err
	}
	return &Response{Text: s.name}, nil
}

func TestFallbackNotifyTellsOfEachMove(t *testing.T) {
	busy := &Error{Provider: "a", Status: 503, Message: "busy", Transient: true}
	denied := &Error{Provider: "b", Status: 401, Message: "bad key"}
	tests := []struct {
		name      string
		providers []Provider
		want      []string
		answer    string
	}{
		{"the first answers", []Provider{scripted{name: "a"}, scripted{name: "b"}}, nil, "a"},
		{"a transient failure moves on", []Provider{scripted{"a", busy}, scripted{"b", busy}, scripted{name: "c"}},
			[]string{"to 1 after a: HTTP 503: busy", "to 2 after a: HTTP 503: busy"}, "c"},
		{"a permanent one does not", []Provider{scripted{"b", denied}, scripted{name: "c"}}, nil, ""},
	}
	for _, tt := range tests {
		var moves []string
		p := FallbackNotify(func(next int, cause error) { moves = append(moves, fmt.Sprintf("to %d after %v", next, cause)) }, tt.providers...)
		resp, err := p.Complete(context.Background(), Request{})
		answer := ""
		if err == nil {
			answer = resp.Text
		}
		if answer != tt.answer {
			t.Errorf("%s: answer %q (%v), want %q", tt.name, answer, err, tt.answer)
		}
		if !slices.Equal(moves, tt.want) {
			t.Errorf("%s: moves %q, want %q", tt.name, moves, tt.want)
		}
	}
}

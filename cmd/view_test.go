package cmd

import "testing"

func TestLiveWanted(t *testing.T) {
	tests := []struct {
		name string
		tty  bool
		term string
		o    engineOptions
		want bool
	}{
		{"a terminal", true, "xterm-256color", engineOptions{}, true},
		{"no TERM at all", true, "", engineOptions{}, true},
		{"a pipe or CI", false, "xterm", engineOptions{}, false},
		{"a dumb terminal", true, "dumb", engineOptions{}, false},
		{"--quiet", true, "xterm", engineOptions{quiet: true}, false},
		{"--verbose", true, "xterm", engineOptions{verbose: true}, false},
		{"--no-cache changes nothing", true, "xterm", engineOptions{noCache: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := liveWanted(tt.tty, tt.term, tt.o); got != tt.want {
				t.Errorf("liveWanted = %v, want %v", got, tt.want)
			}
		})
	}
}

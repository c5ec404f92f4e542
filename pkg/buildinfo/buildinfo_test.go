package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFill(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "0b06e2d5e1f4a7c9d3b2"}, {Key: "vcs.time", Value: "2026-11-24T02:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name     string
		given    Info
		main     string
		settings []debug.BuildSetting
		want     Info
	}{
		{"release flags win", Info{Version: "v1.2.0", Commit: "abc", Date: "d"}, "(devel)", vcs, Info{Version: "v1.2.0", Commit: "abc", Date: "d", Modified: true}},
		{"go install module@version", Info{Version: "dev"}, "v0.4.1", nil, Info{Version: "v0.4.1"}},
		{"go build in a clone", Info{Version: "dev"}, "(devel)", vcs, Info{Version: "dev", Commit: "0b06e2d5e1f4", Date: "2026-11-24T02:00:00Z", Modified: true}},
		{"nothing known", Info{Version: "dev"}, "", nil, Info{Version: "dev"}},
	}
	for _, tt := range tests {
		got := fill(tt.given, &debug.BuildInfo{Main: debug.Module{Version: tt.main}, Settings: tt.settings})
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

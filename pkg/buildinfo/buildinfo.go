// Package buildinfo says which chainrun this is. A release sets the
// version, commit and date with -ldflags; a binary built by `go install
// module@version` or `go build` in a clone carries the same facts in its
// build information, which is read when the flags set none, so that every
// binary can say what it is.
//
// It imports nothing of this module.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Info is what a binary knows of its own build.
type Info struct {
	Version string
	Commit  string
	Date    string
	// Modified is a build from a work tree with changes not committed.
	Modified bool
}

// devel is the version a build without a module version reports.
const devel = "dev"

// Read returns the version the release set (version, commit, date from
// -ldflags; version "dev" when none was set), filled in from the
// binary's build information: the module version of `go install
// ...@vX.Y.Z`, the VCS revision and time of a build in a clone.
func Read(version, commit, date string) Info {
	info := Info{Version: version, Commit: commit, Date: date}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	return fill(info, bi)
}

func fill(info Info, bi *debug.BuildInfo) Info {
	if info.Version == "" || info.Version == devel {
		info.Version = devel
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			info.Version = v
		}
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if info.Commit == "" {
				info.Commit = short(s.Value)
			}
		case "vcs.time":
			if info.Date == "" {
				info.Date = s.Value
			}
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// short is a commit hash as releases print it: 12 characters.
func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return strings.TrimSpace(rev)
}

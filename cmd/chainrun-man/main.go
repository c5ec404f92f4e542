// Command chainrun-man writes chainrun's man pages, one per command
// (section 1), into a directory, for the release's archives and
// packages (.ci/release/assets.sh):
//
//	go run -ldflags "-X github.com/chainrun/chainrun/cmd.version=V" ./cmd/chainrun-man DIR
//
// It is a program of its own so that chainrun does not link the man-page
// writer (cobra/doc, go-md2man, blackfriday and yaml.v3), whose
// initialisation every start of chainrun would otherwise pay.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra/doc"

	"github.com/chainrun/chainrun/cmd"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: chainrun-man DIR (the directory the pages are written to)")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "chainrun-man:", err)
		os.Exit(1)
	}
}

// write writes a page for every command of chainrun into dir.
func write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root := cmd.Commands()
	return doc.GenManTree(root, &doc.GenManHeader{Title: "CHAINRUN", Section: "1", Source: "chainrun " + root.Version, Manual: "chainrun manual"}, dir)
}

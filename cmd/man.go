package cmd

import (
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newManCmd writes a man page (section 1) for every command into a
// directory: the release makes them for its archives and packages. It
// is hidden, a packager's command, and so has no page of its own.
func newManCmd() *cobra.Command {
	var dir string
	c := &cobra.Command{
		Use:    "man --dir DIR",
		Short:  "Write chainrun's man pages into DIR",
		Hidden: true,
		Args:   exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return usagef("man needs --dir DIR, the directory the pages are written to")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return doc.GenManTree(cmd.Root(), &doc.GenManHeader{Title: "CHAINRUN", Section: "1", Source: "chainrun " + cmd.Root().Version, Manual: "chainrun manual"}, dir)
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "directory to write the pages into (made when missing)")
	return c
}

package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/render/text"
)

type initOptions struct {
	f     *factory
	dir   string
	force bool
}

func newInitCmd(f *factory) *cobra.Command {
	opts := &initOptions{f: f}
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter chains/ directory and chainrun.yaml",
		Long: `Write a starter project into DIR (default: the current directory): a
chainrun.yaml config and chains/hello.yaml, a chain that runs on any
machine. Existing files are never overwritten unless --force is given.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("init takes at most one directory")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			opts.dir = "."
			if len(args) == 1 {
				opts.dir = args[0]
			}
			return runInit(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.force, "force", false, "overwrite existing files")
	return cmd
}

func runInit(opts *initOptions) error {
	f := opts.f
	if !opts.force {
		for _, sf := range catalog.StarterFiles {
			p := filepath.Join(opts.dir, sf.Path)
			// Lstat: a link, even one to nothing, is the user's entry
			if _, err := os.Lstat(p); err == nil {
				return usagef("%s already exists (use --force to overwrite)", p)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	for _, sf := range catalog.StarterFiles {
		p := filepath.Join(opts.dir, sf.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := fsutil.WriteShared(p, []byte(sf.Text), false); err != nil {
			return err
		}
		fmt.Fprintf(f.io.ErrOut, "wrote %s\n", p)
	}
	fmt.Fprintln(f.io.ErrOut, text.InitHint(opts.dir))
	return nil
}

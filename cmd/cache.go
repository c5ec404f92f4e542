package cmd

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
)

type cacheOptions struct {
	f *factory
}

func newCacheCmd(f *factory) *cobra.Command {
	opts := &cacheOptions{f: f}
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Inspect or empty the cache of LLM answers",
		Args:  exactArgs(0, "a subcommand (stats or clear)"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "stats",
		Short: "Count cached answers and their size",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runCacheStats(opts) },
	}, &cobra.Command{
		Use:   "clear",
		Short: "Remove every cached answer",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runCacheClear(opts) },
	})
	return cmd
}

func runCacheStats(opts *cacheOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	store, err := f.cacheStore()
	if err != nil {
		return err
	}
	st, err := store.Stats()
	if err != nil {
		return fmt.Errorf("reading the cache %s: %w", store.Dir(), err)
	}
	if format == "json" {
		return json.NewEncoder(f.io.Out).Encode(st)
	}
	fmt.Fprintf(f.io.Out, "%s: %d entries (%d expired), %d bytes\n", st.Dir, st.Entries, st.Expired, st.Bytes)
	return nil
}

func runCacheClear(opts *cacheOptions) error {
	f := opts.f
	store, err := f.cacheStore()
	if err != nil {
		return err
	}
	n, err := store.Clear()
	if err != nil {
		return fmt.Errorf("clearing the cache %s: %w", store.Dir(), err)
	}
	fmt.Fprintf(f.io.ErrOut, "removed %d cached answers from %s\n", n, store.Dir())
	return nil
}

package cmd

import (
	"github.com/spf13/cobra"
)

// durableCommands and durableFlags exist for the durable engine alone.
var (
	durableCommands = []string{"cancel", "worker"}
	durableFlags    = []string{"engine", "detach", "temporal-address", "namespace", "task-queue"}
)

// hideDurable keeps the durable engine's commands and flags out of the
// help and completion of a build without one: each would only answer that
// this build has no Temporal engine. They still parse and give that
// answer, so a script behaves the same on either build.
func hideDurable(root *cobra.Command) {
	if extension != nil {
		return
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, name := range durableFlags {
			if fl := c.Flags().Lookup(name); fl != nil {
				fl.Hidden = true
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range root.Commands() {
		for _, name := range durableCommands {
			if c.Name() == name {
				c.Hidden = true
			}
		}
	}
}

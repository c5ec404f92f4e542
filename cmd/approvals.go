package cmd

import (
	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
)

func newApprovalsCmd(f *factory) *cobra.Command {
	var queue string
	cmd := &cobra.Command{
		Use:   "approvals",
		Short: "List the paused runs that wait on a person",
		Long: `List the paused workflow runs that wait on a person: a decision point with
a human transition, or a human executor's request in a queue (executor:
{kind: human, queue: Q}). Answer one with chainrun resume RUN_ID --take T.`,
		Example: `  chainrun approvals
  chainrun approvals --queue expense-manager-approvals -o json
  chainrun resume 20261124-101500-123-abc123 --take approve`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			format, err := f.format()
			if err != nil {
				return err
			}
			st, err := f.stateStore()
			if err != nil {
				return err
			}
			list, err := st.Approvals(queue)
			if err != nil {
				return err
			}
			if format == "json" {
				return render.PrintJSON(f.io.Out, list)
			}
			return text.Approvals(f.io.Out, list)
		},
	}
	cmd.Flags().StringVar(&queue, "queue", "", "list only the runs waiting in this queue")
	return cmd
}

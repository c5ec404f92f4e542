package chain_test

// The reader of workflows: files and the rules of state workflows
// register with this package from pkg/chain/wfyaml and pkg/chain/wfcheck,
// which programs link through pkg/load: linked here, through this
// external test file, so that the workflows these tests read are read
// and checked as every program reads and checks them.
import (
	"github.com/chainrun/chainrun/pkg/chain"
	_ "github.com/chainrun/chainrun/pkg/chain/wfcheck"
	"github.com/chainrun/chainrun/pkg/chain/wfyaml"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// The keys of a workflows: file are wfyaml's: the kinds inventory lists them.
func init() {
	chain.WorkflowKeyLists = func() [3][]string {
		return [3][]string{yamlpos.KeysOf[wfyaml.WorkflowFileKeys](), yamlpos.KeysOf[wfyaml.WorkflowKeys](), yamlpos.KeysOf[wfyaml.WorkflowAgentKeys]()}
	}
}

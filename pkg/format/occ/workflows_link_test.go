package occ_test

// The reader of workflows: files and the rules of state workflows
// register with pkg/chain from pkg/chain/wfyaml and pkg/chain/wfcheck,
// which programs link through pkg/load: linked here, through this
// external test file, so that the workflows these tests read are read
// and checked as every program reads and checks them.
import (
	_ "github.com/chainrun/chainrun/pkg/chain/wfcheck"
	_ "github.com/chainrun/chainrun/pkg/chain/wfyaml"
)

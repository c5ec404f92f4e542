package authoring_test

// The rules of state workflows register with pkg/chain from
// pkg/chain/wfcheck, which programs link through pkg/load: linked here,
// so that the workflows these tests read are checked as every program
// checks them.
import _ "github.com/chainrun/chainrun/pkg/chain/wfcheck"

package chain_test

// The rules of state workflows register with this package from
// pkg/chain/wfcheck, which imports it: linked here, through this external
// test file, so that the internal tests validate workflows as every
// program that loads them does.
import _ "github.com/chainrun/chainrun/pkg/chain/wfcheck"

package chain_test

// mcp-flowgate's reliability policy is read by its front-end
// (pkg/format/flowgate), which programs link through pkg/load: linked
// here so that the workflows these tests read have their reliability:
// keys read as every program reads them.
import _ "github.com/chainrun/chainrun/pkg/format/flowgate"

package chain

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// ReliabilityReader reads mcp-flowgate's reliability policy ({timeoutMs,
// retry, fallback}) of an executor, a branch or a pipeline step into e,
// candidate reading each fallback executor. The policy is the
// mcp-flowgate front-end's vocabulary (pkg/format/flowgate registers it);
// the core only knows where a reliability: key may stand.
type ReliabilityReader func(d *yamlpos.Diags, candidate func(n *yaml.Node, i int, prefix string) *Step, e *Step, v *yaml.Node, prefix string)

var reliabilityReader ReliabilityReader

// RegisterReliabilityReader installs the reader of reliability: keys.
func RegisterReliabilityReader(r ReliabilityReader) { reliabilityReader = r }

// decodeReliability reads a reliability: key with the registered reader;
// a build that links none says it cannot read the key.
func decodeReliability(d *yamlpos.Diags, candidate func(n *yaml.Node, i int, prefix string) *Step, e *Step, v *yaml.Node, prefix string) {
	if reliabilityReader == nil {
		d.Errorf(yamlpos.Of(v), "%sreliability: this build reads no reliability policy (mcp-flowgate's front-end is not linked)", prefix)
		return
	}
	reliabilityReader(d, candidate, e, v, prefix)
}

// AddFallback gives executor e the fallback fb, tried after it fails
// past its retries; fb stands in for e (Step.Primary).
func AddFallback(e, fb *Step) {
	fb.primary = e
	e.Fallbacks = append(e.Fallbacks, fb)
}

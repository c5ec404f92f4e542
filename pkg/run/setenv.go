package run

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/mask"
)

// setEnv gives the run its dotenv variables and, in a file read as OCC's,
// adds the values of the secret-named variables its env_var pre_tools
// read to what the run masks: OCC lets a chain read them into a prompt;
// no output, event or saved run of chainrun shows them. It stays in the
// engine, not with the pre_tools: the run's masker must hold those values
// before any step of the run (or of a chain it calls) runs or reports.
func (x *Execution) setEnv(env map[string]string) {
	x.env = env
	if !x.Chain.Reading().SecretsReadable {
		return
	}
	var more []string
	x.Chain.Walk(func(s *chain.Step) {
		for _, p := range s.PreTools {
			if p.Type == "env_var" && chain.SecretEnvName(p.VarName) {
				if v, ok := x.getenv(p.VarName); ok && strings.TrimSpace(v) != "" {
					more = append(more, v)
				}
			}
		}
	})
	x.HideValues(more...)
}

// HideValues adds values to what the run masks, from here on: values
// that become secret once the run has begun (a decision's writeOnly
// arguments, a secret read from the environment).
func (x *Execution) HideValues(values ...string) {
	var more []string
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			more = append(more, v)
		}
	}
	if len(more) == 0 {
		return
	}
	x.secretValues = append(slices.Clone(x.secretValues), more...)
	x.Secrets = mask.New(x.secretValues)
}

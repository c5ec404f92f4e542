package remote

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"reflect"
)

// BrowserFields are OCC's browser step: a model driving a web browser.
// chainrun loads such a step (so the rest of a file can be checked and
// run) but running it fails, naming the step.
type BrowserFields struct {
	Action      string `yaml:"action" doc:"browser (not supported: running the step fails): what to do, as screenshot."`
	BrowserURL  string `yaml:"browser_url" doc:"browser (not supported): the starting URL."`
	BrowserTask string `yaml:"browser_task" doc:"browser (not supported): the task."`
}

func init() {
	chain.Register(chain.Unit{
		Kind:   chain.KindBrowser,
		Order:  210,
		Body:   reflect.TypeFor[BrowserFields](),
		Also:   append([]string{"url", "tools"}, chain.ModelKeys...),
		Models: true,
	})
}

// Browser is the step's BrowserFields, a shared zero value when it has none (read
// only; write through Own).
func Browser(s *chain.Step) *BrowserFields { return chain.Part[BrowserFields](s) }

package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestAnObjectArgumentsHintShowsItsShape: a transition that needs an
// object argument is offered with the object's required properties as
// placeholders (nested objects too), so the hint says what to fill; the
// hint followed with a placeholder left anywhere inside, as text (--arg)
// or as an object (an MCP client), is refused before anything runs; filled
// in, it takes the transition.
func TestAnObjectArgumentsHintShowsItsShape(t *testing.T) {
	src := wf(`    states:
      a:
        transitions:
          ship:
            target: done
            actor: human
            inputSchema:
              type: object
              required: [owner, tier]
              properties:
                tier: {type: string, enum: [gold, silver]}
                owner:
                  type: object
                  required: [name, site]
                  properties:
                    name: {type: string}
                    team: {type: string}
                    site:
                      type: object
                      required: [rack]
                      properties: {rack: {type: integer}}
            executor: {kind: cli, run: 'echo "$N in $R"', env: {N: "$.arguments.owner.name", R: "$.arguments.owner.site.rack"}}
      done: {terminal: true}
`)
	j := &memJournal{}
	c := load(t, src)
	l := New(WithDir(t.TempDir()))
	res, err := l.Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %s", err, res.Status)
	}
	var flags string
	for _, link := range res.Links {
		if link.Transition == "ship" {
			flags = response.ArgFlags(link.Args)
		}
	}
	want := ` --arg 'owner={"name":"<string>","site":{"rack":"<integer>"}}' --arg 'tier=<gold|silver>'`
	if flags != want {
		t.Fatalf("hint flags\n got %s\nwant %s", flags, want)
	}
	for _, left := range []any{
		`{"name":"<string>","site":{"rack":"<integer>"}}`,
		`{"name": "ann", "site": {"rack": "<integer>"}}`,
		map[string]any{"name": "<string>", "team": "ops", "site": map[string]any{"rack": 4}},
	} {
		_, err := l.Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "ship", Args: map[string]any{"owner": left, "tier": "gold"}})
		if err == nil || !strings.Contains(err.Error(), "placeholder") {
			t.Errorf("%v: %v", left, err)
		}
	}
	res, err = l.Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j, Take: "ship",
		Args: map[string]any{"owner": `{"name":"ann","site":{"rack":7}}`, "tier": "gold"}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
}

package text

import (
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/store"
)

// Shell completion shows each choice with a description after a tab
// ("value\tdescription", as cobra's completion reads it); the shell puts
// the description in parentheses itself, so none is written here.

// RunChoices are saved runs as completion offers them, newest first:
// the id, described by its chain, status and start; "last" (the newest)
// before them. With resumable, only runs resume has something to do for
// (paused, failed, interrupted).
func RunChoices(recs []store.Record, resumable bool) []string {
	var out []string
	for _, r := range recs {
		if resumable && !store.Resumable(r.Status) {
			continue
		}
		l := ListedRunOf(r)
		desc := strings.TrimSpace(r.Name + " " + string(r.Status) + " " + l.StartedAt)
		if len(out) == 0 {
			out = append(out, store.Last+"\t"+r.RunID+" "+desc)
		}
		out = append(out, r.RunID+"\t"+desc)
	}
	return out
}

// InputChoices complete --input for chain c: the input names (name=),
// each described, while no = is typed; after name=, the values its enum
// lists.
func InputChoices(c *chain.Chain, toComplete string) []string {
	var out []string
	if name, _, typed := strings.Cut(toComplete, "="); typed {
		in := c.Input(name)
		if in == nil {
			return nil
		}
		for _, v := range in.Enum {
			desc := ""
			if in.Default != nil && *in.Default == v {
				desc = "\tthe default"
			}
			out = append(out, name+"="+v+desc)
		}
		return out
	}
	for _, in := range c.Inputs {
		choice := in.Name + "="
		if note := inputNote(in); note != "" {
			choice += "\t" + note
		}
		out = append(out, choice)
	}
	return out
}

// inputNote describes an input: its description, and whether it may be
// left out, in parentheses after it (or alone: the shell adds its own
// parentheses around the whole, and "((optional))" helps nobody).
func inputNote(in *chain.Input) string {
	qual := ""
	switch {
	case in.Default != nil:
		qual = "default " + *in.Default
	case !in.Required():
		qual = "optional"
	}
	desc := in.Description
	if desc == "" && len(in.Enum) > 0 {
		desc = "one of " + strings.Join(in.Enum, ", ")
	}
	switch {
	case desc == "":
		return qual
	case qual == "":
		return desc
	}
	return desc + " (" + qual + ")"
}

// StatusChoices are the statuses a saved run can have, for completing
// runs --status.
func StatusChoices() []string {
	out := make([]string, 0, len(store.RunStatuses))
	for _, s := range store.RunStatuses {
		out = append(out, string(s))
	}
	return out
}

// TakeChoices are what --take can take of a saved run: the links it
// paused at, or the retry of what failed, each with its title.
func TakeChoices(sv *store.Saved) []string {
	var out []string
	if sv.Result != nil && sv.Result.WorkflowResult != nil {
		for _, l := range sv.Result.Links {
			out = append(out, l.Transition+"\t"+l.Title)
		}
	}
	return out
}

// RerunChoices are what --rerun confirms in a saved run: the steps that
// began and did not finish.
func RerunChoices(sv *store.Saved) []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(sv.Started)) {
		out = append(out, id+"\tbegan and did not finish")
	}
	return out
}

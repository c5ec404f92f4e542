package contenox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/run"
)

// missionRecord is what the mission hook keeps in the context as
// "mission": the run is the mission, its input the intent.
type missionRecord struct {
	ID      string          `json:"id"`
	Intent  string          `json:"intent,omitempty"`
	Status  string          `json:"status"`
	Reason  string          `json:"reason,omitempty"`
	Plan    *missionPlan    `json:"plan,omitempty"`
	Reports []missionReport `json:"reports,omitempty"`
}

type missionPlan struct {
	Entries     []planEntry `json:"entries"`
	Revision    int         `json:"revision"`
	Explanation string      `json:"explanation,omitempty"`
}

type planEntry struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
}

type missionReport struct {
	ID       string         `json:"id"`
	Kind     string         `json:"kind"`
	Summary  string         `json:"summary"`
	Detail   string         `json:"detail,omitempty"`
	Refs     []string       `json:"refs,omitempty"`
	Handover map[string]any `json:"handover,omitempty"`
}

const missionRunning = "running"

// mission runs a tool of the mission hook on the run's mission record.
func mission(a *run.Attempt, tool string, args map[string]any) (any, error) {
	var m missionRecord
	hookState(a, cx.HookMission, &m)
	if m.ID == "" {
		m = missionRecord{ID: a.RunID(), Intent: a.Input(cx.InputVar), Status: missionRunning}
	}
	var res any
	var err error
	switch tool {
	case cx.ToolMissionPlan:
		res, err = m.plan(args)
	case cx.ToolMissionReport:
		res, err = m.report(args, a.WorkDir())
	case cx.ToolMissionFinish:
		res, err = m.finish(args)
	case cx.ToolMissionAsk:
		var a struct{ Summary, Detail string }
		if err = decodeArgs(args, &a); err == nil && strings.TrimSpace(a.Summary) == "" {
			err = errors.New("mission_ask_attention needs a summary")
		}
		if err == nil {
			note := "(asked for a decision; a run has no one to answer it)"
			m.addReport(missionReport{Kind: "blocker", Summary: a.Summary, Detail: strings.TrimSpace(a.Detail + "\n\n" + note)})
			res = "attention requested (recorded as blocker — nobody answered)"
		}
	default:
		err = fmt.Errorf("the mission hook has no tool %q", tool)
	}
	if err != nil {
		return nil, err
	}
	setHookState(a, cx.HookMission, m)
	return res, nil
}

// plan replaces the plan with the snapshot given: an entry without id
// gets one; completed work keeps its text.
func (m *missionRecord) plan(args map[string]any) (any, error) {
	var a struct {
		Entries     []planEntry `json:"entries"`
		Explanation string      `json:"explanation"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if len(a.Entries) == 0 || len(a.Entries) > 100 {
		return nil, fmt.Errorf("a plan has 1 to 100 entries, not %d", len(a.Entries))
	}
	done := map[string]string{}
	rev := 1
	if m.Plan != nil {
		for _, e := range m.Plan.Entries {
			if e.Status == "completed" {
				done[e.ID] = e.Content
			}
		}
		rev = m.Plan.Revision + 1
	}
	for i := range a.Entries {
		e := &a.Entries[i]
		e.Content = strings.TrimSpace(e.Content)
		switch {
		case e.Content == "":
			return nil, fmt.Errorf("plan entry %d has no content", i+1)
		case e.Status != "pending" && e.Status != "in_progress" && e.Status != "completed":
			return nil, fmt.Errorf("plan entry %d: status %q is not pending, in_progress or completed", i+1, e.Status)
		case e.Priority != "high" && e.Priority != "medium" && e.Priority != "low":
			return nil, fmt.Errorf("plan entry %d: priority %q is not high, medium or low", i+1, e.Priority)
		}
		if was, ok := done[e.ID]; ok && was != e.Content {
			return nil, fmt.Errorf("plan entry %q is completed work, whose text does not change: add a new entry for the correction", e.ID)
		}
		if e.ID == "" {
			e.ID = fmt.Sprintf("plan-%d-%d", rev, i+1)
		}
	}
	m.Plan = &missionPlan{Entries: a.Entries, Revision: rev, Explanation: strings.TrimSpace(a.Explanation)}
	return m.Plan, nil
}

// report files a report; a result that names a file the run's directory
// lacks is filed as progress, saying so.
func (m *missionRecord) report(args map[string]any, dir string) (any, error) {
	var r missionReport
	if err := decodeArgs(args, &r); err != nil {
		return nil, err
	}
	if r.Kind == "" {
		r.Kind = "progress"
	}
	switch {
	case r.Kind != "progress" && r.Kind != "finding" && r.Kind != "blocker" && r.Kind != "result":
		return nil, fmt.Errorf("kind %q is not progress, finding, blocker or result", r.Kind)
	case strings.TrimSpace(r.Summary) == "":
		return nil, errors.New("a report needs a summary")
	}
	note := ""
	if r.Kind == "result" {
		if missing := missingPaths(dir, r.Refs, r.Handover["artifacts"]); len(missing) > 0 {
			r.Kind = "progress"
			note = " (filed as progress, not result: " + strings.Join(missing, ", ") + " not found)"
			r.Detail = strings.TrimSpace(r.Detail + "\n\n" + strings.TrimSpace(note))
		}
	}
	id := m.addReport(r)
	return fmt.Sprintf("recorded %s report %q%s", r.Kind, id, note), nil
}

func (m *missionRecord) addReport(r missionReport) string {
	r.ID = fmt.Sprintf("rep-%d", len(m.Reports)+1)
	m.Reports = append(m.Reports, r)
	return r.ID
}

// missingPaths are the files among refs and artifacts (URLs aside) that
// do not exist under dir.
func missingPaths(dir string, refs []string, artifacts any) []string {
	all := append([]string(nil), refs...)
	if list, ok := artifacts.([]any); ok {
		for _, a := range list {
			if s, ok := a.(string); ok {
				all = append(all, s)
			}
		}
	}
	var missing []string
	for _, p := range all {
		if p == "" || strings.Contains(p, "://") {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
	}
	return missing
}

// finish ends the mission, once.
func (m *missionRecord) finish(args map[string]any) (any, error) {
	var a struct{ Status, Reason string }
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	switch a.Status {
	case "landed", "derailed", "stuck", "abandoned":
	default:
		return nil, fmt.Errorf("status %q is not landed, derailed, stuck or abandoned", a.Status)
	}
	switch m.Status {
	case missionRunning:
		m.Status, m.Reason = a.Status, strings.TrimSpace(a.Reason)
	case a.Status:
	default:
		return nil, fmt.Errorf("the mission already finished as %s; it cannot finish again as %s", m.Status, a.Status)
	}
	return "mission finished as " + m.Status, nil
}

package contenox

import "testing"

// TestATaskChainsUnknownHandlerHidesNoOtherError: a contenox task whose
// handler is unknown or missing is reported with the file's other errors
// — branch operators, gotos, ranges, unknown fields — in one pass; so are
// a repeated task id (never reported before) and a route task without
// labels.
func TestATaskChainsUnknownHandlerHidesNoOtherError(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"misspelt handler", `{"id":"x","tasks":[
 {"id":"a","handler":"chat_complete","transition":{"branches":[{"operator":"equal","when":"x","goto":"nowhere"}]}},
 {"id":"b","handler":"noop","colour":1,"transition":{"branches":[{"operator":"range","when":"z","goto":"a"}]}}]}`,
			[]string{`handler "chat_complete" is not one chainrun can run (did you mean chat_completion?)`, `unknown operator "equal"`, `goto "nowhere" is not a state`, `range "z"`, `unknown field "colour"`}},
		{"missing handler", `{"id":"x","tasks":[
 {"id":"a","transition":{"branches":[{"operator":"default","goto":"gone"}]}},
 {"id":"b","handler":"raise_eror"}]}`,
			[]string{`task "a": handler is required`, `goto "gone" is not a state`, `handler "raise_eror" is not one chainrun can run (did you mean raise_error?)`}},
		{"older hook handler without its hook", `{"id":"x","tasks":[{"id":"a","handler":"hook","transition":{"branches":[{"operator":"default","goto":"b"},{"operator":"starts","when":"q","goto":"a"}]}}]}`,
			[]string{`a hook task (handler hook, the older name of tools) needs hook:`, `goto "b" is not a state`, `unknown operator "starts"`}},
		{"repeated id and a route without labels", `{"id":"x","tasks":[
 {"id":"a","handler":"noop","transition":{"branches":[{"operator":"equals","when":"x","goto":"nowhere"}]}},
 {"id":"a","handler":"route","colour":2,"transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
			[]string{`c.yaml:3:8: task id "a" is given twice (lines 2 and 3)`, `a route task needs equals branches`, `goto "nowhere" is not a state`, `unknown field "colour"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFindings(t, c.src, c.want) })
	}
}

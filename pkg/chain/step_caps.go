package chain

// This file answers, for the core, what a step's kind knows of it
// (Unit.Queue, Unit.Script) without the core reading the kind's body.

// Queue is the queue of people step s asks, "" when its kind asks none
// (Unit.Queue).
func Queue(s *Step) string {
	if u := unitOf(s.Kind); u != nil && u.Queue != nil {
		return u.Queue(s)
	}
	return ""
}

// ScriptSubject is the subject of the script step s runs from a scripts:
// library, "" when its kind runs none (Unit.Script).
func ScriptSubject(s *Step) string {
	if u := unitOf(s.Kind); u != nil && u.Script != nil {
		return u.Script(s)
	}
	return ""
}

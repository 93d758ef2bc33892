package hashline

import (
	"fmt"
	"strings"
)

// Guard is the repeat guard of docs/contract.md §15.2: it counts failed mutations per path
// within one turn, so an assistant that keeps failing the same way is
// stopped instead of looping. The three codes that hand back what the retry
// needs each get one free attempt per path; every other code counts at once.
type Guard struct {
	paths map[string]*attempts
}

type attempts struct {
	turn   string
	count  int
	graced map[Code]bool
}

// NewGuard returns a guard with no history.
func NewGuard() *Guard { return &Guard{paths: map[string]*attempts{}} }

// graceable are the codes whose first occurrence on a path is the designed
// response, not a sign of guessing.
func graceable(c Code) bool {
	return c == CodeTagMismatch || c == CodeTagUnknown || c == CodeLinesUnseen
}

// Fail counts err against path in turn and, when the count reaches
// MaxRepeatAttempts, marks err terminal and fills in what the caller needs
// to finalize the turn. kind is "edit" or "patch-command".
func (g *Guard) Fail(path, turn, kind string, err *Error) {
	a := g.paths[path]
	if a == nil || a.turn != turn {
		a = &attempts{turn: turn, graced: map[Code]bool{}}
		g.paths[path] = a
	}
	if graceable(err.Code) && !a.graced[err.Code] {
		a.graced[err.Code] = true
		return
	}
	a.count++
	if a.count < MaxRepeatAttempts {
		return
	}
	err.Terminate = true
	err.Details.Exhausted = &Exhausted{
		Code:      CodeRetryBudgetExhausted,
		Retriable: true,
		Kind:      kind,
		LastCode:  err.Code,
		Attempts:  a.count,
		Recovery:  recoveryHint(err),
	}
	err.Message += fmt.Sprintf(" [%s: %d failed attempts on this file in this turn; stop editing it and tell the user what failed: %s]",
		CodeRetryBudgetExhausted, a.count, recoveryHint(err))
}

// Succeed clears path's history: a write that landed resets the count.
func (g *Guard) Succeed(path string) { delete(g.paths, path) }

// Forget drops every count.
func (g *Guard) Forget() { clear(g.paths) }

func recoveryHint(err *Error) string {
	switch err.Code {
	case CodeParseFailed:
		ex := "PUT 48.=48:"
		if f := strings.Fields(err.Details.OpText); len(f) >= 2 {
			if loc, _, perr := parseLocator(strings.TrimSuffix(f[1], ":")); perr == nil {
				ex = "PUT " + loc.String() + ":"
			}
		}
		return "fix the operation syntax, no new read is needed: a PUT with body rows must end its header with :, for example " + ex + ", and every new line is a + row"
	case CodeTagMismatch, CodeTagUnknown:
		return "read the file again and build the ops against the tag and line numbers of that read"
	case CodeLinesUnseen:
		return "use the complete reveal in the error, or read the named lines, before editing them"
	case CodeNoChange:
		return "the file already holds that text; do not repeat the edit"
	case CodeRangeInvalid:
		return "name existing lines of your latest read, each line in at most one op"
	}
	return "re-read the file and make one smaller edit"
}

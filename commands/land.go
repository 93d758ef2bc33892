package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// maxPlans bounds how many times a mutation is planned: an editor refuses
// a change when its text changed after the plan (a person typing changes
// it every few tens of milliseconds), and each plan proves the change again
// against the text as it is then.
const maxPlans = 6

// A planner plans a mutation against the live text of its files, as it is
// now, and returns the change set to land; its error stops the mutation.
type planner func(live map[string]documents.Live) (documents.ChangeSet, error)

// landing is what a mutation left once it landed: the change set, the text
// each file holds now (in the editor's buffer, and on disk when saved),
// and what the way there is worth a warning.
type landing struct {
	cs       documents.ChangeSet
	live     map[string]documents.Live // the text it was planned against
	landed   documents.Landed
	warnings []hashline.Warning
}

// land is the one landing step of edit, write and patch: plan against the
// live text of files, apply through the sink, save what the editor holds
// when there is a Saver, and read back what each file holds. An editor
// that refuses the change because the text moved after the plan gets it
// planned again, through plan's own checks, against the text as it is
// then (up to maxPlans); one that refuses a text that stands still gets it
// once more (an editor may send the change that made it refuse just after
// its answer), then the refusal is the result. A multi-file change an
// editor refused but partly applied is said so, file by file: planning it
// again could apply a file twice.
func (s *Server) land(ctx context.Context, verb string, files []workspace.Path, plan planner) (landing, error) {
	var refused error
	var prev map[string]documents.Live
	var notes []hashline.Warning
	for attempt := 0; ; attempt++ {
		s.sync(ctx)
		live, err := s.liveOf(ctx, files)
		if err != nil {
			return landing{}, err
		}
		if refused != nil && (attempt == maxPlans || attempt > 1 && sameTexts(live, prev)) {
			return landing{}, refusal(verb, files, prev, live, attempt, refused)
		}
		cs, err := plan(live)
		if err != nil && attempt > 0 {
			err = changedMeanwhile(err, files)
		}
		if err != nil {
			return landing{}, err
		}
		if len(cs.Files) == 0 {
			return landing{cs: cs, live: live}, nil // the files hold what was asked already
		}
		landed, err := s.Sink.Apply(ctx, cs)
		if u := (*documents.Undone)(nil); errors.As(err, &u) {
			notes = append(notes, hashline.Warning{Kind: hashline.WarnEditor, Message: u.Warning()})
		}
		if errors.Is(err, documents.ErrNotApplied) {
			if err := s.partial(ctx, verb, cs, err); err != nil {
				return landing{}, err
			}
			refused, prev = err, live
			continue
		}
		if err != nil {
			return landing{}, err
		}
		landed, unsaved := s.save(ctx, cs, landed)
		l := landing{cs: cs, live: live, landed: landed, warnings: append(notes, unsaved...)}
		return l, l.readBack(s)
	}
}

// liveOf is the live text of each of files, by absolute path.
func (s *Server) liveOf(ctx context.Context, files []workspace.Path) (map[string]documents.Live, error) {
	live := map[string]documents.Live{}
	for _, f := range files {
		l, err := s.Source.Live(ctx, f.Abs)
		if err != nil {
			return nil, err
		}
		live[f.Abs] = l
	}
	return live, nil
}

// readBack checks that every file the change leaves has text to show.
func (l landing) readBack(s *Server) error {
	for _, fc := range l.cs.Files {
		path, ok := fc.Left()
		if !ok {
			continue
		}
		if l.landed[path] == nil {
			return hashline.Errorf(hashline.CodeToolFailed, "the change of %s was applied but its text could not be read back: read the file to see what it holds", s.rel(path))
		}
	}
	return nil
}

// drift is the warning, one per file, of text that landed other than
// intended (a formatter, an on-type rule, the person): the tag returned is
// then of the text as it is.
func (l landing) drift(s *Server) []hashline.Warning {
	var out []hashline.Warning
	for _, fc := range l.cs.Files {
		path := fc.Path
		if fc.Kind == documents.Rename {
			path = fc.NewPath
		}
		got := l.landed[path]
		if fc.Kind == documents.Delete || got == nil || fc.New == nil {
			continue
		}
		if w, drifted := landedDrift(fc.New, got); drifted {
			if len(l.cs.Files) > 1 {
				w = s.rel(path) + ": " + w
			}
			out = append(out, hashline.Warning{Kind: hashline.WarnLanded, Message: w})
		}
	}
	return out
}

// landedDrift compares what was meant with what landed (docs/contract.md §16.2) and, when a
// formatter or the user changed it on the way, says where in one line.
func landedDrift(want, got *hashline.Text) (string, bool) {
	if want.Raw() == got.Raw() {
		return "", false
	}
	first := 1
	for first <= want.Len() && first <= got.Len() && want.Line(first) == got.Line(first) {
		first++
	}
	lastW, lastG := want.Len(), got.Len()
	for lastW >= first && lastG >= first && want.Line(lastW) == got.Line(lastG) {
		lastW--
		lastG--
	}
	if want.Normalized() == got.Normalized() {
		return "the text that landed differs from the edit in line endings or the byte-order mark only (the editor changed them): the tag returned is of the text as it is now", true
	}
	where := fmt.Sprintf("lines %d-%d", first, max(lastG, first))
	if lastG < first {
		where = fmt.Sprintf("near line %d", first)
	}
	return fmt.Sprintf("the text that landed differs from the edit at %s (a formatter or the editor changed it): the tag returned is of the text as it is now; read %s before editing there", where, where), true
}

// rel is path as the model names it: relative to its root.
func (s *Server) rel(path string) string {
	if wp, err := s.Roots.Resolve(path); err == nil {
		return wp.Rel
	}
	return path
}

func sameTexts(a, b map[string]documents.Live) bool {
	for path, l := range a {
		m, ok := b[path]
		if !ok || l.Exists() != m.Exists() || l.Exists() && l.Text.Raw() != m.Text.Raw() {
			return false
		}
	}
	return true
}

// refusal is the error of a change the editor kept refusing: of text that
// did not move since (the editor has its own reason), or that kept
// changing through every plan. It tells the tag of the text as it is now.
func refusal(verb string, files []workspace.Path, before, now map[string]documents.Live, plans int, cause error) error {
	var names []string
	details := hashline.Details{}
	for _, f := range files {
		names = append(names, f.Rel)
		if l := now[f.Abs]; l.Exists() && details.LiveTag == "" {
			details.LiveTag = string(l.Text.Tag())
		}
	}
	which := strings.Join(names, ", ")
	if sameTexts(now, before) {
		return &hashline.Error{Code: hashline.CodeToolFailed, Details: details,
			Message: fmt.Sprintf("the editor refused the %s of %s, though the file did not change (%v): check the editor (a read-only or unsaved-conflict file, an MV destination it will not create), then retry", verb, which, cause)}
	}
	return &hashline.Error{Code: hashline.CodeTagMismatch, Details: details,
		Message: fmt.Sprintf("the editor refused the %s %d times because %s kept changing while it was written: read it again and rebuild the call against the new tag", verb, plans, which)}
}

// changedMeanwhile is the failure of a second plan after the file changed
// between the check and the write (another process wrote it first). The
// tag hashed the file when the call began, so a tag the session never
// recorded is a mismatch now, not an unknown tag.
func changedMeanwhile(err error, files []workspace.Path) error {
	var he *hashline.Error
	if !errors.As(err, &he) || he.Code != hashline.CodeTagUnknown || len(files) != 1 {
		return err
	}
	rel := files[0].Rel
	return &hashline.Error{Code: hashline.CodeTagMismatch, Details: he.Details,
		Message: fmt.Sprintf("%s changed while this edit was being written (another process wrote it first), so nothing was written: the file's tag is %s now. The lines around your anchors as they are now are below and count as read: rebuild the ops against tag %s and these line numbers, or read the file again", rel, he.Details.LiveTag, he.Details.LiveTag)}
}

// partialWait bounds how long a refused multi-file change is watched for
// files the editor applied anyway; it covers Neovim's 150 ms debounce.
const partialWait = 500 * time.Millisecond

// partial explains a multi-file change the editor refused but may have
// applied in part (an editor that does not apply them all or nothing): the
// model must know which files changed. It returns nil when none did.
func (s *Server) partial(ctx context.Context, verb string, cs documents.ChangeSet, cause error) error {
	if len(cs.Files) < 2 {
		return nil
	}
	// Editors report what they applied after they answer, so look for a
	// while before concluding a file was left alone.
	var done, not []string
	for deadline := time.Now().Add(partialWait); ; {
		done, not = done[:0], not[:0]
		for _, fc := range cs.Files {
			now, err := s.Source.Live(ctx, fc.Path)
			if err == nil && now.Exists() && fc.New != nil && now.Text.Raw() == fc.New.Raw() {
				done = append(done, s.rel(fc.Path))
			} else {
				not = append(not, s.rel(fc.Path))
			}
		}
		if len(not) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(25 * time.Millisecond):
		}
	}
	if len(done) == 0 {
		return nil
	}
	sort.Strings(done)
	return hashline.Errorf(hashline.CodeToolFailed,
		"the editor applied the %s to %s but not to %s (it does not apply multi-file edits all or nothing; %v): read those files again and %s what is missing",
		verb, strings.Join(done, ", "), strings.Join(not, ", "), cause, verb)
}

package commands

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// EditArgs are the arguments of hashline.edit.
type EditArgs struct {
	Common
	Path string `json:"path"`
	Tag  string `json:"tag"`
	Ops  string `json:"ops"`
}

// EditResult is the result of hashline.edit.
type EditResult struct {
	OK       bool                `json:"ok"`
	Path     string              `json:"path"`
	Tag      string              `json:"tag"`
	Header   string              `json:"header"`
	Removed  bool                `json:"removed,omitempty"`
	Resolved []hashline.Resolved `json:"resolved"`
	Warnings []hashline.Warning  `json:"warnings"`
	Diff     string              `json:"diff"`
	rendered
}

func (s *Server) edit(ctx context.Context, a EditArgs) (Result, error) {
	sess := s.Sessions.Get(a.sessionName())
	wp, err := s.resolve(a.Path)
	// A path that names no file may be a slip for a file this session
	// read (§9.2). This runs before confinement refuses the path, so a
	// mistyped path finds the file the model meant.
	rebound := []hashline.Warning{}
	if err != nil || !wp.Exists {
		if w, ok := s.recoverPath(sess, a, wp, err); ok {
			wp, err = w.path, nil
			rebound = append(rebound, w.warning)
		}
	}
	if err != nil {
		return nil, err
	}
	res, err := s.editFile(ctx, sess, a, wp)
	if errors.Is(err, context.Canceled) {
		return nil, err
	}
	if err != nil {
		he := hashline.AsError(err)
		sess.Fail(wp.Abs, a.Turn, "edit", he)
		return nil, he
	}
	res.Warnings = append(rebound, res.Warnings...)
	return res, nil
}

// editFile runs the edit of wp, holding its permits from the gates to the
// commit.
func (s *Server) editFile(ctx context.Context, sess *hashline.Session, a EditArgs, wp workspace.Path) (*EditResult, error) {
	patch, err := hashline.Parse(a.Ops)
	if err != nil {
		return nil, err
	}
	// MV names a second file; resolve it first so both are locked in one
	// order and a bad destination fails before anything is checked.
	dest, err := s.moveDest(wp, patch)
	if err != nil {
		return nil, err
	}
	paths := []string{wp.Abs}
	if dest != nil {
		paths = append(paths, dest.Abs)
	}
	unlock, err := s.lock(ctx, a.sessionName(), paths...)
	if err != nil {
		return nil, err
	}
	defer unlock()

	req := hashline.EditRequest{Path: wp.Abs, Display: wp.Rel, Names: []string{a.Path, wp.Rel}, Tag: a.Tag, Patch: patch, Blocks: s.Blocks, Stateless: s.Stateless}
	ap, err := s.applyEdit(ctx, sess, req, wp, dest)
	if err != nil {
		return nil, err
	}
	return ap.result(sess, wp, dest)
}

// appliedEdit is an edit the sink wrote: its plan, the live text the plan
// was proven against, and what the sink reports landed.
type appliedEdit struct {
	plan   *hashline.Plan
	live   documents.Live
	landed documents.Landed
	later  []hashline.Warning // what the editor did on the way: a first try it misplaced, files left unsaved
}

// maxPlans bounds how many times an edit is planned: an editor refuses
// an edit when its text changed after the plan (a person typing changes it
// every few tens of milliseconds), and each plan proves the edit again
// against the text as it is then.
const maxPlans = 6

// applyEdit plans the edit against the live text and hands it to the sink.
// An editor that refuses the edit because the text changed in between gets
// it planned again, through the gates, against its new text; one that
// keeps refusing an edit of text that stands still has its own reason.
func (s *Server) applyEdit(ctx context.Context, sess *hashline.Session, req hashline.EditRequest, wp workspace.Path, dest *workspace.Path) (appliedEdit, error) {
	var refused error
	var prev documents.Live
	var undone []hashline.Warning
	for attempt := 0; ; attempt++ {
		s.sync(ctx)
		live, err := s.Source.Live(ctx, wp.Abs)
		if err != nil {
			return appliedEdit{}, err
		}
		if !live.Exists() {
			return appliedEdit{}, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
				Message: fmt.Sprintf("there is no file at %s: edit changes existing files; create it with hashline_write, or check the name", wp.Rel)}
		}
		// One refusal of a text that did not move gets one more try: an
		// editor may send the change that made it refuse just after its
		// answer (VS Code does).
		if refused != nil && (attempt == maxPlans || attempt > 1 && live.Text.Raw() == prev.Text.Raw()) {
			return appliedEdit{}, refusedEdit(wp, prev, live, attempt, refused)
		}
		plan, err := sess.Plan(req, live.Text)
		if err != nil && attempt > 0 {
			err = changedMeanwhile(err, wp)
		}
		if err != nil {
			return appliedEdit{}, err
		}
		cs := changeSet(plan, wp, dest, live)
		landed, err := s.Sink.Apply(ctx, cs)
		if u := (*documents.Undone)(nil); errors.As(err, &u) {
			undone = append(undone, hashline.Warning{Kind: hashline.WarnEditor, Message: u.Warning()})
		}
		if errors.Is(err, documents.ErrNotApplied) {
			refused, prev = err, live
			continue
		}
		if err != nil {
			return appliedEdit{}, err
		}
		landed, unsaved := s.save(ctx, cs, landed)
		return appliedEdit{plan: plan, live: live, landed: landed, later: append(undone, unsaved...)}, nil
	}
}

// changedMeanwhile is the failure of a second pass through the gates after
// the file changed between the check and the write (another process wrote
// it first). The tag hashed the file when the call began, so a tag the
// session never recorded is a mismatch now, not an unknown tag.
func changedMeanwhile(err error, wp workspace.Path) error {
	var he *hashline.Error
	if !errors.As(err, &he) || he.Code != hashline.CodeTagUnknown {
		return err
	}
	return &hashline.Error{Code: hashline.CodeTagMismatch, Details: he.Details,
		Message: fmt.Sprintf("%s changed while this edit was being written (another process wrote it first), so nothing was written: the file's tag is %s now. The lines around your anchors as they are now are below and count as read: rebuild the ops against tag %s and these line numbers, or read the file again", wp.Rel, he.Details.LiveTag, he.Details.LiveTag)}
}

// refusedEdit is the error of an edit the editor refused: of a text that
// did not move since (the editor has its own reason), or of one that kept
// changing through every plan. It tells the tag of the text as it is now.
func refusedEdit(wp workspace.Path, before, live documents.Live, plans int, cause error) error {
	details := hashline.Details{LiveTag: string(live.Text.Tag())}
	if live.Text.Raw() == before.Text.Raw() {
		return &hashline.Error{Code: hashline.CodeToolFailed, Details: details,
			Message: fmt.Sprintf("the editor refused the edit of %s, though the file did not change (%v): check the editor (a read-only or unsaved-conflict file, an MV destination it will not create), then retry", wp.Rel, cause)}
	}
	return &hashline.Error{Code: hashline.CodeTagMismatch, Details: details,
		Message: fmt.Sprintf("the editor refused the edit %d times because %s kept changing while it was written: read it again and rebuild the ops against the new tag", plans, wp.Rel)}
}

// result commits what the edit left to the session and reports it: the
// text that landed, at dest for a MV.
func (ap appliedEdit) result(sess *hashline.Session, wp workspace.Path, dest *workspace.Path) (*EditResult, error) {
	plan := ap.plan
	res := &EditResult{OK: true, Path: wp.Rel, Resolved: plan.Resolved, Warnings: plan.Warnings}
	if res.Resolved == nil {
		res.Resolved = []hashline.Resolved{}
	}
	if plan.Remove {
		sess.Commit(plan, wp.Abs, nil)
		res.Removed = true
		res.Diff = hashline.Unified("a/"+wp.Rel, "/dev/null", ap.live.Text.Normalized(), "")
		return res, nil
	}
	at := wp
	if dest != nil {
		at = *dest
	}
	got := ap.landed[at.Abs]
	if got == nil {
		return nil, hashline.Errorf(hashline.CodeToolFailed, "the edit of %s was applied but its text could not be read back: read the file to see what it holds", at.Rel)
	}
	sess.Commit(plan, at.Abs, got)
	if w, drifted := landedDrift(plan.New, got); drifted {
		res.Warnings = append(res.Warnings, hashline.Warning{Kind: hashline.WarnLanded, Message: w})
	}
	res.Warnings = append(res.Warnings, ap.later...)
	res.Path = at.Rel
	res.Tag = string(got.Tag())
	res.Header = hashline.Header(at.Rel, got.Tag())
	// The shortest diff (go-diff, see hashline/diff.go): a bounded search
	// would show the reader lines the edit never touched.
	res.Diff = hashline.Unified("a/"+wp.Rel, "b/"+at.Rel, ap.live.Text.Normalized(), got.Normalized())
	if res.Warnings == nil {
		res.Warnings = []hashline.Warning{}
	}
	return res, nil
}

type reboundPath struct {
	path    workspace.Path
	warning hashline.Warning
}

// recoverPath rebinds an edit whose path names no file to the one file
// this session recorded with the same base name and tag.
func (s *Server) recoverPath(sess *hashline.Session, a EditArgs, wp workspace.Path, resolveErr error) (reboundPath, bool) {
	tag, err := hashline.ParseTag(a.Tag)
	if err != nil {
		return reboundPath{}, false
	}
	authored, base := wp.Abs, filepath.Base(wp.Abs)
	if resolveErr != nil {
		authored, base = "", filepath.Base(filepath.FromSlash(a.Path))
	}
	cand, ok := sess.RecoverPath(base, tag, authored)
	if !ok {
		return reboundPath{}, false
	}
	cwp, err := s.resolve(cand)
	if err != nil || !cwp.Exists {
		return reboundPath{}, false
	}
	return reboundPath{path: cwp, warning: hashline.Warning{Kind: hashline.WarnPath, Message: fmt.Sprintf(
		"%s names no file in the workspace; the edit went to %s, the one file this session read with that name and tag %s: use that path from here on", a.Path, cwp.Rel, tag)}}, true
}

// moveDest resolves the destination of the patch's MV, if it has one,
// relative to the workspace like any path argument; it must not exist yet.
func (s *Server) moveDest(src workspace.Path, patch *hashline.Patch) (*workspace.Path, error) {
	var dest *workspace.Path
	for _, op := range patch.Ops {
		if op.Kind != hashline.OpMove {
			continue
		}
		d, err := s.resolve(op.Dest)
		if err != nil {
			return nil, err
		}
		if d.Abs == src.Abs {
			return nil, hashline.Errorf(hashline.CodeInvalidArgument, "MV %s names the file itself: give a different destination, or drop the MV line", op.Dest)
		}
		if d.Exists {
			return nil, hashline.Errorf(hashline.CodeInvalidArgument, "MV destination %s already exists: choose a new name, or remove that file first", d.Rel)
		}
		dest = &d
	}
	return dest, nil
}

func changeSet(p *hashline.Plan, wp workspace.Path, dest *workspace.Path, live documents.Live) documents.ChangeSet {
	cs := documents.ChangeSet{Label: "hashline: " + p.Summary}
	old := live
	switch {
	case p.Remove:
		cs.Files = append(cs.Files, documents.FileChange{Kind: documents.Delete, Path: wp.Abs, Old: &old})
	case dest != nil:
		cs.Files = append(cs.Files, documents.FileChange{Kind: documents.Rename, Path: wp.Abs, NewPath: dest.Abs, Old: &old, Edits: p.Edits, Hunks: p.Hunks, New: p.New})
	default:
		cs.Files = append(cs.Files, documents.FileChange{Kind: documents.Modify, Path: wp.Abs, Old: &old, Edits: p.Edits, Hunks: p.Hunks, New: p.New})
	}
	return cs
}

// landedDrift compares what was meant with what landed (§5.4) and, when a
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

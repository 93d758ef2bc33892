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
	Planning
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
	// read (docs/contract.md §14). This runs before confinement refuses the path, so a
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
	res, err := s.editFile(ctx, sess, a, wp, rebound)
	if errors.Is(err, context.Canceled) {
		return nil, err
	}
	if err != nil {
		he := hashline.AsError(err)
		if !a.DryRun {
			sess.Fail(wp.Abs, a.Turn, "edit", he)
		}
		return nil, he
	}
	return res, nil
}

// editFile runs the edit of wp, holding its permits from the gates to the
// commit.
func (s *Server) editFile(ctx context.Context, sess *hashline.Session, a EditArgs, wp workspace.Path, rebound []hashline.Warning) (Result, error) {
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

	req := hashline.EditRequest{Path: wp.Abs, Display: wp.Rel, Names: []string{a.Path, wp.Rel}, Tag: a.Tag, Patch: patch, Blocks: s.Blocks, Stateless: s.Stateless, DryRun: a.DryRun}
	var plan *hashline.Plan
	planEdit := func(live map[string]documents.Live) (documents.ChangeSet, error) {
		lv := live[wp.Abs]
		if !lv.Exists() {
			return documents.ChangeSet{}, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
				Message: fmt.Sprintf("there is no file at %s: edit changes existing files; create it with hashline_write, or check the name", wp.Rel)}
		}
		var err error
		if plan, err = sess.Plan(req, lv.Text); err != nil {
			return documents.ChangeSet{}, err
		}
		return changeSet(plan, wp, dest, lv), nil
	}
	if a.DryRun {
		res, err := s.plan(ctx, []workspace.Path{wp}, planEdit)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(append(res.Warnings, rebound...), plan.Warnings...)
		return res, nil
	}
	l, err := s.land(ctx, "edit", []workspace.Path{wp}, planEdit)
	if err != nil {
		return nil, err
	}
	res := s.editResult(sess, plan, l, wp, dest)
	res.Warnings = append(rebound, res.Warnings...)
	return res, nil
}

// editResult commits what the edit left to the session and reports it:
// the text that landed, at dest for a MV.
func (s *Server) editResult(sess *hashline.Session, plan *hashline.Plan, l landing, wp workspace.Path, dest *workspace.Path) *EditResult {
	live := l.live[wp.Abs]
	res := &EditResult{OK: true, Path: wp.Rel, Resolved: plan.Resolved, Warnings: plan.Warnings}
	if res.Resolved == nil {
		res.Resolved = []hashline.Resolved{}
	}
	if plan.Remove {
		sess.Commit(plan, wp.Abs, nil)
		res.Removed = true
		res.Diff = hashline.Unified("a/"+wp.Rel, "/dev/null", live.Text.Normalized(), "")
		return res
	}
	at := wp
	if dest != nil {
		at = *dest
	}
	got := l.landed[at.Abs]
	sess.Commit(plan, at.Abs, got)
	res.Warnings = append(append(res.Warnings, l.drift(s)...), l.warnings...)
	res.Path = at.Rel
	res.Tag = string(got.Tag())
	res.Header = hashline.Header(at.Rel, got.Tag())
	// The shortest diff (go-diff, see hashline/diff.go): a bounded search
	// would show the reader lines the edit never touched.
	res.Diff = hashline.Unified("a/"+wp.Rel, "b/"+at.Rel, live.Text.Normalized(), got.Normalized())
	if res.Warnings == nil {
		res.Warnings = []hashline.Warning{}
	}
	return res
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

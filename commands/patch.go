package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// PatchArgs are the arguments of hashline.patch.
type PatchArgs struct {
	Common
	Planning
	Patch string `json:"patch"`
}

// PatchFile is one file a patch wrote.
type PatchFile struct {
	Path   string `json:"path"`
	Tag    string `json:"tag"`
	Header string `json:"header"`
}

// PatchResult is the result of hashline.patch.
type PatchResult struct {
	OK       bool               `json:"ok"`
	Files    []PatchFile        `json:"files"`
	Warnings []hashline.Warning `json:"warnings"`
	rendered
}

// patchFile is one file of a patch: its sections merged, since one file may
// be spelled two ways.
type patchFile struct {
	wp   workspace.Path
	ops  []hashline.PatchOp
	live documents.Live
	plan *hashline.Plan
}

// patch runs a kli patch (docs/contract.md §17): every anchor of every file is
// re-hashed against the live text, every problem is gathered, and one
// problem writes nothing; a clean patch goes out as one change set.
func (s *Server) patch(ctx context.Context, a PatchArgs) (Result, error) {
	secs, problems := hashline.ParsePatch(a.Patch)
	sess := s.Sessions.Get(a.sessionName())
	files, problems := s.patchFiles(secs, problems)
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.wp.Abs
	}
	unlock, err := s.lock(ctx, a.sessionName(), paths...)
	if err != nil {
		return nil, err
	}
	defer unlock()

	key := "patch:" + strings.Join(paths, "\x00")
	targets := make([]workspace.Path, len(files))
	for i, f := range files {
		targets[i] = f.wp
	}
	planPatch := func(live map[string]documents.Live) (documents.ChangeSet, error) {
		probs := slices.Clone(problems)
		for _, f := range files {
			probs = append(probs, s.planPatchFile(sess, f, live[f.wp.Abs])...)
		}
		if len(probs) > 0 {
			return documents.ChangeSet{}, hashline.PatchError(probs)
		}
		cs := documents.ChangeSet{Label: fmt.Sprintf("hashline: patch of %d file(s)", len(files))}
		for _, f := range files {
			old := f.live
			cs.Files = append(cs.Files, documents.FileChange{Kind: documents.Modify, Path: f.wp.Abs, Old: &old, Edits: f.plan.Edits, Hunks: f.plan.Hunks, New: f.plan.New})
		}
		return cs, nil
	}
	if a.DryRun {
		dry, err := s.plan(ctx, targets, planPatch)
		if err != nil {
			return nil, err
		}
		return dry, nil
	}
	l, err := s.land(ctx, "patch", targets, planPatch)
	if err != nil {
		he := hashline.AsError(err)
		sess.Fail(key, a.Turn, "patch-command", he)
		return nil, he
	}
	res := &PatchResult{OK: true, Warnings: append(l.drift(s), l.warnings...)}
	for _, f := range files {
		got := l.landed[f.wp.Abs]
		sess.Commit(f.plan, f.wp.Abs, got)
		res.Files = append(res.Files, PatchFile{Path: f.wp.Rel, Tag: string(got.Tag()), Header: hashline.Header(f.wp.Rel, got.Tag())})
	}
	if res.Warnings == nil {
		res.Warnings = []hashline.Warning{}
	}
	sess.Succeed(key)
	return res, nil
}

// patchFiles files the sections of a patch under the files they name, in
// the order the patch first names them, and adds the problems of sections
// that name no file in the workspace.
func (s *Server) patchFiles(secs []hashline.PatchSection, problems []hashline.Problem) ([]*patchFile, []hashline.Problem) {
	var files []*patchFile
	byPath := map[string]*patchFile{}
	// Syntax problems name a section's path as written; they are filed
	// under the file's one name, as the other problems are, so a file
	// spelled two ways is not listed twice.
	names := map[string]string{}
	for _, sec := range secs {
		if sec.Path == "" {
			continue // the parser reported the header that names no file
		}
		wp, err := s.resolve(sec.Path)
		if err != nil {
			he := hashline.AsError(err)
			problems = append(problems, hashline.Problem{Path: sec.Path, Line: sec.Line, Code: he.Code, Message: fmt.Sprintf("@@ %s (patch line %d): %s", sec.Path, sec.Line, he.Message)})
			continue
		}
		f := byPath[wp.Abs]
		if f == nil {
			f = &patchFile{wp: wp}
			byPath[wp.Abs] = f
			files = append(files, f)
		}
		f.ops = append(f.ops, sec.Ops...)
		names[sec.Path] = wp.Rel
	}
	for i, p := range problems {
		if rel, ok := names[p.Path]; ok {
			problems[i].Path = rel
		}
	}
	return files, problems
}

// planPatchFile plans f's ops against live, its text as it is now, and
// returns the problems that stop it.
func (s *Server) planPatchFile(sess *hashline.Session, f *patchFile, live documents.Live) []hashline.Problem {
	f.live = live
	switch {
	case !live.Exists():
		return []hashline.Problem{{Path: f.wp.Rel, Code: hashline.CodeInvalidArgument,
			Message: fmt.Sprintf("there is no file at %s: a patch changes existing files; create it with hashline_write", f.wp.Rel)}}
	case !s.Stateless && !sess.HasRead(f.wp.Abs):
		return []hashline.Problem{{Path: f.wp.Rel, Code: hashline.CodeTagUnknown,
			Message: fmt.Sprintf("%s was never read in this session: read it first (hashline_read with anchors \"line\"), then build the patch from that read", f.wp.Rel)}}
	case len(f.ops) == 0:
		// Its sections' ops were all refused by the parser, which said
		// why; planning nothing would only add "no change".
		return nil
	}
	plan, probs := hashline.PlanPatch(f.wp.Abs, f.wp.Rel, f.ops, live.Text)
	f.plan = plan
	return probs
}

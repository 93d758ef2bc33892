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

// PatchArgs are the arguments of hashline.patch.
type PatchArgs struct {
	Common
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

// patch runs a kli patch (DESIGN §7): every anchor of every file is
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

	s.sync(ctx)
	for _, f := range files {
		probs, err := s.planPatchFile(ctx, sess, f)
		if err != nil {
			return nil, err
		}
		problems = append(problems, probs...)
	}
	key := "patch:" + strings.Join(paths, "\x00")
	if len(problems) > 0 {
		err := hashline.PatchError(problems)
		sess.Fail(key, a.Turn, "patch-command", err)
		return nil, err
	}
	cs := documents.ChangeSet{Label: fmt.Sprintf("hashline: patch of %d file(s)", len(files))}
	for _, f := range files {
		old := f.live
		cs.Files = append(cs.Files, documents.FileChange{Kind: documents.Modify, Path: f.wp.Abs, Old: &old, Edits: f.plan.Edits, Hunks: f.plan.Hunks, New: f.plan.New})
	}
	landed, err := s.Sink.Apply(ctx, cs)
	if err != nil {
		err = s.partial(ctx, files, err)
		he := hashline.AsError(err)
		sess.Fail(key, a.Turn, "patch-command", he)
		return nil, he
	}
	landed, unsaved := s.save(ctx, cs, landed)
	res, err := patchResult(sess, files, landed)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, unsaved...)
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

// planPatchFile plans f's ops against its live text, and returns the
// problems that stop it.
func (s *Server) planPatchFile(ctx context.Context, sess *hashline.Session, f *patchFile) ([]hashline.Problem, error) {
	live, err := s.Source.Live(ctx, f.wp.Abs)
	if err != nil {
		return nil, err
	}
	f.live = live
	switch {
	case !live.Exists():
		return []hashline.Problem{{Path: f.wp.Rel, Code: hashline.CodeInvalidArgument,
			Message: fmt.Sprintf("there is no file at %s: a patch changes existing files; create it with hashline_write", f.wp.Rel)}}, nil
	case !s.Stateless && !sess.HasRead(f.wp.Abs):
		return []hashline.Problem{{Path: f.wp.Rel, Code: hashline.CodeTagUnknown,
			Message: fmt.Sprintf("%s was never read in this session: read it first (hashline_read with anchors \"line\"), then build the patch from that read", f.wp.Rel)}}, nil
	case len(f.ops) == 0:
		// Its sections' ops were all refused by the parser, which said
		// why; planning nothing would only add "no change".
		return nil, nil
	}
	plan, probs := hashline.PlanPatch(f.wp.Abs, f.wp.Rel, f.ops, live.Text)
	f.plan = plan
	return probs, nil
}

// patchResult commits what the patch left in each file to the session and
// reports it.
func patchResult(sess *hashline.Session, files []*patchFile, landed documents.Landed) (*PatchResult, error) {
	res := &PatchResult{OK: true, Warnings: []hashline.Warning{}}
	for _, f := range files {
		got := landed[f.wp.Abs]
		if got == nil {
			return nil, hashline.Errorf(hashline.CodeToolFailed, "the patch was applied but the text of %s could not be read back: read it to see what it holds", f.wp.Rel)
		}
		sess.Commit(f.plan, f.wp.Abs, got)
		if w, drifted := landedDrift(f.plan.New, got); drifted {
			res.Warnings = append(res.Warnings, hashline.Warning{Kind: hashline.WarnLanded, Message: f.wp.Rel + ": " + w})
		}
		res.Files = append(res.Files, PatchFile{Path: f.wp.Rel, Tag: string(got.Tag()), Header: hashline.Header(f.wp.Rel, got.Tag())})
	}
	return res, nil
}

// partialWait bounds how long a refused patch is watched for files the
// editor applied anyway; it covers Neovim's 150 ms didChange debounce.
const partialWait = 500 * time.Millisecond

// partial explains a change set the editor refused: an editor that does
// not apply multi-file edits all or nothing may have applied some files, and
// the model must know which.
func (s *Server) partial(ctx context.Context, files []*patchFile, cause error) error {
	if !errors.Is(cause, documents.ErrNotApplied) {
		return cause
	}
	// Editors report what they applied after they answer, so look for a
	// while before concluding a file was left alone.
	var done, not []string
	for deadline := time.Now().Add(partialWait); ; {
		done, not = done[:0], not[:0]
		for _, f := range files {
			now, err := s.Source.Live(ctx, f.wp.Abs)
			if err == nil && now.Exists() && now.Text.Raw() == f.plan.New.Raw() {
				done = append(done, f.wp.Rel)
			} else {
				not = append(not, f.wp.Rel)
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
	sort.Strings(done)
	if len(done) == 0 {
		return &hashline.Error{Code: hashline.CodeTagMismatch,
			Message: fmt.Sprintf("the editor refused the patch (%v), so nothing was written: read the files again with anchors \"line\" and resend", cause)}
	}
	return hashline.Errorf(hashline.CodeToolFailed,
		"the editor applied the patch to %s but not to %s (it does not apply multi-file edits all or nothing): read those files again and patch what is missing",
		strings.Join(done, ", "), strings.Join(not, ", "))
}

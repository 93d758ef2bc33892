package commands

import (
	"context"
	"strings"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// WriteArgs are the arguments of hashline.write.
type WriteArgs struct {
	Common
	Planning
	Path    string `json:"path"`
	Content string `json:"content"`
}

// WriteResult is the result of hashline.write (docs/contract.md §16.3).
type WriteResult struct {
	OK       bool               `json:"ok"`
	Path     string             `json:"path"`
	Tag      string             `json:"tag"`
	Header   string             `json:"header"`
	Created  bool               `json:"created"`
	Warnings []hashline.Warning `json:"warnings"`
	rendered
}

func (s *Server) write(ctx context.Context, a WriteArgs) (Result, error) {
	wp, err := s.resolve(a.Path)
	if err != nil {
		return nil, err
	}
	content, stripped := hashline.StripPasted(a.Content)
	res := &WriteResult{OK: true, Path: wp.Rel, Warnings: []hashline.Warning{}}
	for _, w := range stripped {
		res.Warnings = append(res.Warnings, hashline.Warning{Kind: hashline.WarnStripped, Message: w})
	}
	sess := s.Sessions.Get(a.sessionName())
	unlock, err := s.lock(ctx, a.sessionName(), wp.Abs)
	if err != nil {
		return nil, err
	}
	defer unlock()

	var intended *hashline.Text
	var notes []hashline.Warning
	planWrite := func(live map[string]documents.Live) (documents.ChangeSet, error) {
		lv := live[wp.Abs]
		cs := documents.ChangeSet{Label: "hashline: write " + wp.Rel}
		notes, res.Created = nil, !lv.Exists()
		if res.Created {
			intended = hashline.NewText(s.newFileText(content))
			cs.Files = append(cs.Files, documents.FileChange{Kind: documents.Create, Path: wp.Abs, New: intended})
			return cs, nil
		}
		if w, ok := unreadChanges(sess, wp.Abs, lv.Text); ok {
			notes = append(notes, hashline.Warning{Kind: hashline.WarnDrift, Message: w})
		}
		intended = hashline.NewText(conform(content, lv.Text))
		if intended.Raw() == lv.Text.Raw() {
			return cs, nil // nothing to land: the file holds the content
		}
		old := lv
		fc := documents.FileChange{Kind: documents.Modify, Path: wp.Abs, Old: &old, New: intended}
		fc.Edits, fc.Hunks = lineEdits(lv.Text, intended)
		cs.Files = append(cs.Files, fc)
		return cs, nil
	}
	if a.DryRun {
		dry, err := s.plan(ctx, []workspace.Path{wp}, planWrite, res.Warnings...)
		if err != nil {
			return nil, err
		}
		dry.Warnings = append(dry.Warnings, notes...)
		return dry, nil
	}
	l, err := s.land(ctx, "write", []workspace.Path{wp}, planWrite)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, notes...)
	got := intended
	if len(l.cs.Files) == 0 {
		sess.Record(wp.Abs, got, hashline.FullLineSet(got.Len()))
	} else {
		got = l.landed[wp.Abs]
		sess.RecordLanded(wp.Abs, intended, got)
		res.Warnings = append(append(res.Warnings, l.drift(s)...), l.warnings...)
	}
	res.Tag, res.Header = string(got.Tag()), hashline.Header(wp.Rel, got.Tag())
	return res, nil
}

// conform gives new content the conventions of the file it replaces: its
// BOM and, when the content uses plain LF, the file's dominant line ending.
func conform(content string, old *hashline.Text) string {
	if old.EOL() != "\n" && !strings.Contains(content, "\r") {
		content = strings.ReplaceAll(content, "\n", old.EOL())
	}
	if old.HasBOM() && !strings.HasPrefix(content, "\uFEFF") {
		content = "\uFEFF" + content
	}
	return content
}

// lineEdits are the edits that turn old into next line by line, so
// an editor keeps its marks on every line the write leaves as it was. When
// line-wise edits would not give exactly next (its final newline or a line
// ending differs from old's), it falls back to one edit.
func lineEdits(old, next *hashline.Text) ([]hashline.ByteEdit, []hashline.Hunk) {
	if hunks, ok := hashline.LineHunks(old, next); ok {
		if edits := old.Edits(hunks); hashline.ApplyEdits(old.Raw(), edits) == next.Raw() {
			return edits, hunks
		}
	}
	return wholeEdits(old, next), nil
}

// wholeEdits is one byte edit from old to next that spares the lines both
// share at the start and at the end, so an editor keeps its marks there. Its
// ends sit on line starts of old, never inside a CRLF or a character.
func wholeEdits(old, next *hashline.Text) []hashline.ByteEdit {
	a, b := old.Raw(), next.Raw()
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for pre > 0 && !lineStart(a, pre) {
		pre--
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for suf > 0 && !lineStart(a, len(a)-suf) {
		suf--
	}
	return []hashline.ByteEdit{{Start: pre, End: len(a) - suf, New: b[pre : len(b)-suf]}}
}

// lineStart reports whether a line of s begins at i: after an LF, or after
// a CR that no LF follows.
func lineStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	c := s[i-1]
	return c == '\n' || c == '\r' && (i == len(s) || s[i] != '\n')
}

// unreadChanges warns when a write replaces text the session never read:
// the file holds none of the versions this session recorded for it.
func unreadChanges(sess *hashline.Session, abs string, live *hashline.Text) (string, bool) {
	versions := sess.Snapshots(abs)
	if len(versions) == 0 {
		return "", false
	}
	for _, v := range versions {
		if v.Digest == live.Digest() {
			return "", false
		}
	}
	return "the file had changed since this session last read it; those changes were replaced by this write (the editor's undo restores them)", true
}

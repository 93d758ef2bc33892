package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"hashline-ls/commands"
	"hashline-ls/documents"
	"hashline-ls/hashline"
)

// source reads the editor's buffer for documents it holds, the disk for the
// rest (DESIGN §2).
type source struct{ s *Server }

func (src source) Live(_ context.Context, abs string) (documents.Live, error) {
	if d, ok := src.s.docs.Get(abs); ok {
		return documents.Live{Text: hashline.NewText(d.Text), Version: d.Version, Open: true}, nil
	}
	return documents.ReadDisk(abs)
}

// sink lands change sets through workspace/applyEdit (DESIGN §5), falling
// back to the disk when the client cannot apply edits.
type sink struct{ s *Server }

// The types below are ours because protocol v0.12.0 decodes applyEdit's
// result as a bool and allows only text edits in documentChanges.

type applyParams struct {
	Label string        `json:"label,omitempty"`
	Edit  workspaceEdit `json:"edit"`
}

type workspaceEdit struct {
	DocumentChanges   []any                       `json:"documentChanges,omitempty"`
	Changes           map[string][]textEdit       `json:"changes,omitempty"`
	ChangeAnnotations map[string]changeAnnotation `json:"changeAnnotations,omitempty"`
}

type changeAnnotation struct {
	Label             string `json:"label"`
	NeedsConfirmation bool   `json:"needsConfirmation"`
	Description       string `json:"description,omitempty"`
}

type textEdit struct {
	Range        protocol.Range `json:"range"`
	NewText      string         `json:"newText"`
	AnnotationID string         `json:"annotationId,omitempty"`
}

type textDocumentEdit struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"` // null: the file as on disk
	} `json:"textDocument"`
	Edits []textEdit `json:"edits"`
}

type resourceOp struct {
	Kind         string          `json:"kind"` // create, rename, delete
	URI          string          `json:"uri,omitempty"`
	OldURI       string          `json:"oldUri,omitempty"`
	NewURI       string          `json:"newUri,omitempty"`
	Options      map[string]bool `json:"options,omitempty"`
	AnnotationID string          `json:"annotationId,omitempty"`
}

type applyResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
	FailedChange  *int   `json:"failedChange,omitempty"`
}

const annotationID = "hashline"

// applyEditTimeout bounds the wait for the editor's answer to applyEdit.
const applyEditTimeout = 60 * time.Second

func (k sink) Apply(ctx context.Context, cs documents.ChangeSet) (documents.Landed, error) {
	caps := k.s.capabilities()
	if !caps.Workspace.ApplyEdit {
		return documents.Disk{}.Apply(ctx, cs)
	}
	if kind, ok := k.unsupported(cs, caps); ok {
		// A file the editor does not hold can take the operation on disk;
		// one it holds must not change under its buffer.
		for _, fc := range cs.Files {
			if _, open := k.s.docs.Get(fc.Path); open {
				return nil, hashline.Errorf(hashline.CodeToolFailed, "the editor cannot %s files through edits and holds %s open: close it, or do this outside the editor", kind, fc.Path)
			}
		}
		return documents.Disk{}.Apply(ctx, cs)
	}
	edit := k.workspaceEdit(cs, caps)
	seqs := map[string]uint64{}
	for _, fc := range cs.Files {
		for _, p := range []string{fc.Path, fc.NewPath} {
			if d, ok := k.s.docs.Get(p); ok && p != "" {
				seqs[p] = d.Seq
			}
		}
	}
	// The change was proven against the text the editor held then, or
	// against the disk for a file it did not hold: if either moved since,
	// the positions may be wrong, so let the caller prove it again.
	for _, fc := range cs.Files {
		if fc.Old != nil && fc.Old.Text != nil && !k.unchanged(fc) {
			return nil, fmt.Errorf("%w: %s changed since the edit was checked", commands.ErrNotApplied, fc.Path)
		}
	}
	var res applyResult
	// A client that never answers must not hold the session forever.
	callCtx, cancel := context.WithTimeout(ctx, applyEditTimeout)
	_, err := k.s.conn.Call(callCtx, protocol.MethodWorkspaceApplyEdit, applyParams{Label: cs.Label, Edit: edit}, &res)
	cancel()
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil, hashline.Errorf(hashline.CodeToolFailed, "the editor did not answer workspace/applyEdit within %s: check the editor (a dialog may be waiting), then read the file to see whether the edit landed", applyEditTimeout)
	}
	if err != nil && ctx.Err() != nil {
		// The edit is on its way to the editor, which may still apply it:
		// that is not a cancellation before anything was written.
		return nil, hashline.Errorf(hashline.CodeToolFailed, "the request was cancelled while the editor was applying the edit: read the file to see whether it landed before doing anything else")
	}
	if err != nil {
		return nil, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	if !res.Applied {
		reason := res.FailureReason
		if reason == "" {
			reason = "no reason given"
		}
		return nil, fmt.Errorf("%w (%s)", commands.ErrNotApplied, reason)
	}
	deadline := time.Now().Add(k.s.landTimeout())
	landed := documents.Landed{}
	for _, fc := range cs.Files {
		switch fc.Kind {
		case documents.Modify:
			t, err := k.await(ctx, fc.Path, fc.Old.Text, fc.Hunks, fc.New.Raw(), seqs[fc.Path], deadline)
			if err != nil {
				return nil, err
			}
			landed[fc.Path] = t
		case documents.Create:
			t, err := k.await(ctx, fc.Path, nil, nil, fc.New.Raw(), seqs[fc.Path], deadline)
			if err != nil {
				return nil, err
			}
			landed[fc.Path] = t
		case documents.Rename:
			t, err := k.await(ctx, fc.NewPath, fc.Old.Text, fc.Hunks, fc.New.Raw(), seqs[fc.NewPath], deadline)
			if err != nil {
				return nil, err
			}
			landed[fc.NewPath] = t
		case documents.Delete:
			if err := k.awaitGone(ctx, fc.Path, deadline); err != nil {
				return nil, err
			}
		}
	}
	return landed, nil
}

// unchanged reports whether the file still holds the text fc was proven
// against, where it was: in the editor's buffer, or on disk.
func (k sink) unchanged(fc documents.FileChange) bool {
	if d, ok := k.s.docs.Get(fc.Path); ok {
		return fc.Old.Open && d.Text == fc.Old.Text.Raw()
	}
	if fc.Old.Open {
		return false
	}
	b, err := os.ReadFile(fc.Path)
	return err == nil && string(b) == fc.Old.Text.Raw()
}

// unsupported names a resource operation the change set needs and the
// client did not announce.
func (k sink) unsupported(cs documents.ChangeSet, caps clientCaps) (string, bool) {
	for _, fc := range cs.Files {
		kind := map[documents.ChangeKind]string{documents.Create: "create", documents.Rename: "rename", documents.Delete: "delete"}[fc.Kind]
		if kind != "" && !caps.resourceOp(kind) {
			return kind, true
		}
	}
	return "", false
}

// workspaceEdit turns a change set into the edit the client applies: the
// smallest text edits, versioned by the buffer version they were proven
// against, with resource operations for create, rename and delete.
func (k sink) workspaceEdit(cs documents.ChangeSet, caps clientCaps) workspaceEdit {
	enc := k.s.docs.Encoding()
	ann := ""
	var we workspaceEdit
	if caps.annotations() {
		ann = annotationID
		we.ChangeAnnotations = map[string]changeAnnotation{ann: {Label: cs.Label, Description: "an edit proven against the live text by hashline-ls"}}
	}
	if !caps.documentChanges() {
		// Only plain text edits reach here: resource operations need
		// documentChanges and were diverted to the disk.
		we.Changes = map[string][]textEdit{}
		for _, fc := range cs.Files {
			we.Changes[k.uriOf(fc.Path)] = textEdits(fc.Old, fc.Edits, enc, ann)
		}
		return we
	}
	for _, fc := range cs.Files {
		switch fc.Kind {
		case documents.Modify, documents.Rename:
			if len(fc.Edits) > 0 {
				tde := textDocumentEdit{Edits: textEdits(fc.Old, fc.Edits, enc, ann)}
				tde.TextDocument.URI = k.uriOf(fc.Path)
				if fc.Old.Open {
					v := fc.Old.Version
					tde.TextDocument.Version = &v
				}
				we.DocumentChanges = append(we.DocumentChanges, tde)
			}
			if fc.Kind == documents.Rename {
				we.DocumentChanges = append(we.DocumentChanges, resourceOp{Kind: "rename", OldURI: k.uriOf(fc.Path), NewURI: fileURI(fc.NewPath),
					Options: map[string]bool{"overwrite": false, "ignoreIfExists": false}, AnnotationID: ann})
			}
		case documents.Create:
			uri := fileURI(fc.Path)
			we.DocumentChanges = append(we.DocumentChanges, resourceOp{Kind: "create", URI: uri, Options: map[string]bool{"overwrite": false, "ignoreIfExists": false}, AnnotationID: ann})
			if fc.New.Raw() != "" {
				// An insert at 0:0: a range past the empty file's only
				// line would be out of bounds for a strict client.
				tde := textDocumentEdit{Edits: []textEdit{{NewText: fc.New.Raw(), AnnotationID: ann}}}
				tde.TextDocument.URI = uri
				we.DocumentChanges = append(we.DocumentChanges, tde)
			}
		case documents.Delete:
			we.DocumentChanges = append(we.DocumentChanges, resourceOp{Kind: "delete", URI: k.uriOf(fc.Path), AnnotationID: ann})
		}
	}
	return we
}

// uriOf is the URI the client knows a file by: the one it opened the
// document with, else the file's own.
func (k sink) uriOf(path string) string {
	if d, ok := k.s.docs.Get(path); ok && d.URI != "" {
		return d.URI
	}
	return fileURI(path)
}

// textEdits converts byte edits of old's raw text to LSP text edits. A
// file read from disk may start with a BOM that an editor's buffer does not
// hold as a character, so positions are counted after it.
func textEdits(old *documents.Live, edits []hashline.ByteEdit, enc documents.Encoding, ann string) []textEdit {
	raw := old.Text.Raw()
	shift := 0
	if !old.Open && old.Text.HasBOM() {
		shift = len("\uFEFF")
		raw = raw[shift:]
	}
	idx := documents.NewLineIndex(raw)
	out := make([]textEdit, len(edits))
	for i, e := range edits {
		start := idx.PositionAt(raw, e.Start-shift, enc)
		end := idx.PositionAt(raw, e.End-shift, enc)
		out[i] = textEdit{
			Range: protocol.Range{
				Start: protocol.Position{Line: start.Line, Character: start.Character},
				End:   protocol.Position{Line: end.Line, Character: end.Character},
			},
			NewText:      e.New,
			AnnotationID: ann,
		}
	}
	return out
}

// settle is how long the text must stay quiet, after it first changed into
// something other than what was sent, before it is taken as landed: an
// on-type rule or formatter often follows the edit at once.
const settle = 150 * time.Millisecond

// await waits until the file at path holds text that differs from before
// (or equals want), and returns it: at once when it equals want, else once
// it has been quiet for settle. The editor reports the change after it
// answers applyEdit (real editors do); a file the editor does not hold is
// watched on disk. No change by the deadline is a failure, never a success:
// an editor may answer "applied" for an edit it skipped. A created file has
// no old text, so an empty file that is only the first half of a create
// does not count as landed.
//
// With old and hunks, a change counts only when it shows the edit itself
// (hashline.Landed): a keystroke that arrives while the editor skipped the
// edit is not the edit landing.
func (k sink) await(ctx context.Context, path string, old *hashline.Text, hunks []hashline.Hunk, want string, seq uint64, deadline time.Time) (*hashline.Text, error) {
	before := ""
	if old != nil {
		before = old.Raw()
	}
	var last string
	var lastAt time.Time
	seen, landed := false, false
	for {
		if cur, ok := k.current(path); ok && (!seen || withBOM(cur, want) != last) {
			last, lastAt, seen = withBOM(cur, want), time.Now(), true
			switch {
			case last == want:
				landed = true
			case old == nil:
				// A new file an editor shows before its text arrives is
				// empty, or one empty line.
				landed = strings.Trim(last, "\r\n") != ""
			default:
				landed = last != before && (hunks == nil || hashline.Landed(old, hunks, hashline.NewText(last)))
			}
		}
		changed := seen && landed
		if changed && last == want {
			return hashline.NewText(want), nil
		}
		if changed && time.Since(lastAt) >= settle {
			return hashline.NewText(last), nil
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			if changed {
				return hashline.NewText(last), nil
			}
			e := &hashline.Error{Code: hashline.CodeToolFailed, Details: hashline.Details{LiveTag: string(hashline.TagOf(last))},
				Message: fmt.Sprintf("the editor answered that it applied the edit, but %s did not change within %s (an editor skips an edit made against a stale buffer version): nothing was recorded as written; read the file again and retry", path, k.s.landTimeout())}
			if seen && last != before {
				e.Message = fmt.Sprintf("the editor answered that it applied the edit, and %s changed, but not as the edit intended (the editor may have placed it at other lines, or the change is the user's): nothing was recorded as written; read the file, undo in the editor whatever is wrong, and retry", path)
			}
			return nil, e
		}
		if changed {
			wait = min(wait, settle-time.Since(lastAt))
		}
		// Short slices, so the disk is polled too: an editor may write a
		// file it does not show.
		if d, ok := k.s.docs.Wait(ctx, path, seq, min(wait, 50*time.Millisecond)); ok {
			seq = d.Seq
		}
		if ctx.Err() != nil {
			// The editor said it applied the edit: that is no longer a
			// cancellation before anything was written.
			return nil, hashline.Errorf(hashline.CodeToolFailed, "the editor applied the edit to %s, but the wait for its text was cancelled: read the file before anything else, since the edit is most likely in it", path)
		}
	}
}

// withBOM gives a buffer's text the BOM the file keeps: editors hold a BOM
// outside the text (VS Code's encoding, Neovim's 'bomb'), so a buffer opened
// from a file that has one reports its text without it, unchanged or not.
func withBOM(cur, want string) string {
	const bom = "\uFEFF"
	if strings.HasPrefix(want, bom) && !strings.HasPrefix(cur, bom) {
		return bom + cur
	}
	return cur
}

// current is the file's text as the editor or the disk holds it now.
func (k sink) current(path string) (string, bool) {
	if d, ok := k.s.docs.Get(path); ok {
		return d.Text, true
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// awaitGone waits until a deleted file is gone from the disk.
func (k sink) awaitGone(ctx context.Context, path string, deadline time.Time) error {
	for {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return hashline.Errorf(hashline.CodeToolFailed, "the editor answered that it deleted %s, but the file is still there: check the editor, and read the file if it should stay", path)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

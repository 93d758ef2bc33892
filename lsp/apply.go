package lsp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"hashline-ls/documents"
	"hashline-ls/hashline"
)

// sink lands change sets through workspace/applyEdit (docs/design.md §5), falling
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

// Apply sends cs as one workspace edit and has a documents.Landing decide
// what landed. The store's Seq is noted first, so the Landing can tell the
// editor's report of the edit from what came before it.
func (k sink) Apply(ctx context.Context, cs documents.ChangeSet) (documents.Landed, error) {
	caps := k.s.capabilities()
	if !caps.Workspace.ApplyEdit {
		return k.disk().Apply(ctx, cs)
	}
	if kind, ok := k.unsupported(cs, caps); ok {
		// A file the editor does not hold can take the operation on disk;
		// one it holds must not change under its buffer.
		for _, fc := range cs.Files {
			if _, open := k.s.docs.Get(fc.Path); open {
				return nil, hashline.Errorf(hashline.CodeToolFailed, "the editor cannot %s files through edits and holds %s open: close it, or do this outside the editor", kind, fc.Path)
			}
		}
		return k.disk().Apply(ctx, cs)
	}
	edit, sent := k.workspaceEdit(cs, caps)
	after := k.s.docs.Seq()
	watch, err := k.s.docs.Watch(cs)
	if err != nil {
		return nil, err
	}
	defer watch.End()
	if err := k.applyEdit(ctx, applyParams{Label: cs.Label, Edit: edit}); err != nil {
		return nil, err
	}
	landed, err := documents.NewLanding(cs).Watching(watch, sent, k.s.docs.Encoding()).Await(ctx, k.s.docs, after, k.s.landTimeout())
	var m *documents.Misplaced
	if errors.As(err, &m) {
		return nil, k.undo(ctx, m)
	}
	return landed, err
}

// undo takes back an edit the editor applied at the wrong place: its exact
// inverse goes to the editor for the text the edit left, and is awaited
// like any edit. Undone, the edit may be planned again (an *Undone is
// ErrNotApplied); when the text moved on since, or the undo does not land,
// the error says where the edit went, for the person to undo.
func (k sink) undo(ctx context.Context, m *documents.Misplaced) error {
	stuck := func(why string) error {
		return hashline.Errorf(hashline.CodeToolFailed, "the editor applied the edit of %s at lines %d-%d, to text the person had changed since it was checked (it does not check the version an edit is made for), and %s: undo it in the editor, read the file again, and retry",
			m.Path, m.Lines[0], m.Lines[1], why)
	}
	d, open := k.s.docs.Get(m.Path)
	if !open || d.Text != m.Result {
		return stuck("the text changed again since, so hashline-ls could not undo it safely")
	}
	tde := textDocumentEdit{}
	tde.TextDocument.URI = k.uriOf(m.Path)
	tde.TextDocument.Version = &d.Version
	for _, c := range m.Undo {
		tde.Edits = append(tde.Edits, textEdit{Range: protocol.Range{
			Start: protocol.Position{Line: c.Range.Start.Line, Character: c.Range.Start.Character},
			End:   protocol.Position{Line: c.Range.End.Line, Character: c.Range.End.Character},
		}, NewText: c.Text})
	}
	after := k.s.docs.Seq()
	if err := k.applyEdit(ctx, applyParams{Edit: workspaceEdit{DocumentChanges: []any{tde}}}); err != nil {
		return stuck(fmt.Sprintf("undoing it failed (%v)", err))
	}
	back := documents.ChangeSet{Files: []documents.FileChange{{Kind: documents.Modify, Path: m.Path,
		Old: &documents.Live{Text: hashline.NewText(m.Result), Version: d.Version, Open: true}, New: hashline.NewText(m.Applied)}}}
	if _, err := documents.NewLanding(back).Await(ctx, k.s.docs, after, k.s.landTimeout()); err != nil {
		return stuck(fmt.Sprintf("undoing it did not land (%v)", err))
	}
	k.s.log.Warn("undid an edit the editor applied at the wrong place", zap.String("path", m.Path), zap.Ints("lines", m.Lines[:]))
	return &documents.Undone{Misplaced: m}
}

// disk writes where the editor cannot, confined to the server's roots.
func (k sink) disk() documents.Disk { return documents.Disk{Roots: k.s.cmds.Roots} }

// answerGrace is how long a cancelled applyEdit still waits for the
// editor's answer, which the read loop may have delivered already.
const answerGrace = 100 * time.Millisecond

// applyEdit sends workspace/applyEdit and translates the editor's answer.
func (k sink) applyEdit(ctx context.Context, params applyParams) error {
	bound := k.s.applyEditTimeout()
	res, err := k.callApplyEdit(ctx, params, bound)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return hashline.Errorf(hashline.CodeToolFailed, "the editor did not answer workspace/applyEdit within %s (the applyEditTimeoutMs setting): check the editor (a dialog may be waiting), then read the file to see whether the edit landed", bound)
	}
	if err != nil && ctx.Err() != nil {
		// The edit is on its way to the editor, which may still apply it:
		// that is not a cancellation before anything was written.
		return hashline.Errorf(hashline.CodeToolFailed, "the request was cancelled while the editor was applying the edit: read the file to see whether it landed before doing anything else")
	}
	if err != nil {
		return fmt.Errorf("workspace/applyEdit: %w", err)
	}
	if !res.Applied {
		reason := res.FailureReason
		if reason == "" {
			reason = "no reason given"
		}
		k.s.log.Debug("the editor refused the edit", zap.String("reason", reason))
		return fmt.Errorf("%w (%s)", documents.ErrNotApplied, reason)
	}
	return nil
}

// callApplyEdit sends the request and waits for the answer, the request's
// cancellation, or bound (the applyEditTimeoutMs setting). jsonrpc2's Call
// picks at random between an answer already delivered and a context
// cancelled since, and the read loop delivers the answer before it reads
// what cancels the request (a $/cancelRequest, a shutdown): so the call
// runs on its own context, and a cancellation still takes an answer that
// is in, or comes within answerGrace.
func (k sink) callApplyEdit(ctx context.Context, params applyParams, bound time.Duration) (applyResult, error) {
	type answer struct {
		res applyResult
		err error
	}
	// A client that never answers must not hold the session forever.
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bound)
	defer cancel()
	ch := make(chan answer, 1)
	go func() {
		var a answer
		_, a.err = k.s.conn.Call(callCtx, protocol.MethodWorkspaceApplyEdit, params, &a.res)
		ch <- a
	}()
	select {
	case a := <-ch:
		return a.res, a.err
	case <-ctx.Done():
	}
	select {
	case a := <-ch:
		return a.res, a.err
	case <-time.After(answerGrace):
		return applyResult{}, ctx.Err()
	}
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
// against, with resource operations for create, rename and delete. sent
// are the text edits of each open document, as changes of its text.
func (k sink) workspaceEdit(cs documents.ChangeSet, caps clientCaps) (we workspaceEdit, sent map[string][]documents.Change) {
	enc := k.s.docs.Encoding()
	ann := ""
	sent = map[string][]documents.Change{}
	if caps.annotations() {
		ann = annotationID
		we.ChangeAnnotations = map[string]changeAnnotation{ann: {Label: cs.Label, Description: "an edit proven against the live text by hashline-ls"}}
	}
	if !caps.documentChanges() {
		// Only plain text edits reach here: resource operations need
		// documentChanges and were diverted to the disk.
		we.Changes = map[string][]textEdit{}
		for _, fc := range cs.Files {
			tes := textEdits(fc.Old, fc.Edits, enc, ann)
			we.Changes[k.uriOf(fc.Path)] = tes
			sent[fc.Path] = changesOf(tes)
		}
		return we, sent
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
					sent[fc.Path] = changesOf(tde.Edits)
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
	return we, sent
}

// changesOf are text edits as changes of the text they were made for.
func changesOf(edits []textEdit) []documents.Change {
	out := make([]documents.Change, len(edits))
	for i, e := range edits {
		r := documents.Range{
			Start: documents.Position{Line: e.Range.Start.Line, Character: e.Range.Start.Character},
			End:   documents.Position{Line: e.Range.End.Line, Character: e.Range.End.Character},
		}
		out[i] = documents.Change{Range: &r, Text: e.NewText}
	}
	return out
}

// uriOf is the URI the client knows a file by: the one it opened the
// document with, else the file's own.
func (k sink) uriOf(path string) string {
	if d, ok := k.s.docs.Get(path); ok && d.URI != "" {
		return d.URI
	}
	return fileURI(path)
}

// textEdits converts byte edits of old's raw text to LSP text edits, each
// narrowed to what it changes: the person typing in the buffer keeps the
// cursor on a line the edit rewrites around it. A file read from disk may
// start with a BOM that an editor's buffer does not hold as a character,
// so positions are counted after it.
func textEdits(old *documents.Live, edits []hashline.ByteEdit, enc documents.Encoding, ann string) []textEdit {
	full := old.Text.Raw()
	raw := full
	shift := 0
	if !old.Open && old.Text.HasBOM() {
		shift = len("\uFEFF")
		raw = raw[shift:]
	}
	idx := documents.NewLineIndex(raw)
	out := make([]textEdit, 0, len(edits))
	for _, e := range edits {
		if e = hashline.Narrow(full, e); e.Start == e.End && e.New == "" {
			continue
		}
		start := idx.PositionAt(raw, max(e.Start-shift, 0), enc)
		end := idx.PositionAt(raw, max(e.End-shift, 0), enc)
		out = append(out, textEdit{
			Range: protocol.Range{
				Start: protocol.Position{Line: start.Line, Character: start.Character},
				End:   protocol.Position{Line: end.Line, Character: end.Character},
			},
			NewText:      e.New,
			AnnotationID: ann,
		})
	}
	return out
}

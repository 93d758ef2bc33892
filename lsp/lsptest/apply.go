package lsptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// applyEdit applies a workspace edit the way the behaviour says, then
// queues the answer and the notifications in the behaviour's order.
func (e *Editor) applyEdit(reply jsonrpc2.Replier, params json.RawMessage) {
	bg := context.Background()
	var req ApplyEditRequest
	if err := json.Unmarshal(params, &req); err != nil {
		e.t.Errorf("applyEdit params %s: %v", params, err)
		e.send(func() { _ = reply(bg, map[string]any{"applied": false, "failureReason": err.Error()}, nil) })
		return
	}
	e.mu.Lock()
	e.applies = append(e.applies, req)
	b := e.behave
	if b.Unanswered {
		e.mu.Unlock()
		e.applyArrived <- struct{}{}
		return
	}
	answer := map[string]any{"applied": true}
	var notes []note
	var hook func(*Editor)
	switch {
	case b.Refuse > 0:
		e.behave.Refuse--
		hook = b.OnRefuse
		answer["applied"] = false
	case b.SkipAll:
	default:
		var err error
		var applied bool
		notes, applied, err = e.applyLocked(req, b)
		if err != nil {
			e.t.Errorf("applying %s: %v", params, err)
			answer["failureReason"] = err.Error()
		}
		answer["applied"] = applied && err == nil
	}
	held := e.held
	e.held = nil
	e.mu.Unlock()
	select {
	case e.applyArrived <- struct{}{}:
	default:
	}
	if hook != nil {
		hook(e)
	}
	if b.BeforeAnswer {
		e.send(func() {
			e.sendNotes(held)
			e.sendNotes(notes)
			_ = reply(bg, answer, nil)
		})
		return
	}
	e.send(func() { _ = reply(bg, answer, nil) })
	if len(held)+len(notes) > 0 {
		e.send(func() {
			if b.Delay > 0 {
				time.Sleep(b.Delay)
			}
			e.sendNotes(held)
			e.sendNotes(notes)
		})
	}
}

// applyLocked applies req to the buffers and the disk and returns the
// notifications that tell the server. The caller holds e.mu.
func (e *Editor) applyLocked(req ApplyEditRequest, b ApplyBehaviour) ([]note, bool, error) {
	steps, err := stepsOf(req)
	if err != nil {
		return nil, false, err
	}
	// VS Code checks every version before it changes anything.
	if !b.StaleSkip && !b.IgnoreVersions {
		for _, s := range steps {
			if d, ok := s.(textEdit); ok && d.ver != nil {
				buf := e.bufs[e.PathOf(d.uri)]
				if buf == nil || buf.version != *d.ver {
					return nil, false, nil
				}
			}
		}
	}
	var notes []note
	last := map[string]*didChangeParams{}
	var changed []string
	for _, s := range steps {
		switch d := s.(type) {
		case DocumentChange:
			n, err := e.resourceLocked(d, last)
			if err != nil {
				return notes, false, err
			}
			notes = append(notes, n...)
		case textEdit:
			path := e.PathOf(d.uri)
			buf := e.bufs[path]
			if buf == nil {
				switch b.Unheld {
				case UnheldDisk:
					if err := e.editDisk(path, d.edits); err != nil {
						return notes, false, err
					}
					continue
				case UnheldHidden:
					continue
				}
				raw, err := os.ReadFile(path)
				if err != nil {
					return notes, false, err
				}
				buf = &buffer{uri: d.uri, version: 1, text: strings.TrimPrefix(string(raw), utf8BOM), bom: strings.HasPrefix(string(raw), utf8BOM)}
				e.bufs[path] = buf
				notes = append(notes, note{"textDocument/didOpen", openParams(buf)})
			}
			if d.ver != nil && *d.ver != buf.version && !b.IgnoreVersions {
				continue // Neovim 0.7 skips it; VS Code refused above
			}
			evs, err := applyTextEdits(&buf.text, d.edits, e.enc)
			if err != nil {
				return notes, false, err
			}
			p := buf.changed(e.step, evs...)
			last[path] = p
			notes = append(notes, note{"textDocument/didChange", p})
			changed = append(changed, path)
		}
	}
	notes = append(notes, e.formatLocked(b, changed, last)...)
	if b.Save {
		for _, path := range changed {
			if buf := e.bufs[path]; buf != nil {
				if err := buf.save(path); err != nil {
					return notes, false, err
				}
			}
		}
	}
	return notes, true, nil
}

// textEdit is the text edits of one document; a nil ver edits whatever
// version the editor holds.
type textEdit struct {
	uri   string
	ver   *int32
	edits []TextEdit
}

// stepsOf lists req's changes in the order the editor makes them, each a
// textEdit or a DocumentChange (a resource operation): the document
// changes, then the changes by URI, in URI order.
func stepsOf(req ApplyEditRequest) ([]any, error) {
	var steps []any
	for _, dc := range req.Edit.DocumentChanges {
		if dc.TextDocument == nil {
			if dc.Kind == "" {
				return nil, errors.New("a document change that is neither a text edit nor a resource operation")
			}
			steps = append(steps, dc)
			continue
		}
		v, err := dc.Version()
		if err != nil {
			return nil, err
		}
		steps = append(steps, textEdit{uri: dc.TextDocument.URI, ver: v, edits: dc.Edits})
	}
	uris := make([]string, 0, len(req.Edit.Changes))
	for uri := range req.Edit.Changes {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		steps = append(steps, textEdit{uri: uri, edits: req.Edit.Changes[uri]})
	}
	return steps, nil
}

// formatLocked runs b.Format over the buffers an edit changed, and returns
// the didChange notifications that report it; with b.FormatMerged the
// change goes into the edit's own didChange (last) instead. The caller
// holds e.mu.
func (e *Editor) formatLocked(b ApplyBehaviour, changed []string, last map[string]*didChangeParams) []note {
	var notes []note
	for _, path := range changed {
		buf := e.bufs[path]
		if buf == nil || b.Format == nil {
			continue
		}
		formatted := b.Format(buf.text)
		if formatted == buf.text {
			continue
		}
		ev := buf.rewrite(formatted, e.enc)
		if p := last[path]; b.FormatMerged && p != nil {
			p.ContentChanges = append(p.ContentChanges, ev)
			continue
		}
		notes = append(notes, note{"textDocument/didChange", buf.changed(e.step, ev)})
	}
	return notes
}

// resourceLocked performs a create, rename or delete on disk, moving or
// closing the buffer it concerns. The caller holds e.mu.
func (e *Editor) resourceLocked(d DocumentChange, last map[string]*didChangeParams) ([]note, error) {
	switch d.Kind {
	case "create":
		path := e.PathOf(d.URI)
		if _, err := os.Lstat(path); err == nil {
			switch {
			case d.Options["overwrite"]:
			case d.Options["ignoreIfExists"]:
				return nil, nil
			default:
				return nil, fmt.Errorf("create %s: the file exists", path)
			}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		return nil, os.WriteFile(path, nil, 0o644)
	case "rename":
		from, to := e.PathOf(d.OldURI), e.PathOf(d.NewURI)
		if _, err := os.Lstat(to); err == nil && !d.Options["overwrite"] {
			if d.Options["ignoreIfExists"] {
				return nil, nil
			}
			return nil, fmt.Errorf("rename to %s: the file exists", to)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return nil, err
		}
		if err := os.Rename(from, to); err != nil {
			return nil, err
		}
		buf := e.dropLocked(from, last)
		if buf == nil {
			return nil, nil
		}
		moved := &buffer{uri: URI(to), version: 1, text: buf.text, bom: buf.bom}
		e.bufs[to] = moved
		return []note{
			{"textDocument/didClose", closeParams(buf)},
			{"textDocument/didOpen", openParams(moved)},
		}, nil
	case "delete":
		path := e.PathOf(d.URI)
		if err := os.Remove(path); err != nil {
			return nil, err
		}
		buf := e.dropLocked(path, last)
		if buf == nil {
			return nil, nil
		}
		return []note{{"textDocument/didClose", closeParams(buf)}}, nil
	}
	return nil, fmt.Errorf("unknown resource operation %q", d.Kind)
}

// dropLocked forgets the buffer of path and what the edit changed in it,
// and returns it: nil when the editor held none. The caller holds e.mu.
func (e *Editor) dropLocked(path string, last map[string]*didChangeParams) *buffer {
	buf := e.bufs[path]
	if buf != nil {
		delete(e.bufs, path)
		delete(last, path)
	}
	return buf
}

// editDisk applies text edits to a file on disk; positions count from after
// its BOM, which an editor does not hold as a character.
func (e *Editor) editDisk(path string, edits []TextEdit) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, bom := strings.CutPrefix(string(raw), utf8BOM)
	if _, err := applyTextEdits(&text, edits, e.enc); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(bomIf(bom)+text), 0o644)
}

func bomIf(b bool) string {
	if b {
		return utf8BOM
	}
	return ""
}

func openParams(b *buffer) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": b.uri, "languageId": "plaintext", "version": b.version, "text": b.text}}
}

func closeParams(b *buffer) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": b.uri}}
}

// saveDocument saves a buffer as the behaviour says: formatted first when
// it formats on save, then written with its BOM, then reported as didSave.
func (e *Editor) saveDocument(reply jsonrpc2.Replier, params json.RawMessage) {
	bg := context.Background()
	var p struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		e.t.Errorf("saveDocument params %s: %v", params, err)
	}
	e.mu.Lock()
	e.saves = append(e.saves, p.URI)
	sb := e.saving
	path := e.PathOf(p.URI)
	buf := e.bufs[path]
	answer := map[string]any{"saved": true}
	var notes []note
	switch {
	case sb.Refuse != "":
		answer = map[string]any{"saved": false, "reason": sb.Refuse}
	case buf == nil:
		answer = map[string]any{"saved": false, "reason": "the editor holds no buffer for " + path}
	default:
		if sb.Format != nil {
			if formatted := sb.Format(buf.text); formatted != buf.text {
				notes = append(notes, note{"textDocument/didChange", buf.changed(e.step, buf.rewrite(formatted, e.enc))})
			}
		}
		if err := buf.save(path); err != nil {
			answer = map[string]any{"saved": false, "reason": err.Error()}
			break
		}
		notes = append(notes, note{"textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": buf.uri}}})
		if sb.Reason != "" {
			answer["reason"] = sb.Reason
		}
		if sb.TypeAfter != nil {
			notes = append(notes, note{"textDocument/didChange", buf.changed(e.step, buf.rewrite(sb.TypeAfter(buf.text), e.enc))})
		}
	}
	e.mu.Unlock()
	if sb.AfterAnswer {
		e.send(func() { _ = reply(bg, answer, nil) })
		e.send(func() { e.sendNotes(notes) })
		return
	}
	e.send(func() {
		e.sendNotes(notes)
		_ = reply(bg, answer, nil)
	})
}

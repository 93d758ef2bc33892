package lsptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"hashline-ls/commands"
	"hashline-ls/hashline"
)

// The messages the editor decodes, loosely, so that a test can look at
// what the server sent as it was sent.

// Position is an LSP position in the negotiated encoding.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is an LSP range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// TextEdit is an LSP text edit.
type TextEdit struct {
	Range        Range  `json:"range"`
	NewText      string `json:"newText"`
	AnnotationID string `json:"annotationId"`
}

// DocumentChange is one entry of a WorkspaceEdit's documentChanges: a
// TextDocumentEdit, or a create, rename or delete (Kind set).
type DocumentChange struct {
	Kind         string          `json:"kind"`
	URI          string          `json:"uri"`
	OldURI       string          `json:"oldUri"`
	NewURI       string          `json:"newUri"`
	Options      map[string]bool `json:"options"`
	AnnotationID string          `json:"annotationId"`
	TextDocument *struct {
		URI     string          `json:"uri"`
		Version json.RawMessage `json:"version"`
	} `json:"textDocument"`
	Edits []TextEdit `json:"edits"`
}

// Version decodes a TextDocumentEdit's version, which must be present:
// a number, or null for a file as on disk.
func (d DocumentChange) Version() (*int32, error) {
	raw := strings.TrimSpace(string(d.TextDocument.Version))
	if raw == "" {
		return nil, errors.New("the text document edit has no version field")
	}
	if raw == "null" {
		return nil, nil
	}
	var v int32
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return nil, fmt.Errorf("version %s: %w", raw, err)
	}
	return &v, nil
}

// ApplyEditRequest is the params of a workspace/applyEdit request.
type ApplyEditRequest struct {
	Label string `json:"label"`
	Edit  struct {
		Changes           map[string][]TextEdit      `json:"changes"`
		DocumentChanges   []DocumentChange           `json:"documentChanges"`
		ChangeAnnotations map[string]json.RawMessage `json:"changeAnnotations"`
	} `json:"edit"`
}

// Result is any command's result, decoded loosely.
type Result struct {
	OK        bool                  `json:"ok"`
	Tag       string                `json:"tag"`
	Header    string                `json:"header"`
	Content   string                `json:"content"`
	Path      string                `json:"path"`
	Created   bool                  `json:"created"`
	Removed   bool                  `json:"removed"`
	Warnings  []hashline.Warning    `json:"warnings"`
	Matches   []commands.GrepMatch  `json:"matches"`
	Tags      map[string]string     `json:"tags"`
	Files     []commands.PatchFile  `json:"files"`
	Error     *commands.ErrorObject `json:"error"`
	Terminate bool                  `json:"terminate"`
	// Raw is the result as the server sent it.
	Raw string `json:"-"`
}

// HasWarning reports whether the result carries a warning of kind.
func (r Result) HasWarning(kind string) bool {
	for _, w := range r.Warnings {
		if w.Kind == kind {
			return true
		}
	}
	return false
}

type changeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	} `json:"textDocument"`
	ContentChanges []changeEvent `json:"contentChanges"`
}

// note is one notification the editor sends.
type note struct {
	method string
	params any
}

// wireLog wraps the editor's stream: it notes the id of every call the
// editor sends, so a test can cancel one, and hands over the responses to
// frames written by hand, which the connection has no caller for.
type wireLog struct {
	jsonrpc2.Stream
	mu      sync.Mutex
	calls   map[string][]jsonrpc2.ID
	orphans chan *jsonrpc2.Response
}

func (w *wireLog) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if c, ok := msg.(*jsonrpc2.Call); ok {
		w.mu.Lock()
		w.calls[c.Method()] = append(w.calls[c.Method()], c.ID())
		w.mu.Unlock()
	}
	return w.Stream.Write(ctx, msg)
}

func (w *wireLog) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := w.Stream.Read(ctx)
	if r, ok := msg.(*jsonrpc2.Response); ok {
		id := r.ID()
		raw, _ := json.Marshal(&id)
		// The connection numbers its own calls; string ids are only ever
		// used by hand-written frames.
		if strings.HasPrefix(string(raw), `"`) {
			select {
			case w.orphans <- r:
			default:
			}
		}
	}
	return msg, n, err
}

func (w *wireLog) lastCall(method string) (jsonrpc2.ID, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := w.calls[method]
	if len(ids) == 0 {
		return jsonrpc2.ID{}, false
	}
	return ids[len(ids)-1], true
}

// tapConn keeps every byte the editor reads, so a test can look at a
// message as it was on the wire.
type tapConn struct {
	net.Conn
	mu  sync.Mutex
	buf []byte
}

func (c *tapConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.buf = append(c.buf, p[:n]...)
	c.mu.Unlock()
	return n, err
}

// response returns the members of the response with the given id, as the
// server wrote them.
func (c *tapConn) response(id jsonrpc2.ID) (map[string]json.RawMessage, bool) {
	want, _ := json.Marshal(&id)
	return c.responseRaw(string(want))
}

// responseRaw is response for an id spelled as JSON, want.
func (c *tapConn) responseRaw(want string) (map[string]json.RawMessage, bool) {
	c.mu.Lock()
	data := string(c.buf)
	c.mu.Unlock()
	for {
		_, rest, ok := strings.Cut(data, "Content-Length: ")
		if !ok {
			return nil, false
		}
		head, body, ok := strings.Cut(rest, "\r\n\r\n")
		var n int
		if !ok || func() bool { _, err := fmt.Sscanf(head, "%d", &n); return err != nil }() || n > len(body) {
			return nil, false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(body[:n]), &m) == nil && string(m["id"]) == want {
			if _, isCall := m["method"]; !isCall {
				return m, true
			}
		}
		data = body[n:]
	}
}

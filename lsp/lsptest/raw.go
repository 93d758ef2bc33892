package lsptest

import (
	"encoding/json"
	"fmt"
	"io"

	"go.lsp.dev/jsonrpc2"
)

// Wire is the editor's raw end of the connection, for the tests of the
// protocol edge itself: bytes and frames past the editor's JSON-RPC
// connection, and the responses as the server wrote them.
type Wire struct{ e *Editor }

// Wire returns the editor's raw end of the connection.
func (e *Editor) Wire() Wire { return Wire{e} }

// WriteFrame writes body to the server as one Content-Length frame, past
// the editor's JSON-RPC connection, after everything queued before it.
func (w Wire) WriteFrame(body string) {
	w.e.send(func() {
		if _, err := fmt.Fprintf(w.e.pipe, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			w.e.t.Errorf("writing a raw frame: %v", err)
		}
	})
	w.e.Flush()
}

// WriteBytes writes raw to the server as it is, past the editor's
// JSON-RPC connection, after everything queued before it: a frame whose
// header lies about its body, or no frame at all.
func (w Wire) WriteBytes(raw string) {
	w.e.send(func() {
		if _, err := io.WriteString(w.e.pipe, raw); err != nil {
			w.e.t.Errorf("writing raw bytes: %v", err)
		}
	})
	w.e.Flush()
}

// FrameAnswers carries the server's responses with string ids, which only
// frames written with WriteFrame use.
func (w Wire) FrameAnswers() <-chan *jsonrpc2.Response { return w.e.wire.orphans }

// Response returns the members of the response with the given id as the
// server wrote them on the wire.
func (w Wire) Response(id jsonrpc2.ID) (map[string]json.RawMessage, bool) {
	return w.e.tap.response(id)
}

// ResponseRaw is Response for an id spelled as JSON, such as `""`, which
// jsonrpc2.ID cannot hold.
func (w Wire) ResponseRaw(id string) (map[string]json.RawMessage, bool) {
	return w.e.tap.responseRaw(id)
}

// LastCallID is the id of the last request the editor sent for method.
func (w Wire) LastCallID(method string) (jsonrpc2.ID, bool) { return w.e.wire.lastCall(method) }

package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"hashline-ls/documents"
	"hashline-ls/hashline"
)

// methodFlush asks the editor for the document changes it holds back
// (Neovim sends them after a debounce, 150 ms by default); it answers once
// they are on their way, ahead of the answer. An editor offers it with
// initializationOptions {"hashline": {"flush": true}}.
const methodFlush = "hashline/flush"

// flushTimeout bounds the wait for the editor's answer to a flush: without
// one the command goes on with the text the server has.
const flushTimeout = 2 * time.Second

// source is the commands.Source of a server's commands and of its bridged
// ones: the editor's documents, else the disk. It syncs with an editor
// that holds back the person's changes, so that an edit is planned against
// the text the person sees, never one the editor has moved on from.
type source struct{ s *Server }

func (o source) Live(ctx context.Context, abs string) (documents.Live, error) {
	return o.s.docs.Live(ctx, abs)
}

// LiveKnown is Live for a read of a file this session read before as
// known (documents.Store.LiveKnown).
func (o source) LiveKnown(ctx context.Context, abs string, known *hashline.Text) (documents.Live, error) {
	return o.s.docs.LiveKnown(ctx, abs, known)
}

// IsOpen makes grep read the files the editor does not hold from the disk.
func (o source) IsOpen(abs string) bool { return o.s.docs.IsOpen(abs) }

// Sync asks the editor to flush the changes it holds, when it offers to,
// and waits for its answer: the notifications it flushes arrive first.
func (o source) Sync(ctx context.Context) {
	if !o.s.clientOffers().Flush {
		return
	}
	callCtx, cancel := context.WithTimeout(ctx, flushTimeout)
	defer cancel()
	var res json.RawMessage
	if _, err := o.s.conn.Call(callCtx, methodFlush, struct{}{}, &res); err != nil && ctx.Err() == nil {
		o.s.log.Warn("the editor did not answer hashline/flush: planning against the text the server has", zap.Error(err))
	}
}

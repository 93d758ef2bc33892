package lsptest

import (
	"time"

	"hashline-ls/endpoint"
)

// Options are the capabilities the editor announces, and how it starts.
type Options struct {
	ApplyEdit        bool
	DocumentChanges  bool
	ResourceOps      []string
	FailureHandling  string
	Annotations      bool
	Encodings        []string // general.positionEncodings; nil leaves it out
	WorkDoneProgress bool
	InitOptions      any
	// SkipInit leaves the editor connected but not initialized.
	SkipInit bool
	// Quiet drops the server's log instead of routing it to the test log.
	Quiet bool
	// Endpoints, when set, has the server publish its bridge endpoint
	// there, as hashline-ls does in LSP mode.
	Endpoints *endpoint.Registry
	// SaveDocument announces hashline/saveDocument in
	// initializationOptions. The editor answers the request either way,
	// as its SaveBehaviour says.
	SaveDocument bool
}

// VSCode announces what VS Code 1.100 announces.
func VSCode() Options {
	return Options{
		ApplyEdit: true, DocumentChanges: true, ResourceOps: []string{"create", "rename", "delete"},
		FailureHandling: "textOnlyTransactional", Annotations: true, WorkDoneProgress: true,
	}
}

// Neovim announces what Neovim 0.7.2 announces: resource operations but
// not documentChanges, and no position encodings (so UTF-16).
func Neovim() Options {
	return Options{ApplyEdit: true, ResourceOps: []string{"rename", "create", "delete"}, WorkDoneProgress: true}
}

// Unheld is what the editor does with a text edit for a file it does not
// hold in a buffer.
type Unheld int

const (
	// UnheldOpen opens the file, as VS Code does: didOpen with the disk text
	// (without its BOM), then didChange.
	UnheldOpen Unheld = iota
	// UnheldDisk edits the file on disk and tells the server nothing.
	UnheldDisk
	// UnheldHidden loads the file into a buffer the server is never told
	// about, as Neovim 0.7 does when nothing attaches the client to it.
	UnheldHidden
)

// ApplyBehaviour is how the editor answers workspace/applyEdit. The zero
// value applies every edit and sends its didChange right after the answer.
type ApplyBehaviour struct {
	// BeforeAnswer sends the didChange (and didOpen) before the answer;
	// otherwise they follow it, after Delay.
	BeforeAnswer bool
	Delay        time.Duration
	// StaleSkip skips a versioned edit whose version is stale and still
	// answers applied (Neovim 0.7); otherwise the whole edit is refused with
	// applied:false and no reason (VS Code).
	StaleSkip bool
	// IgnoreVersions applies a versioned edit to whatever version the
	// buffer is at, as Neovim does with version 0 (its didOpen's).
	IgnoreVersions bool
	// SkipAll answers applied:true and changes nothing.
	SkipAll bool
	// Unanswered never answers, as an editor whose dialog nobody closes.
	Unanswered bool
	// Refuse answers applied:false to this many requests, changing nothing;
	// OnRefuse runs before each such answer (the user typing).
	Refuse   int
	OnRefuse func(e *Editor)
	Unheld   Unheld
	// Save writes every buffer the edit changed to disk, BOM included.
	Save bool
	// Format rewrites a buffer's text after the edit landed in it;
	// FormatMerged sends its change in the same didChange as the edit's.
	Format       func(text string) string
	FormatMerged bool
}

// SaveBehaviour is how the editor answers hashline/saveDocument. The zero
// value writes the buffer as it is and sends didSave before the answer, as
// Neovim's :write does.
type SaveBehaviour struct {
	// Format rewrites the buffer before it is written, as a format-on-save
	// does; the change is reported as a didChange before the didSave.
	Format func(text string) string
	// AfterAnswer sends the didChange and didSave after the answer, as VS
	// Code does.
	AfterAnswer bool
	// Refuse answers saved:false with this reason and writes nothing.
	Refuse string
	// Reason answers saved:true with this reason, as VS Code does when it
	// saved other text than the edit left.
	Reason string
	// TypeAfter is the person typing once the file is written: it rewrites
	// the buffer, reported as a didChange before the answer, and the disk
	// keeps what was saved.
	TypeAfter func(text string) string
}

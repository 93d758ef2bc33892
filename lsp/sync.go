package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"go.uber.org/zap"

	"hashline-ls/documents"
)

// canonical maps a document URI to the path the snapshot store and the
// path resolver use for the same file: absolute, symlinks resolved.
func canonical(uri string) (string, bool) {
	p, ok := uriPath(uri)
	if !ok {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real, true
	}
	return filepath.Clean(p), true
}

func (s *Server) didOpen(raw json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI        string `json:"uri"`
			LanguageID string `json:"languageId"`
			Version    int32  `json:"version"`
			Text       string `json:"text"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	s.log.Debug("didOpen", zap.String("uri", p.TextDocument.URI), zap.String("languageId", p.TextDocument.LanguageID), zap.Int32("version", p.TextDocument.Version))
	path, ok := canonical(p.TextDocument.URI)
	if !ok {
		return nil // not a file: untitled buffers and the like are not ours
	}
	s.mu.Lock()
	s.uris[p.TextDocument.URI] = path
	s.mu.Unlock()
	s.docs.Open(path, p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
	return nil
}

// didChange decodes its params itself: protocol v0.12.0 types a change's
// range as a value, so an insert at 0:0 and a whole-document change would
// decode alike.
func (s *Server) didChange(raw json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int32  `json:"version"`
		} `json:"textDocument"`
		ContentChanges []struct {
			Range *documents.Range `json:"range"`
			Text  string           `json:"text"`
		} `json:"contentChanges"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	path, ok := s.uris[p.TextDocument.URI]
	s.mu.Unlock()
	if !ok {
		if _, isFile := uriPath(p.TextDocument.URI); !isFile {
			return nil
		}
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	changes := make([]documents.Change, len(p.ContentChanges))
	for i, c := range p.ContentChanges {
		changes[i] = documents.Change{Range: c.Range, Text: c.Text}
	}
	return s.docs.Change(path, p.TextDocument.Version, changes)
}

func (s *Server) didClose(raw json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	s.log.Debug("didClose", zap.String("uri", p.TextDocument.URI))
	s.mu.Lock()
	path, ok := s.uris[p.TextDocument.URI]
	delete(s.uris, p.TextDocument.URI)
	s.mu.Unlock()
	if ok {
		s.docs.Close(path)
	}
	return nil
}

// methodDocumentDigest asks what the server holds of a document, for an
// editor to compare with its buffer (:checkhealth hashline): the server's
// copy is only as good as the changes the editor sent.
const methodDocumentDigest = "hashline/documentDigest"

type documentDigest struct {
	Open    bool   `json:"open"`
	Version int32  `json:"version"`
	Bytes   int    `json:"bytes"`
	SHA256  string `json:"sha256,omitempty"` // hex, of the text as the editor sent it
}

func (s *Server) documentDigest(raw json.RawMessage) documentDigest {
	var p struct {
		URI string `json:"uri"`
	}
	_ = json.Unmarshal(raw, &p)
	s.mu.Lock()
	path, ok := s.uris[p.URI]
	s.mu.Unlock()
	if !ok {
		return documentDigest{}
	}
	d, open := s.docs.Get(path)
	if !open {
		return documentDigest{}
	}
	sum := sha256.Sum256([]byte(d.Text))
	return documentDigest{Open: true, Version: d.Version, Bytes: len(d.Text), SHA256: hex.EncodeToString(sum[:])}
}

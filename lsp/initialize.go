package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/documents"
	"hashline-ls/workspace"
)

// clientCaps is the part of the client's capabilities the server acts on.
// It is decoded from the raw params because protocol v0.12.0 (LSP 3.15)
// lacks positionEncodings and change annotations.
type clientCaps struct {
	Workspace struct {
		ApplyEdit     bool `json:"applyEdit"`
		WorkspaceEdit struct {
			DocumentChanges         bool            `json:"documentChanges"`
			ResourceOperations      []string        `json:"resourceOperations"`
			FailureHandling         string          `json:"failureHandling"`
			ChangeAnnotationSupport json.RawMessage `json:"changeAnnotationSupport"`
		} `json:"workspaceEdit"`
	} `json:"workspace"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
	General struct {
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
}

// documentChanges reports whether the client takes versioned
// TextDocumentEdits. Neovim 0.7 applies them without announcing it, but
// announces resource operations, which only exist inside documentChanges.
func (c clientCaps) documentChanges() bool {
	we := c.Workspace.WorkspaceEdit
	return we.DocumentChanges || len(we.ResourceOperations) > 0
}

func (c clientCaps) resourceOp(kind string) bool {
	return slices.Contains(c.Workspace.WorkspaceEdit.ResourceOperations, kind)
}

func (c clientCaps) annotations() bool {
	a := c.Workspace.WorkspaceEdit.ChangeAnnotationSupport
	return len(a) > 0 && string(a) != "null"
}

// clientOffers are what the editor's hashline plugin or extension does
// beyond the protocol, from initializationOptions, bare or under
// "hashline". They are not settings: the client states them, the user
// does not.
type clientOffers struct {
	// SaveDocument: it answers hashline/saveDocument (save.go).
	SaveDocument bool `json:"saveDocument"`
	// Flush: it answers hashline/flush (source.go).
	Flush bool `json:"flush"`
}

func parseOffers(raw json.RawMessage) clientOffers {
	var o struct {
		clientOffers
		Hashline *clientOffers `json:"hashline"`
	}
	_ = json.Unmarshal(raw, &o) // a malformed field is reported with the settings
	if h := o.Hashline; h != nil {
		o.SaveDocument = o.SaveDocument || h.SaveDocument
		o.Flush = o.Flush || h.Flush
	}
	return o.clientOffers
}

// Settings are the server's options, from initializationOptions and
// workspace/didChangeConfiguration, either bare or under "hashline".
type Settings struct {
	// ExtraRoots are folders outside the workspace that paths may name.
	ExtraRoots []string `json:"extraRoots"`
	// LandTimeoutMs bounds the wait for the editor to report the text an
	// edit left (docs/design.md §5.8).
	LandTimeoutMs int `json:"landTimeoutMs"`
	// ApplyEditTimeoutMs bounds the wait for the editor's answer to
	// workspace/applyEdit, which may sit behind a dialog the user must
	// answer.
	ApplyEditTimeoutMs int `json:"applyEditTimeoutMs"`
	// NewFileEOL is "\r\n" where the editor ends the lines of new files
	// with CRLF (VS Code's files.eol, which is CRLF on Windows by default):
	// a file created with plain LF lines then takes it. Anything else
	// leaves the content's endings.
	NewFileEOL string `json:"newFileEol"`
}

func defaultSettings() Settings { return Settings{LandTimeoutMs: 2000, ApplyEditTimeoutMs: 60000} }

// parseSettings overlays raw settings on cur.
func parseSettings(raw json.RawMessage, cur Settings) (Settings, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return cur, nil
	}
	var wrapped struct {
		Hashline json.RawMessage `json:"hashline"`
	}
	if err := json.Unmarshal(raw, &wrapped); err != nil {
		return cur, fmt.Errorf("settings are not an object: %w", err)
	}
	if len(wrapped.Hashline) > 0 {
		raw = wrapped.Hashline
	}
	next := cur
	if err := json.Unmarshal(raw, &next); err != nil {
		return cur, fmt.Errorf("settings: %w", err)
	}
	if next.LandTimeoutMs <= 0 {
		next.LandTimeoutMs = defaultSettings().LandTimeoutMs
	}
	if next.ApplyEditTimeoutMs <= 0 {
		next.ApplyEditTimeoutMs = defaultSettings().ApplyEditTimeoutMs
	}
	return next, nil
}

type initializeParams struct {
	RootURI               string                     `json:"rootUri"`
	RootPath              string                     `json:"rootPath"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	Capabilities          clientCaps                 `json:"capabilities"`
}

func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "initialize params: "+err.Error())
	}
	settings, err := parseSettings(p.InitializationOptions, defaultSettings())
	if err != nil {
		s.log.Warn("ignoring initializationOptions", zap.Error(err))
	}
	var folders []string
	for _, f := range p.WorkspaceFolders {
		if dir, ok := uriPath(f.URI); ok {
			folders = append(folders, dir)
		}
	}
	if len(folders) == 0 {
		if dir, ok := uriPath(p.RootURI); ok {
			folders = append(folders, dir)
		} else if p.RootPath != "" {
			folders = append(folders, p.RootPath)
		}
	}
	// UTF-8 when the client offers it: no conversion at all. Otherwise
	// UTF-16, the protocol's default.
	enc := documents.UTF16
	if slices.Contains(p.Capabilities.General.PositionEncodings, "utf-8") {
		enc = documents.UTF8
	}
	s.docs.SetEncoding(enc)

	s.mu.Lock()
	s.caps = p.Capabilities
	s.offers = parseOffers(p.InitializationOptions)
	s.settings = settings
	s.folders = folders
	s.state = stateRunning
	s.mu.Unlock()
	s.applyRoots()

	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": enc.String(),
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    protocol.TextDocumentSyncKindIncremental,
				"save":      map[string]any{"includeText": false},
			},
			"executeCommandProvider": map[string]any{"commands": commands.Commands()},
			"workspace": map[string]any{
				"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true},
			},
		},
		"serverInfo": map[string]any{"name": "hashline-ls", "version": commands.Version},
	}, nil
}

// applyRoots points path resolution at the workspace folders and extra
// roots, leaving out any that do not exist, so one bad folder does not
// disable the rest.
func (s *Server) applyRoots() {
	s.mu.Lock()
	all := append(append([]string(nil), s.folders...), s.settings.ExtraRoots...)
	s.mu.Unlock()
	var ok []string
	for _, f := range all {
		if _, err := workspace.New(f); err != nil {
			s.log.Warn("ignoring a root that cannot be used", zap.String("folder", f), zap.Error(err))
			continue
		}
		ok = append(ok, f)
	}
	if err := s.cmds.Roots.Set(ok...); err != nil {
		s.log.Error("setting workspace roots", zap.Error(err))
	}
}

func (s *Server) didChangeFolders(raw json.RawMessage) error {
	var p protocol.DidChangeWorkspaceFoldersParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	for _, f := range p.Event.Removed {
		if dir, ok := uriPath(f.URI); ok {
			s.folders = slices.DeleteFunc(s.folders, func(x string) bool { return filepath.Clean(x) == filepath.Clean(dir) })
		}
	}
	for _, f := range p.Event.Added {
		if dir, ok := uriPath(f.URI); ok {
			s.folders = append(s.folders, dir)
		}
	}
	s.mu.Unlock()
	s.applyRoots()
	// Snapshots and registers belong to the workspace they were read in.
	s.cmds.Sessions.Clear()
	return nil
}

func (s *Server) didChangeConfiguration(raw json.RawMessage) error {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	next, err := parseSettings(p.Settings, s.settings)
	s.settings = next
	s.mu.Unlock()
	s.applyRoots()
	return err
}

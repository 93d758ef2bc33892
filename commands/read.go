package commands

import (
	"context"
	"fmt"
	"strings"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

const defaultLimit = 2000

// ReadArgs are the arguments of hashline.read.
type ReadArgs struct {
	Common
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
	// Anchors is "tag" (default) or "line" (kli's N:HH|text rows).
	Anchors string `json:"anchors"`
	// View is "lines" (default) or "outline"; Symbol names one declaration
	// to read (outline.go).
	View   string `json:"view"`
	Symbol string `json:"symbol"`
	// Depth is how many levels of an outline to list (0: the default,
	// hashline.OutlineDepth).
	Depth int `json:"depth"`
}

// ReadResult is the result of hashline.read (docs/contract.md §5.1).
type ReadResult struct {
	OK         bool   `json:"ok"`
	Content    string `json:"content"`
	Tag        string `json:"tag"`
	Path       string `json:"path"`
	Root       string `json:"root"`
	Offset     int    `json:"offset"`
	LineCount  int    `json:"lineCount"`
	TotalLines int    `json:"totalLines"`
	Truncated  bool   `json:"truncated"`
	FileBytes  int    `json:"fileBytes"`
	Notice     string `json:"notice,omitempty"`
	// Symbols are the outline's rows (view outline); Symbol is the
	// declaration a symbol read shows.
	Symbols []OutlineSymbol `json:"symbols,omitempty"`
	Symbol  *OutlineSymbol  `json:"symbol,omitempty"`
	rendered
}

func (s *Server) read(ctx context.Context, a ReadArgs) (Result, error) {
	wp, live, err := s.existing(ctx, a.Path, a.sessionName())
	if err != nil {
		return nil, err
	}
	t := live.Text
	if isBinary(t.Raw()) {
		return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
			Message: fmt.Sprintf("%s is a binary file (it contains NUL bytes): hashline reads text only; name a text file", wp.Rel)}
	}
	if a.Depth != 0 && a.View != ViewOutline {
		return nil, invalid("depth", `depth says how many levels of an outline to list: send it with view "outline", or leave it out`)
	}
	if a.View == ViewOutline || a.Symbol != "" {
		return s.readDeclarations(a, wp, t)
	}
	offset, limit := max(a.Offset, 1), a.Limit
	if limit == 0 {
		limit = defaultLimit
	}
	// Offset 1 is never past the end: the lines are then not looked at
	// before the session has had its chance to know the text (ReadAs).
	if offset > 1 && offset > max(t.Len(), 1) {
		total := t.Len()
		return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "offset"},
			Message: fmt.Sprintf("offset %d is past the end of %s, which has %d lines: read from offset 1, or from %d for the last line", offset, wp.Rel, total, max(total, 1))}
	}
	sess := s.Sessions.Get(a.sessionName())
	v := sess.ReadAs(anchorStyle(a.Anchors), wp.Abs, wp.Rel, t, offset, limit)
	total := t.Len()
	res := &ReadResult{
		OK: true, Content: v.Content, Tag: string(t.Tag()), Path: wp.Rel, Root: wp.Root,
		Offset: offset, LineCount: max(v.Last-v.First+1, 0), TotalLines: total,
		Truncated: v.Last < total, FileBytes: t.Size(),
	}
	var notes []string
	if total == 0 {
		notes = append(notes, "the file is empty: add lines with PUT <1: or PUT >$:")
	}
	if res.Truncated {
		notes = append(notes, fmt.Sprintf("showing lines %d-%d of %d: read with offset %d for more", v.First, v.Last, total, v.Last+1))
	}
	if len(v.Clipped) > 0 {
		notes = append(notes, fmt.Sprintf("line(s) %s could not be shown in full and cannot be edited by line; replace them with hashline_write if needed", joinInts(v.Clipped)))
	}
	res.Notice = strings.Join(notes, "; ")
	return res, nil
}

func anchorStyle(s string) hashline.Anchors {
	if s == "line" {
		return hashline.AnchorLine
	}
	return hashline.AnchorTag
}

// knownSource is a Source that compares a file with the text a session
// last read of it, rather than reading it anew, while the file still holds
// it (documents.Disk, documents.Store).
type knownSource interface {
	LiveKnown(ctx context.Context, abs string, known *hashline.Text) (documents.Live, error)
}

// existing resolves p and reads the live text of the file it names, which
// must exist, comparing it with what the session last read of it when the
// source can.
func (s *Server) existing(ctx context.Context, p, session string) (workspace.Path, documents.Live, error) {
	wp, err := s.resolve(p)
	if err != nil {
		return wp, documents.Live{}, err
	}
	s.sync(ctx)
	var known *hashline.Text
	if sess, ok := s.Sessions.Lookup(session); ok {
		known = sess.Known(wp.Abs)
	}
	var live documents.Live
	if ks, ok := s.Source.(knownSource); ok && known != nil {
		live, err = ks.LiveKnown(ctx, wp.Abs, known)
	} else {
		live, err = s.Source.Live(ctx, wp.Abs)
	}
	if err != nil {
		return wp, live, err
	}
	if !live.Exists() {
		return wp, live, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
			Message: fmt.Sprintf("there is no file at %s: check the name against the folder's files, or create it with hashline_write", wp.Rel)}
	}
	return wp, live, nil
}

// isBinary reports NUL bytes in the first 8 KiB, as git decides it.
func isBinary(raw string) bool {
	return strings.IndexByte(raw[:min(len(raw), 8192)], 0) >= 0
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"hashline-ls/confined"
	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/search"
)

const defaultMaxResults = 200

// maxPatternBytes bounds a grep pattern: a regular expression longer than
// this is no search a model means, and compiling it costs.
const maxPatternBytes = 4 << 10

// progressEvery is how many searched files pass between two progress
// reports: often enough to show life in a large tree, rarely enough not to
// flood the client.
const progressEvery = 200

// Grep output modes.
const (
	GrepContent          = "content"
	GrepFilesWithMatches = "filesWithMatches"
	GrepCount            = "count"
	GrepSymbols          = "symbols"
)

// GrepArgs are the arguments of hashline.grep.
type GrepArgs struct {
	Common
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	Mode       string `json:"mode"`
	IgnoreCase bool   `json:"ignoreCase"`
	MaxResults int    `json:"maxResults"`
	Anchors    string `json:"anchors"`
}

// GrepMatch is one matched line.
type GrepMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepResult is the result of hashline.grep (docs/contract.md §5.2).
type GrepResult struct {
	OK      bool              `json:"ok"`
	Matches []GrepMatch       `json:"matches"`
	Tags    map[string]string `json:"tags"`
	Content string            `json:"content"`
	// Counts and Files belong to the count and filesWithMatches modes; they
	// are nil, and left out, in the other modes.
	Counts map[string]int `json:"counts,omitzero"`
	Files  []string       `json:"files,omitzero"`
	// Symbols belongs to the symbols mode (symbols.go).
	Symbols   []GrepSymbol `json:"symbols,omitzero"`
	Truncated bool         `json:"truncated"`
	Notice    string       `json:"notice,omitempty"`
	rendered
}

// Sentinels that end a walk early; neither is a failure.
var (
	errResultsFull = errors.New("maxResults reached")
	errCancelled   = errors.New("search cancelled")
)

// OpenFiles is implemented by a Source that can tell which files the
// editor holds open. Grep then reads every other file straight from the
// disk, several at once, and hashes only the files that match; with any
// other Source it asks the Source for each file in turn.
type OpenFiles interface {
	IsOpen(abs string) bool
}

func (s *Server) grep(ctx context.Context, a GrepArgs) (Result, error) {
	g, err := s.newGrepper(ctx, a)
	if err != nil {
		return nil, err
	}
	defer g.close()
	s.sync(ctx)
	walk, err := g.plan(a.Path)
	if err != nil {
		return nil, err
	}
	g.stop = g.run(walk)
	g.progress.Report(fmt.Sprintf("searched %d files", g.searched), 100)
	return g.finish(), nil
}

func (s *Server) newGrepper(ctx context.Context, a GrepArgs) (*grepper, error) {
	if len(a.Pattern) > maxPatternBytes {
		// The pattern is not echoed: it may be arbitrarily large.
		return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "pattern"},
			Message: fmt.Sprintf("argument pattern: the pattern is %d bytes long, over the %d-byte limit: search for a shorter expression (a distinctive part of the line is enough) and send the call again", len(a.Pattern), maxPatternBytes)}
	}
	expr := a.Pattern
	if a.IgnoreCase {
		expr = "(?i)" + expr
	}
	pat, err := search.Compile(expr)
	if err != nil {
		return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "pattern"},
			Message: fmt.Sprintf("argument pattern: %v: fix the regular expression (RE2 syntax: no lookaround or backreferences; escape literal ( [ . * + ? with \\) and send the call again", err)}
	}
	if a.Glob != "" && !doublestar.ValidatePattern(a.Glob) {
		return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "glob"},
			Message: fmt.Sprintf("argument glob: %q is not a valid glob: use * within a name, ** across folders and {a,b} for alternatives, e.g. **/*.go", a.Glob)}
	}
	g := &grepper{
		s: s, ctx: ctx, pat: pat, glob: a.Glob, mode: a.Mode, max: a.MaxResults,
		sess:      s.Sessions.Get(a.sessionName()),
		progress:  progressFrom(ctx),
		anchors:   anchorStyle(a.Anchors),
		multiRoot: len(s.Roots.List()) > 1,
		res:       &GrepResult{OK: true, Matches: []GrepMatch{}, Tags: map[string]string{}},
		roots:     map[string]*confined.Root{},
	}
	for _, root := range s.Roots.List() {
		// A root that cannot be opened is searched as an empty folder.
		if r, err := confined.OpenRoot(root); err == nil {
			g.roots[root] = r
		}
	}
	_, g.disk = s.Source.(documents.Disk)
	g.open, _ = s.Source.(OpenFiles)
	if g.mode == "" {
		g.mode = GrepContent
	}
	if g.max == 0 {
		g.max = defaultMaxResults
	}
	// Content mode needs one match past its room to know it truncated;
	// filesWithMatches needs one match at all; count needs every match.
	switch g.mode {
	case GrepContent:
		g.limit = g.max + 1
		if g.max == math.MaxInt {
			g.limit = -1
		}
	case GrepCount:
		g.limit = -1
		g.res.Counts = map[string]int{}
	case GrepFilesWithMatches:
		g.limit = 1
		g.res.Files = []string{}
	case GrepSymbols:
		// One line that may name a match is enough to outline the file.
		g.limit = 1
		g.res.Symbols = []GrepSymbol{}
		if err := g.newSymbolSearch(expr); err != nil {
			return nil, err
		}
	}
	return g, nil
}

type grepper struct {
	// Set before the search starts, then only read.
	s         *Server
	ctx       context.Context
	pat       *search.Pattern
	glob      string
	mode      string
	max       int
	limit     int // matching lines wanted from one file; negative: all
	sess      *hashline.Session
	progress  Progress
	multiRoot bool
	anchors   hashline.Anchors
	sym       *symbolSearch // symbols mode only
	disk      bool          // the Source is the disk
	open      OpenFiles     // the Source's open files, or nil
	// roots holds each workspace root open: every folder listed, ignore
	// file read and file searched is opened beneath one.
	roots map[string]*confined.Root

	// The result, built by one goroutine taking the files in walk order.
	// stop is why the search ended early (errResultsFull, errCancelled),
	// nil when it ran to the end.
	stop     error
	res      *GrepResult
	content  strings.Builder
	counted  int // matches (content mode) or files (other modes) against max
	searched int
	clipped  []string
	// skipped lists the ignore files left unread, and why; the walk alone
	// writes it, and finish reads it once the walk is over.
	skipped []string
}

func (g *grepper) close() {
	for _, r := range g.roots {
		r.Close()
	}
}

// accept adds what the search of one file found to the result. Files come
// in walk order, so the result is the same however many were searched at
// once.
func (g *grepper) accept(f grepFile, fd found) error {
	if fd.notice != "" {
		g.res.Notice = fd.notice
	}
	if fd.skipped {
		return nil
	}
	g.searched++
	if g.searched%progressEvery == 0 {
		g.progress.Report(fmt.Sprintf("searched %d files", g.searched), 0)
	}
	if len(fd.lines) == 0 {
		return nil
	}
	display := g.display(f.abs, f.rel)
	if g.sym != nil {
		return g.acceptSymbols(f.abs, display, fd)
	}
	if g.mode != GrepContent {
		return g.acceptFile(f.abs, display, fd)
	}
	return g.acceptLines(f.abs, display, fd)
}

// acceptFile lists a matching file in the count and filesWithMatches modes.
func (g *grepper) acceptFile(abs, display string, fd found) error {
	if g.counted >= g.max {
		g.res.Truncated = true
		return errResultsFull
	}
	g.counted++
	t := fd.text
	g.sess.Record(abs, t, &hashline.LineSet{})
	g.res.Tags[display] = string(t.Tag())
	header := hashline.Header(display, t.Tag())
	if g.mode == GrepCount {
		g.res.Counts[display] = len(fd.lines)
		fmt.Fprintf(&g.content, "%s %d\n", header, len(fd.lines))
	} else {
		g.res.Files = append(g.res.Files, display)
		g.content.WriteString(header + "\n")
	}
	return nil
}

// acceptLines shows a file's matching lines in content mode, as many as
// maxResults leaves room for.
func (g *grepper) acceptLines(abs, display string, fd found) error {
	t, lines := fd.text, fd.lines
	room, full := g.room(len(lines))
	lines = lines[:room]
	if len(lines) > 0 {
		v := hashline.RenderRowsAs(g.anchors, display, t, lines, hashline.MaxLineChars)
		g.sess.Record(abs, t, v.Seen)
		g.res.Tags[display] = string(t.Tag())
		if g.content.Len() > 0 {
			g.content.WriteByte('\n')
		}
		g.content.WriteString(v.Content)
		// The match text is the rendered row, so it is clipped exactly as
		// the content shows it.
		rows := strings.Split(strings.TrimSuffix(v.Content, "\n"), "\n")[1:]
		for i, n := range lines {
			text := strings.TrimPrefix(rows[i], strconv.Itoa(n)+":")
			if g.anchors == hashline.AnchorLine {
				text = text[len("HH|"):]
			}
			g.res.Matches = append(g.res.Matches, GrepMatch{Path: display, Line: n, Text: text})
		}
		for _, n := range v.Clipped {
			g.clipped = append(g.clipped, fmt.Sprintf("%s:%d", display, n))
		}
		g.counted += len(lines)
	}
	if full {
		return errResultsFull
	}
	return nil
}

// room is how many of n results the result still takes, and whether
// that is fewer than n, which truncates it.
func (g *grepper) room(n int) (int, bool) {
	room := g.max - g.counted
	if n > room {
		g.res.Truncated = true
		return room, true
	}
	return n, false
}

// display is the path a file is shown under: workspace-relative, unless
// another root holds a file under the same relative path, where only the
// absolute path names this one.
func (g *grepper) display(abs, rel string) string {
	if !g.multiRoot {
		return rel
	}
	if wp, err := g.s.Roots.Resolve(rel); err != nil || wp.Abs != abs {
		return filepath.ToSlash(abs)
	}
	return rel
}

func (g *grepper) finish() *GrepResult {
	res := g.res
	res.Content = g.content.String()
	var notes []string
	if res.Notice != "" {
		notes = append(notes, res.Notice)
	}
	switch {
	case errors.Is(g.stop, errCancelled):
		res.Truncated = true
		notes = append(notes, fmt.Sprintf("the search was cancelled after %d files: the results are incomplete", g.searched))
	case errors.Is(g.stop, errResultsFull):
		unit := map[string]string{GrepContent: "matches", GrepSymbols: "declarations"}[g.mode]
		if unit == "" {
			unit = "files"
		}
		notes = append(notes, fmt.Sprintf("stopped at maxResults (%d %s): narrow the search with path, glob or a more specific pattern, or raise maxResults", g.max, unit))
	}
	if len(g.clipped) > 0 {
		notes = append(notes, fmt.Sprintf("matched line(s) %s could not be shown in full and cannot be edited by line; replace them with hashline_write if needed", strings.Join(g.clipped, ", ")))
	}
	notes = append(notes, g.sym.notes()...)
	if len(g.skipped) > 0 {
		notes = append(notes, fmt.Sprintf("warning: skipped the ignore file(s) %s, so their rules were not applied: replace each with a regular file inside the workspace", strings.Join(g.skipped, ", ")))
	}
	res.Notice = strings.Join(notes, "; ")
	return res
}

package commands

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

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

// GrepResult is the result of hashline.grep (§5.2).
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

// Progress receives reports while a long command works; the protocol edge
// turns them into $/progress notifications.
type Progress interface {
	Report(message string, percentage int)
}

type progressKey struct{}

// WithProgress returns a context whose commands report their progress to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

type silentProgress struct{}

func (silentProgress) Report(string, int) {}

// progressFrom returns the Progress ctx carries, or one that drops every
// report.
func progressFrom(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		return p
	}
	return silentProgress{}
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

// walkFunc visits, in order, every file a grep searches, until visit fails.
type walkFunc func(visit func(grepFile) error) error

// grepFile is one file to search. named is set for a file the path
// argument names, whose skipping deserves a notice.
type grepFile struct {
	abs, rel string
	named    bool
}

// plan resolves the path argument to the walk that visits its files: every
// root, one folder, or one file. A file named outright is searched even
// when ignored or outside the glob: the caller asked for it.
func (g *grepper) plan(p string) (walkFunc, error) {
	if root, whole := g.s.rootNamed(p); whole {
		roots := g.s.Roots.List()
		if root != "" {
			roots = []string{root}
		}
		return func(visit func(grepFile) error) error {
			for _, r := range outermost(roots) {
				if err := g.walk(r, r, nil, visit); err != nil {
					return err
				}
			}
			return nil
		}, nil
	}
	wp, err := g.s.resolve(p)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(wp.Abs)
	if !wp.Exists || err != nil {
		return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
			Message: fmt.Sprintf("there is no file or folder at %s: check the name, or leave path out to search the whole workspace", wp.Rel)}
	}
	switch {
	case fi.IsDir():
		return func(visit func(grepFile) error) error {
			return g.walk(wp.Root, wp.Abs, g.inherited(wp.Root, wp.Abs), visit)
		}, nil
	case fi.Mode().IsRegular():
		return func(visit func(grepFile) error) error {
			return visit(grepFile{abs: wp.Abs, rel: wp.Rel, named: true})
		}, nil
	}
	return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
		Message: fmt.Sprintf("%s is not a regular file or folder: name a file or folder to search", wp.Rel)}
}

// rootNamed reports whether p names a whole workspace root rather than a
// file or folder inside one, which resolve refuses because no file can be
// the root. An empty or "." path means every root (root is then "").
func (s *Server) rootNamed(p string) (root string, whole bool) {
	if p == "" || p == "." || p == "./" {
		return "", true
	}
	name := p
	if u, err := url.Parse(p); err == nil && strings.EqualFold(u.Scheme, "file") {
		name = u.Path
	}
	if !filepath.IsAbs(name) {
		return "", false
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", false
	}
	for _, r := range s.Roots.List() {
		if r == real {
			return r, true
		}
	}
	return "", false
}

// outermost drops roots nested inside another listed root, whose files the
// outer walk already searches.
func outermost(roots []string) []string {
	var out []string
	for _, r := range roots {
		nested := false
		for _, o := range roots {
			if o != r && strings.HasPrefix(r, strings.TrimSuffix(o, string(filepath.Separator))+string(filepath.Separator)) {
				nested = true
				break
			}
		}
		if !nested {
			out = append(out, r)
		}
	}
	return out
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

// openFD opens a file the walk found, beneath its root, for the search.
func (g *grepper) openFD(abs string) (int, error) {
	root, rel, ok := g.s.Roots.Within(abs)
	if r := g.roots[root]; ok && r != nil {
		return r.OpenFD(rel)
	}
	return -1, fmt.Errorf("%s is in no workspace root", abs)
}

// inherited returns the ignore patterns of the folders from root down to
// start's parent. When they ignore start itself, the caller named an
// ignored folder on purpose, and only the rules inside it apply.
func (g *grepper) inherited(root, start string) []gitignore.Pattern {
	rel, err := filepath.Rel(root, start)
	if err != nil {
		return nil
	}
	comps := strings.Split(filepath.ToSlash(rel), "/")
	var ps []gitignore.Pattern
	for i := range comps {
		ps = append(ps, g.readIgnores(g.roots[root], comps[:i], nil)...)
	}
	if gitignore.NewMatcher(ps).Match(comps, true) {
		return nil
	}
	return ps
}

// walk visits the files of the folder start, inside root, in lexical
// order. inherited holds the ignore patterns of start's ancestors.
func (g *grepper) walk(root, start string, inherited []gitignore.Pattern, visit func(grepFile) error) error {
	return g.walkDir(g.roots[root], start, domainOf(relSlash(root, start)), inherited, visit)
}

// walkDir visits the files under dir, whose path in the workspace is comps,
// beneath root; ps are the ignore patterns of its ancestors.
func (g *grepper) walkDir(root *confined.Root, dir string, comps []string, ps []gitignore.Pattern, visit func(grepFile) error) error {
	// An unreadable folder is left out, not a failure of the whole search;
	// whatever of it could be listed is searched.
	entries := listDir(root, comps)
	ps = concat(ps, g.readIgnores(root, comps, func(name string) bool {
		_, found := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, name string) int { return strings.Compare(e.Name(), name) })
		return found
	}))
	for _, d := range entries {
		if g.ctx.Err() != nil {
			return errCancelled
		}
		if d.Name() == ".git" {
			continue
		}
		sub := append(comps[:len(comps):len(comps)], d.Name())
		if len(ps) > 0 && gitignore.NewMatcher(ps).Match(sub, d.IsDir()) {
			continue
		}
		p := filepath.Join(dir, d.Name())
		var err error
		if d.IsDir() {
			err = g.walkDir(root, p, sub, ps, visit)
		} else {
			err = g.visitFile(p, strings.Join(sub, "/"), d, visit)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// visitFile visits one file the walk found, when the glob takes it and it
// is a regular file, or links to one inside the workspace.
func (g *grepper) visitFile(p, rel string, d fs.DirEntry, visit func(grepFile) error) error {
	if !g.globMatches(rel) {
		return nil
	}
	abs := p
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		// A linked file is searched only where it resolves inside the
		// workspace; linked folders are never entered, so a link cycle
		// or a link out of the tree cannot widen the search.
		wp, err := g.s.resolve(p)
		if err != nil {
			return nil
		}
		if fi, err := os.Stat(wp.Abs); err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		abs = wp.Abs
	case !d.Type().IsRegular():
		// Devices, sockets and pipes: reading a pipe would block.
		return nil
	}
	return visit(grepFile{abs: abs, rel: rel})
}

// globMatches applies the glob argument to a workspace-relative path. A
// glob without a slash matches the file name at any depth, as .gitignore
// and ripgrep read one, so "*.go" means every Go file.
func (g *grepper) globMatches(rel string) bool {
	if g.glob == "" {
		return true
	}
	if doublestar.MatchUnvalidated(g.glob, rel) {
		return true
	}
	return !strings.Contains(g.glob, "/") && doublestar.MatchUnvalidated(g.glob, path.Base(rel))
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

// ignoreFiles are the ignore files of a folder, lowest priority first: the
// .git/info/exclude of a repository rooted there, then its .gitignore.
var ignoreFiles = []struct{ entry, path string }{
	{".git", filepath.Join(".git", "info", "exclude")},
	{".gitignore", ".gitignore"},
}

// listDir lists the folder whose path beneath root is comps, sorted by
// name; nil when it cannot be listed.
func listDir(root *confined.Root, comps []string) []fs.DirEntry {
	if root == nil {
		return nil
	}
	d, err := root.OpenDir(filepath.Join(comps...))
	if err != nil {
		return nil
	}
	defer d.Close()
	entries, _ := d.Entries()
	return entries
}

// readIgnores reads the ignore files of one folder, beneath root, as it
// reads every other file: one that is no regular file, such as a FIFO,
// or that leads out of the workspace, is skipped with a warning and its
// rules are not applied. domain is the folder's path in the workspace, as
// components. listed, when not nil, says whether the folder holds an
// entry, so files it lacks are not opened.
func (g *grepper) readIgnores(root *confined.Root, domain []string, listed func(name string) bool) []gitignore.Pattern {
	if root == nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, f := range ignoreFiles {
		if listed != nil && !listed(f.entry) {
			continue
		}
		rel := filepath.Join(append(slices.Clone(domain), f.path)...)
		b, err := g.readIgnore(root, rel)
		if err != nil {
			if why := unreadIgnore(err); why != "" {
				g.skipped = append(g.skipped, filepath.ToSlash(rel)+" ("+why+")")
			}
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSuffix(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}

// readIgnore reads one ignore file beneath root. One that is a link is
// read where the link resolves when that is inside the workspace, as an
// absolute link may be, which a lookup beneath the root does not follow.
func (g *grepper) readIgnore(root *confined.Root, rel string) ([]byte, error) {
	b, _, err := root.ReadFile(rel, documents.MaxFileBytes)
	if !errors.Is(err, confined.ErrOutside) {
		return b, err
	}
	wp, rerr := g.s.Roots.Resolve(filepath.Join(root.Path(), rel))
	if rerr != nil || g.roots[wp.Root] == nil {
		return nil, err
	}
	b, _, err = g.roots[wp.Root].ReadFile(filepath.FromSlash(wp.Rel), documents.MaxFileBytes)
	return b, err
}

// unreadIgnore says why an ignore file could not be read, or "" when
// there is none to read.
func unreadIgnore(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return ""
	case errors.Is(err, confined.ErrNotRegular):
		return "not a regular file"
	case errors.Is(err, confined.ErrOutside):
		return "it leads outside the workspace"
	case errors.Is(err, confined.ErrTooLarge):
		return fmt.Sprintf("over %d MiB", documents.MaxFileBytes>>20)
	}
	return "unreadable"
}

// concat appends own to inherited without writing into inherited's backing
// array, which sibling folders share.
func concat(inherited, own []gitignore.Pattern) []gitignore.Pattern {
	if len(own) == 0 {
		return inherited
	}
	return append(inherited[:len(inherited):len(inherited)], own...)
}

func relSlash(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// domainOf splits a workspace-relative folder into components; the root
// itself has none.
func domainOf(rel string) []string {
	if rel == "." || rel == "" {
		return nil
	}
	return strings.Split(rel, "/")
}

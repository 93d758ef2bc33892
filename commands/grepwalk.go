// The walk of grep: the files a path argument names, beneath its root,
// and the ignore files (.gitignore, .git/info/exclude) that
// leave files out on the way down.

package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"hashline-ls/confined"
	"hashline-ls/documents"
	"hashline-ls/hashline"
)

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

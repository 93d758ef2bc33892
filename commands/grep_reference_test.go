package commands

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/internal/gentree"
	"hashline-ls/internal/testenv"
	"hashline-ls/workspace"
)

// openBuffers serves some files from editor buffers and says which, as the
// language server's source does; the rest comes from the disk.
type openBuffers struct {
	documents.Disk
	buffers map[string]string // by absolute path
}

func (o openBuffers) Live(ctx context.Context, abs string) (documents.Live, error) {
	if text, ok := o.buffers[abs]; ok {
		return documents.Live{Text: hashline.NewText(text), Open: true, Version: 3}, nil
	}
	return o.Disk.Live(ctx, abs)
}

func (o openBuffers) IsOpen(abs string) bool {
	_, ok := o.buffers[abs]
	return ok
}

// askEveryFile hides IsOpen, so grep asks it for every file in turn.
type askEveryFile struct{ o openBuffers }

func (a askEveryFile) Live(ctx context.Context, abs string) (documents.Live, error) {
	return a.o.Live(ctx, abs)
}

// referenceResult is what the plain search finds.
type referenceResult struct {
	matches []GrepMatch
	tags    map[string]string
	counts  map[string]int
	files   []string
}

// grepReference is the plain search: every file under root but .git and
// what its ignore files ignore, binary ones left out, each line matched
// alone by the standard regexp, an open buffer's text in place of the
// disk's.
func grepReference(t *testing.T, root string, buffers map[string]string, expr string) referenceResult {
	t.Helper()
	re := regexp.MustCompile(expr)
	ref := referenceResult{matches: []GrepMatch{}, tags: map[string]string{}, counts: map[string]int{}, files: []string{}}
	// The patterns of every folder seen, its ancestors' first.
	patterns := map[string][]gitignore.Pattern{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		var comps []string
		if rel != "." {
			comps = strings.Split(rel, "/")
			ps := patterns[filepath.Dir(p)]
			if d.Name() == ".git" || gitignore.NewMatcher(ps).Match(comps, d.IsDir()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			ps := slices.Clone(patterns[filepath.Dir(p)])
			for _, name := range []string{".git/info/exclude", ".gitignore"} {
				b, _ := os.ReadFile(filepath.Join(p, name))
				for _, line := range strings.Split(strings.ReplaceAll(string(b), "\r", ""), "\n") {
					if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
						ps = append(ps, gitignore.ParsePattern(line, comps))
					}
				}
			}
			patterns[p] = ps
			return nil
		}
		text, open := buffers[p]
		if !open {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			text = string(b)
		}
		if strings.IndexByte(text[:min(len(text), 8192)], 0) >= 0 {
			return nil
		}
		tx := hashline.NewText(text)
		for n := 1; n <= tx.Len(); n++ {
			if re.MatchString(tx.Line(n)) {
				ref.matches = append(ref.matches, GrepMatch{Path: rel, Line: n, Text: tx.Line(n)})
				ref.counts[rel]++
			}
		}
		if ref.counts[rel] > 0 {
			ref.tags[rel] = string(tx.Tag())
			ref.files = append(ref.files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// sameMatches compares grep's matches with the reference's. A line grep
// cannot show whole, too long or not UTF-8, is shown by its start.
func sameMatches(got, want []GrepMatch) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d matches, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		shown := len(w.Text) <= hashline.MaxLineChars && utf8.ValidString(w.Text)
		start := []rune(strings.ToValidUTF8(w.Text, "\uFFFD"))
		start = start[:min(len(start), 40)]
		if g.Path != w.Path || g.Line != w.Line || shown && g.Text != w.Text || !shown && !strings.HasPrefix(g.Text, string(start)) {
			return fmt.Errorf("match %d is %s:%d %.60q, want %s:%d %.60q", i, g.Path, g.Line, g.Text, w.Path, w.Line, w.Text)
		}
	}
	return nil
}

// referencePatterns have one literal, several, one in any case, or none.
var referencePatterns = []string{
	gentree.HitPattern, gentree.NoHitPattern, `useState\(|useEffect\(`, `(?i)usestate|HANDLER`, `^\s*return\b`,
	`^$`, `[A-Z]{3}\d`, `=>`,
}

// grep finds what the plain search finds, on the react-edit corpus and on
// a generated tree with every hard line ending, with open buffers in place
// of some files, whether the Source says which files are open or not.
func TestGrepMatchesReference(t *testing.T) {
	gen := t.TempDir()
	if _, err := gentree.Write(gen, gentree.Spec{Seed: 11, Files: 100, SmallBytes: 300 << 10, Large: 1,
		LargeSize: gentree.Size{Min: 300 << 10, Max: 320 << 10}, Hits: 40, LargeHits: 2, Tricky: true}); err != nil {
		t.Fatal(err)
	}
	trees := []string{gen}
	if corpus, ok := testenv.OptionalCorpus(t, "react-edit"); ok {
		trees = append(trees, corpus)
	} else {
		t.Logf("the react-edit corpus is not at %s: the generated tree alone is searched", corpus)
	}
	for _, root := range trees {
		buffers := bufferEdits(t, root)
		roots, err := workspace.New(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, expr := range referencePatterns {
			onDisk, withBuffers := grepReference(t, root, nil, expr), grepReference(t, root, buffers, expr)
			for _, src := range []Source{documents.Disk{Roots: roots}, openBuffers{Disk: documents.Disk{Roots: roots}, buffers: buffers}, askEveryFile{openBuffers{Disk: documents.Disk{Roots: roots}, buffers: buffers}}} {
				s := &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: src, Sink: documents.Disk{Roots: roots}}
				ref := withBuffers
				if _, disk := src.(documents.Disk); disk {
					ref = onDisk
				}
				t.Run(fmt.Sprintf("%s/%T/%s", filepath.Base(root), src, expr), func(t *testing.T) { checkAgainstReference(t, s, ref, expr) })
			}
		}
	}
}

// bufferEdits makes editor buffers for a few of the tree's files: one that
// gains a match, one that loses its matches, one with CRLF endings.
func bufferEdits(t *testing.T, root string) map[string]string {
	t.Helper()
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, ".git") && len(files) < 40 {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 3 {
		t.Fatalf("too few files under %s", root)
	}
	buffers := map[string]string{}
	disk := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	buffers[files[0]] = disk(files[0]) + "func typedHandler() { useState(1) }\nreturn x\n"
	buffers[files[len(files)/2]] = "nothing here\n"
	last := files[len(files)-1]
	buffers[last] = strings.ReplaceAll(string(bytes.ToUpper([]byte(disk(last)))), "\n", "\r\n")
	return buffers
}

func checkAgainstReference(t *testing.T, s *Server, ref referenceResult, expr string) {
	r := grepOK(t, s, map[string]any{"pattern": expr, "maxResults": 1 << 20})
	if err := sameMatches(r.Matches, ref.matches); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Tags, ref.tags) || r.Truncated {
		t.Fatalf("tags %v truncated %v, want tags %v", r.Tags, r.Truncated, ref.tags)
	}
	r = grepOK(t, s, map[string]any{"pattern": expr, "mode": GrepCount, "maxResults": 1 << 20})
	if !reflect.DeepEqual(r.Counts, ref.counts) {
		t.Fatalf("counts %v, want %v", r.Counts, ref.counts)
	}
	r = grepOK(t, s, map[string]any{"pattern": expr, "mode": GrepFilesWithMatches, "maxResults": 1 << 20})
	if !reflect.DeepEqual(r.Files, ref.files) || !reflect.DeepEqual(r.Tags, ref.tags) {
		t.Fatalf("files %v, want %v", r.Files, ref.files)
	}
	// Cut short anywhere, the result is the reference's first matches.
	if n := len(ref.matches) / 3; n > 0 {
		r = grepOK(t, s, map[string]any{"pattern": expr, "maxResults": n})
		if err := sameMatches(r.Matches, ref.matches[:n]); err != nil || !r.Truncated {
			t.Fatalf("cut at %d: %v, truncated %v", n, err, r.Truncated)
		}
	}
}

// With room for little text ahead of the result, workers wait for it, and
// the result is the same.
func TestGrepWaitsForRoom(t *testing.T) {
	defer func(n int) { heldBytes = n }(heldBytes)
	heldBytes = 4 << 10
	root := t.TempDir()
	if _, err := gentree.Write(root, gentree.Spec{Seed: 12, Files: 300, SmallBytes: 2 << 20, Hits: 400}); err != nil {
		t.Fatal(err)
	}
	roots, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: documents.Disk{Roots: roots}, Sink: documents.Disk{Roots: roots}}
	checkAgainstReference(t, s, grepReference(t, root, nil, gentree.HitPattern), gentree.HitPattern)
}

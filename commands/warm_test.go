package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// A read of a file whose bytes are the ones the session last read reuses
// what it computed then; a file with one byte changed anywhere, the first,
// one in the middle, the last, one turned into a CR or a CR turned into an
// LF, always gets a digest of its own bytes and rows of them, read from
// disk or from the editor's buffer, and also when the change keeps the
// size.
func TestWarmReadSeesEveryChangedByte(t *testing.T) {
	bases := map[string]string{
		"lf":   "package a\n\nfunc f() {\n\treturn\n}\n",
		"crlf": "line one\r\nline two\r\nline three\r\n",
		"bom":  "\uFEFFfirst\nsecond  \nthird",
	}
	changes := map[string]func(string) string{
		"first":  func(s string) string { return flip(s, 0) },
		"middle": func(s string) string { return flip(s, len(s)/2) },
		"last":   func(s string) string { return flip(s, len(s)-1) },
		"to CR": func(s string) string {
			i := len(s) / 3
			return s[:i] + "\r" + s[i+1:]
		},
		"CR to LF": func(s string) string {
			if i := strings.IndexByte(s, '\r'); i >= 0 {
				return s[:i] + "\n" + s[i+1:]
			}
			return s[:len(s)-1] + "\r"
		},
	}
	for _, open := range []bool{false, true} {
		for bname, base := range bases {
			for cname, change := range changes {
				changed := change(base)
				if len(changed) != len(base) || changed == base {
					t.Fatalf("%s %s: the change must keep the size and change a byte", bname, cname)
				}
				t.Run(map[bool]string{false: "disk", true: "buffer"}[open]+"/"+bname+"/"+cname, func(t *testing.T) {
					s, hold := warmServer(t, base, open)
					for _, want := range []string{base, base, changed, changed, base} {
						hold(want)
						checkRead(t, s, want)
					}
				})
			}
		}
	}
}

// flip changes the byte at i into another printable one.
func flip(s string, i int) string {
	c := byte('x')
	if s[i] == 'x' {
		c = 'y'
	}
	return s[:i] + string(c) + s[i+1:]
}

// warmServer serves f.txt holding text from disk, or from an editor's
// buffer when open is set; hold makes the file hold a text.
func warmServer(t *testing.T, text string, open bool) (*Server, func(string)) {
	return serveOne(t, "f.txt", text, open)
}

// serveOne serves the file name, from disk (written by hold, not yet
// there), or from an editor's buffer holding text when open is set; hold
// makes the file hold a text.
func serveOne(t testing.TB, name, text string, open bool) (s *Server, hold func(string)) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	roots, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	disk := documents.Disk{Roots: roots}
	s = &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: disk, Sink: disk}
	abs := filepath.Join(roots.List()[0], name)
	if !open {
		return s, func(text string) {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	store := documents.NewStore()
	store.SetDisk(disk)
	store.Open(abs, "file:///"+name, 1, text)
	s.Source = store
	version := int32(1)
	return s, func(text string) {
		version++
		if err := store.Change(abs, version, []documents.Change{{Text: text}}); err != nil {
			t.Fatal(err)
		}
	}
}

// checkRead reads f.txt whole and checks that what the read shows, and what
// the session recorded, are of want and nothing else.
func checkRead(t *testing.T, s *Server, want string) {
	t.Helper()
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "f.txt"}))
	fresh := hashline.NewText(want)
	view := hashline.RenderWindowAs(hashline.AnchorTag, "f.txt", fresh, 1, defaultLimit)
	if r.Tag != string(fresh.Tag()) || r.Content != view.Content || r.TotalLines != fresh.Len() {
		t.Fatalf("read of %q: tag %s, %d lines, content\n%q\nwant tag %s, %d lines, content\n%q", want, r.Tag, r.TotalLines, r.Content, fresh.Tag(), fresh.Len(), view.Content)
	}
	sess, _ := s.Sessions.Lookup("default")
	abs := filepath.Join(s.Roots.List()[0], "f.txt")
	if snaps := sess.Snapshots(abs); len(snaps) == 0 || snaps[0].Digest != fresh.Digest() {
		t.Fatalf("read of %q: the session's newest snapshot is not of it", want)
	}
}

package commands

import (
	"context"
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

// A read of the bytes the session last read, of the window it last
// rendered, shows that view again; any other window, anchor style or
// path shown is rendered anew, and what the session records as shown is
// what a fresh render of each window shows, clipped rows left out.
func TestWarmReadShowsEachWindowAsRendered(t *testing.T) {
	long := strings.Repeat("é", hashline.MaxLineChars+1)
	base := "alpha\n\tbeta  \n" + long + "\ngamma\r\ndelta\n"
	type read struct {
		path          string
		offset, limit int
		anchors       string
	}
	whole := read{"f.txt", 1, defaultLimit, "tag"}
	for _, tc := range []struct {
		name  string
		reads []read
	}{
		{"whole again", []read{whole, whole, whole}},
		{"window between", []read{whole, {"f.txt", 2, 2, "tag"}, whole, {"f.txt", 2, 2, "tag"}}},
		{"anchors between", []read{whole, {"f.txt", 1, defaultLimit, "line"}, whole}},
		{"windows only", []read{{"f.txt", 4, 1, "tag"}, {"f.txt", 1, 1, "tag"}, {"f.txt", 4, 1, "tag"}}},
		{"another path between", []read{whole, {"g.txt", 1, defaultLimit, "tag"}, whole}},
	} {
		for _, open := range []bool{false, true} {
			t.Run(tc.name+map[bool]string{false: "/disk", true: "/buffer"}[open], func(t *testing.T) {
				s, hold := warmServer(t, base, open)
				hold(base)
				if err := os.WriteFile(filepath.Join(s.Roots.List()[0], "g.txt"), []byte(base), 0o644); err != nil {
					t.Fatal(err)
				}
				fresh := hashline.NewText(base)
				seen := map[string]*hashline.LineSet{"f.txt": {}, "g.txt": {}}
				for i, rd := range tc.reads {
					r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": rd.path, "offset": rd.offset, "limit": rd.limit, "anchors": rd.anchors}))
					view := hashline.RenderWindowAs(anchorStyle(rd.anchors), rd.path, fresh, rd.offset, rd.limit)
					seen[rd.path].Union(view.Seen)
					if r.Content != view.Content || r.LineCount != max(view.Last-view.First+1, 0) {
						t.Fatalf("read %d %+v: content\n%q\nwant\n%q", i, rd, r.Content, view.Content)
					}
					sess, _ := s.Sessions.Lookup("default")
					snaps := sess.Snapshots(filepath.Join(s.Roots.List()[0], rd.path))
					if len(snaps) != 1 || snaps[0].Seen.String() != seen[rd.path].String() {
						t.Fatalf("read %d %+v: the session holds %d versions; want one, seen %s", i, rd, len(snaps), seen[rd.path])
					}
				}
			})
		}
	}
}

// An edit of an open buffer that has not changed since the session read it
// is planned against the very text the read hashed: its digest is known,
// not computed again. A buffer changed since gets a text of its own.
func TestEditOfUnchangedBufferTakesTheReadText(t *testing.T) {
	const base = "one\ntwo\nthree\n"
	for _, tc := range []struct {
		name    string
		between string // the buffer's text after the read; "" leaves it as read
		same    bool   // the edit is planned against the text the read hashed
	}{
		{"unchanged", "", true},
		{"changed", "one\ntwo\nthree!\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, hold := warmServer(t, base, true)
			store := s.Source.(*documents.Store)
			abs := filepath.Join(s.Roots.List()[0], "f.txt")
			sink := &recordingSink{store: store}
			s.Sink = sink
			r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "f.txt"}))
			read, err := store.Live(context.Background(), abs)
			if err != nil || !read.Text.Hashed() {
				t.Fatalf("the buffer's text after a read is not hashed (%v)", err)
			}
			tag := r.Tag
			if tc.between != "" {
				hold(tc.between)
				tag = mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "f.txt"})).Tag
			}
			mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "f.txt", "tag": tag, "ops": "PUT 2.=2:\n+TWO"}))
			if len(sink.old) != 1 || (sink.old[0] == read.Text) != tc.same {
				t.Fatalf("the edit was planned against the text the read hashed: %v, want %v", len(sink.old) == 1 && sink.old[0] == read.Text, tc.same)
			}
		})
	}
}

// recordingSink applies a change set to the open buffers of store, as an
// editor does, and keeps the live texts it was planned against.
type recordingSink struct {
	store *documents.Store
	old   []*hashline.Text
}

func (k *recordingSink) Apply(_ context.Context, cs documents.ChangeSet) (documents.Landed, error) {
	landed := documents.Landed{}
	for _, fc := range cs.Files {
		k.old = append(k.old, fc.Old.Text)
		if err := k.store.Change(fc.Path, fc.Old.Version+1, []documents.Change{{Text: fc.New.Raw()}}); err != nil {
			return nil, err
		}
		landed[fc.Path] = fc.New
	}
	return landed, nil
}

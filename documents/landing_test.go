package documents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hashline-ls/hashline"
)

// What the editor does after it answered "applied", and what the rule makes
// of it (docs/design.md §5.4).
func TestLandingAwait(t *testing.T) {
	t.Parallel()
	const bom = "\uFEFF"
	type act func(t *testing.T, s *Store, path string)
	buffer := func(text string) act {
		return func(t *testing.T, s *Store, path string) {
			if err := s.Change(path, 2, []Change{{Text: text}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	opens := func(text string) act {
		return func(_ *testing.T, s *Store, path string) { s.Open(path, "", 1, text) }
	}
	disk := func(text string) act {
		return func(t *testing.T, _ *Store, path string) { write(t, path, text) }
	}
	removes := func(t *testing.T, _ *Store, path string) {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name      string
		kind      ChangeKind
		old, want string
		open      bool // the editor holds the file, with old as its text
		editor    []act
		got       string // the text landed, or
		fails     string // the failure's message, in part
		liveTag   string // and the live tag it carries
	}{
		{name: "as intended", kind: Modify, old: "a\nb\n", want: "a\nB\n", open: true,
			editor: []act{buffer("a\nB\n")}, got: "a\nB\n"},
		{name: "a formatter changed it after", kind: Modify, old: "a\nb\n", want: "a\nB\n", open: true,
			editor: []act{buffer("a\nB!\n")}, got: "a\nB!\n"},
		{name: "unchanged", kind: Modify, old: "a\nb\n", want: "a\nB\n", open: true,
			fails: "did not change within", liveTag: "a\nb\n"},
		{name: "changed elsewhere only", kind: Modify, old: "a\nb\n", want: "a\nB\n", open: true,
			editor: []act{buffer("A\nb\n")}, fails: "changed, but not as the edit intended", liveTag: "A\nb\n"},
		{name: "written on disk", kind: Modify, old: "a\nb\n", want: "a\nB\n",
			editor: []act{disk("a\nB\n")}, got: "a\nB\n"},
		{name: "opened by the editor, then edited", kind: Modify, old: "a\nb\n", want: "a\nB\n",
			editor: []act{opens("a\nb\n"), buffer("a\nB\n")}, got: "a\nB\n"},
		{name: "a BOM held outside the buffer", kind: Modify, old: bom + "a\n", want: bom + "A\n", open: true,
			editor: []act{buffer("A\n")}, got: bom + "A\n"},
		{name: "created", kind: Create, want: "new\n", editor: []act{opens("new\n")}, got: "new\n"},
		// An editor shows a new file as one empty line before its text
		// arrives; that is not the file landing.
		{name: "created, text not yet there", kind: Create, want: "new\n", editor: []act{opens("\n")},
			fails: "not as the edit intended", liveTag: "\n"},
		{name: "deleted", kind: Delete, old: "a\n", editor: []act{removes}},
		{name: "not deleted", kind: Delete, old: "a\n", fails: "is still there"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "f.txt")
			s := NewStore()
			s.SetDisk(diskAt(t, dir))
			fc := FileChange{Kind: c.kind, Path: path}
			if c.kind != Create {
				write(t, path, c.old)
				fc.Old = &Live{Text: hashline.NewText(c.old), Open: c.open, Version: 1}
			}
			if c.open {
				s.Open(path, "", 1, strings.TrimPrefix(c.old, bom))
			}
			if c.kind != Delete {
				fc.New = hashline.NewText(c.want)
			}
			if c.kind == Modify {
				fc.Hunks, _ = hashline.LineHunks(fc.Old.Text, fc.New)
			}
			land := NewLanding(ChangeSet{Files: []FileChange{fc}})
			after := s.Seq()
			for _, a := range c.editor {
				a(t, s, path)
			}
			bound := 2 * time.Second
			if c.fails != "" {
				bound = 100 * time.Millisecond
			}
			landed, err := land.Await(context.Background(), s, after, bound)
			if c.fails != "" {
				e := hashline.AsError(err)
				if err == nil || !strings.Contains(e.Message, c.fails) || e.Code != hashline.CodeToolFailed {
					t.Fatalf("Await = %v, want TOOL_FAILED saying %q", err, c.fails)
				}
				if c.liveTag != "" && e.Details.LiveTag != string(hashline.TagOf(c.liveTag)) {
					t.Fatalf("live tag = %s, want %s, the tag of %q", e.Details.LiveTag, hashline.TagOf(c.liveTag), c.liveTag)
				}
				return
			}
			if err != nil {
				t.Fatalf("Await: %v", err)
			}
			if c.kind == Delete {
				if len(landed) != 0 {
					t.Fatalf("landed = %v, want nothing for a deleted file", landed)
				}
				return
			}
			if got := landed[path]; got == nil || got.Raw() != c.got {
				t.Fatalf("landed = %v, want %q", landed, c.got)
			}
		})
	}
}

// A wait the caller cancels after the editor said it applied the edit is a
// failure that says the edit is most likely in the file.
func TestLandingAwaitCancelled(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f.txt")
	write(t, path, "a\n")
	s := NewStore()
	s.Open(path, "", 1, "a\n")
	old := hashline.NewText("a\n")
	land := NewLanding(ChangeSet{Files: []FileChange{{Kind: Modify, Path: path, Old: &Live{Text: old, Open: true}, New: hashline.NewText("b\n")}}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := land.Await(ctx, s, s.Seq(), time.Minute)
	if e := hashline.AsError(err); err == nil || e.Code != hashline.CodeToolFailed || !strings.Contains(e.Message, "most likely in it") {
		t.Fatalf("Await = %v, want TOOL_FAILED saying the edit is most likely in the file", err)
	}
}

// ReadBack reports what the disk holds after a sink wrote it: the intended
// text when it is that (or cannot be read), else what is there.
func TestLandingReadBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	same, other, moved, gone := filepath.Join(dir, "same"), filepath.Join(dir, "other"), filepath.Join(dir, "moved"), filepath.Join(dir, "gone")
	write(t, same, "s\n")
	write(t, other, "what another program wrote\n")
	want := hashline.NewText("s\n")
	land := NewLanding(ChangeSet{Files: []FileChange{
		{Kind: Modify, Path: same, New: want},
		{Kind: Modify, Path: other, New: hashline.NewText("o\n")},
		{Kind: Rename, Path: filepath.Join(dir, "from"), NewPath: moved, New: hashline.NewText("m\n")},
		{Kind: Delete, Path: gone},
	}})
	landed := land.ReadBack(diskAt(t, dir))
	if landed[same] != want {
		t.Errorf("%s = %v, want the intended text itself", same, landed[same])
	}
	if got := landed[other]; got == nil || got.Raw() != "what another program wrote\n" {
		t.Errorf("%s = %v, want what the disk holds", other, got)
	}
	if got := landed[moved]; got == nil || got.Raw() != "m\n" {
		t.Errorf("%s = %v, want the intended text of a file that cannot be read", moved, got)
	}
	if len(landed) != 3 {
		t.Errorf("landed = %v, want the three files that are there, not the deleted one", landed)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

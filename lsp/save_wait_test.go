package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"hashline-ls/documents"
	"hashline-ls/workspace"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Error(err)
	}
}

// The save waits run in synctest bubbles, so the editor's moves come at
// exact virtual times.
func TestAwaitSaved(t *testing.T) {
	t.Parallel()
	type move struct {
		at     time.Duration
		buffer string // the buffer's next text, or
		disk   string // the disk's
	}
	for _, c := range []struct {
		name   string
		open   string // the buffer's text; "" for a file the editor does not hold
		before string // the disk when the save was asked for
		moves  []move
		got    string
		after  time.Duration // when it returns
		fails  string
	}{
		{name: "saved before the answer", open: "a\n", before: "a\n", got: "a\n"},
		{name: "its BOM outside the buffer", open: "a\n", before: "\uFEFFa\n", got: "\uFEFFa\n"},
		{name: "format-on-save: the disk first, then the buffer's didChange", open: "a\n", before: "x\n",
			moves: []move{{at: 30 * time.Millisecond, disk: "A\n"}, {at: 200 * time.Millisecond, buffer: "A\n"}}, got: "A\n", after: 200 * time.Millisecond},
		{name: "format-on-save: the buffer first, then the disk", open: "a\n", before: "x\n",
			moves: []move{{at: 10 * time.Millisecond, buffer: "A\n"}, {at: 100 * time.Millisecond, disk: "A\n"}}, got: "A\n", after: 100 * time.Millisecond},
		{name: "a file the editor does not hold", before: "x\n",
			moves: []move{{at: 50 * time.Millisecond, disk: "a\n"}}, got: "a\n", after: 50 * time.Millisecond},
		{name: "never written", open: "a\n", before: "x\n", fails: "the file on disk did not hold the buffer's text within 1s", after: time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "f.txt")
				writeFile(t, path, c.before)
				s := documents.NewStore()
				roots, err := workspace.New(dir)
				if err != nil {
					t.Fatal(err)
				}
				s.SetDisk(documents.Disk{Roots: roots})
				if c.open != "" {
					s.Open(path, "", 1, c.open)
				}
				go func() {
					start := time.Now()
					for i, m := range c.moves {
						time.Sleep(m.at - time.Since(start))
						if m.buffer != "" {
							if err := s.Change(path, int32(i+2), []documents.Change{{Text: m.buffer}}); err != nil {
								t.Error(err)
							}
						} else {
							writeFile(t, path, m.disk)
						}
					}
				}()
				start := time.Now()
				got, err := awaitSaved(context.Background(), s, path, c.before, time.Second)
				if took := time.Since(start); took < c.after || took > c.after+20*time.Millisecond {
					t.Errorf("returned after %v, want %v", took, c.after)
				}
				if c.fails != "" {
					if err == nil || !strings.Contains(err.Error(), c.fails) {
						t.Fatalf("err = %v, want %q", err, c.fails)
					}
					return
				}
				if err != nil || got.Raw() != c.got {
					t.Fatalf("got %v, %v; want %q", got, err, c.got)
				}
			})
		})
	}
}

package documents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"hashline-ls/confined"
	"hashline-ls/hashline"
)

// diskFile is one file of a change set under test: its bytes and mode
// before, and the text the change set means to leave.
type diskFile struct {
	name     string
	old, new string
	mode     fs.FileMode
}

// threeFiles writes three files with distinct modes, endings and a BOM, and
// returns a change set that modifies all three.
func threeFiles(t *testing.T) (string, []diskFile, ChangeSet) {
	t.Helper()
	dir := t.TempDir()
	files := []diskFile{
		{name: "a.txt", old: "one\ntwo\n", new: "one\nTWO\n", mode: 0o600},
		{name: "sub/b.txt", old: "\uFEFFalpha\r\nbeta\r\n", new: "\uFEFFalpha\r\nBETA\r\n", mode: 0o755},
		{name: "c.txt", old: "x = 1  \nlast", new: "x = 2  \nlast", mode: 0o640},
	}
	cs := ChangeSet{Label: "test"}
	for i, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.old), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, f.mode); err != nil {
			t.Fatal(err)
		}
		// The mode the file has: on Windows, where a mode is only whether
		// the file is read-only, not the one asked for.
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		files[i].mode = fi.Mode().Perm()
		live, err := diskAt(t, dir).Live(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		cs.Files = append(cs.Files, FileChange{Kind: Modify, Path: p, Old: &live, New: hashline.NewText(f.new)})
	}
	return dir, files, cs
}

// failRename makes the rename onto the file named target fail, and counts
// the renames tried.
func failRename(t *testing.T, target string) *int {
	t.Helper()
	tries := 0
	orig := renameFile
	renameFile = func(d *confined.Dir, from, to string) error {
		tries++
		if filepath.Join(d.Path(), to) == target {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: errors.New("injected failure")}
		}
		return orig(d, from, to)
	}
	t.Cleanup(func() { renameFile = orig })
	return &tries
}

// unchanged checks every file's bytes and mode, and that no staged file is
// left in any folder of dir.
func unchanged(t *testing.T, dir string, files []diskFile) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != f.old {
			t.Errorf("%s = %q, want it as it was, %q", f.name, b, f.old)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != f.mode {
			t.Errorf("%s mode %v, want %v", f.name, fi.Mode().Perm(), f.mode)
		}
	}
	noStaged(t, dir)
}

func noStaged(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), ".hashline-") {
			t.Errorf("staged file left behind: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Tests in this file replace renameFile, so none of them runs in parallel.

func TestDiskApplyAllFiles(t *testing.T) {
	dir, files, cs := threeFiles(t)
	landed, err := diskAt(t, dir).Apply(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		p := cs.Files[i].Path
		b, _ := os.ReadFile(p)
		if string(b) != f.new || landed[p] == nil || landed[p].Raw() != f.new {
			t.Errorf("%s = %q, landed %v; want %q", f.name, b, landed[p] != nil, f.new)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != f.mode {
			t.Errorf("%s mode %v, want %v", f.name, fi.Mode().Perm(), f.mode)
		}
	}
	noStaged(t, dir)
}

// A rename that fails midway leaves every file as it was: the ones already
// replaced get their old bytes back, the rest are never touched.
func TestDiskApplyRenameFailsMidway(t *testing.T) {
	for failAt := 0; failAt < 3; failAt++ {
		t.Run(fmt.Sprintf("rename %d of 3 fails", failAt+1), func(t *testing.T) {
			dir, files, cs := threeFiles(t)
			tries := failRename(t, cs.Files[failAt].Path)
			landed, err := diskAt(t, dir).Apply(context.Background(), cs)
			if err == nil || landed != nil {
				t.Fatalf("Apply = %v, %v: want the rename's failure", landed, err)
			}
			if !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), cs.Files[failAt].Path) {
				t.Fatalf("error %q does not name the failed rename", err)
			}
			if *tries != failAt+1 {
				t.Fatalf("%d renames tried, want %d: the renames after a failure must not run", *tries, failAt+1)
			}
			unchanged(t, dir, files)
		})
	}
}

// A file that cannot be staged stops the change set before any file is
// replaced.
func TestDiskApplyStagingFails(t *testing.T) {
	t.Run("missing folder", func(t *testing.T) {
		dir, files, cs := threeFiles(t)
		gone := filepath.Join(dir, "gone", "d.txt")
		live := Live{Text: hashline.NewText("d\n")}
		cs.Files = append(cs.Files[:1], append([]FileChange{{Kind: Modify, Path: gone, Old: &live, New: hashline.NewText("D\n")}}, cs.Files[1:]...)...)
		if err := failsStaging(t, dir, files, cs); !strings.Contains(err.Error(), "stage") {
			t.Fatalf("Apply = %v: want a staging failure", err)
		}
	})
	t.Run("folder is a file", func(t *testing.T) {
		dir, files, cs := threeFiles(t)
		// As root, a folder without write permission still takes files,
		// so the folder that refuses is a regular file.
		blocker := filepath.Join(dir, "blocker")
		if err := os.WriteFile(blocker, []byte("not a folder\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		live := Live{Text: hashline.NewText("d\n")}
		cs.Files = append(cs.Files, FileChange{Kind: Modify, Path: filepath.Join(blocker, "d.txt"), Old: &live, New: hashline.NewText("D\n")})
		failsStaging(t, dir, files, cs)
		if b, _ := os.ReadFile(blocker); string(b) != "not a folder\n" {
			t.Fatalf("blocker = %q", b)
		}
	})
	if os.Geteuid() != 0 {
		t.Run("read-only folder", func(t *testing.T) {
			if runtime.GOOS == "windows" {
				t.Skip("Windows ignores a folder's read-only attribute, the mode 0555 sets")
			}
			dir, files, cs := threeFiles(t)
			sub := filepath.Join(dir, "sub")
			if err := os.Chmod(sub, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(sub, 0o755) })
			failsStaging(t, dir, files, cs)
		})
	}
}

// failsStaging applies cs and asserts that it failed before any file was
// renamed into place, leaving files as they were; it returns the failure.
func failsStaging(t *testing.T, dir string, files []diskFile, cs ChangeSet) error {
	t.Helper()
	tries := failRename(t, "")
	_, err := diskAt(t, dir).Apply(context.Background(), cs)
	if err == nil {
		t.Fatal("Apply succeeded: want a staging failure")
	}
	if *tries != 0 {
		t.Fatalf("%d renames ran before staging finished", *tries)
	}
	unchanged(t, dir, files)
	return err
}

// A failed rename also undoes a file the same change set created, so a
// change set is all or nothing whatever it holds.
func TestDiskApplyUndoesCreate(t *testing.T) {
	dir, files, cs := threeFiles(t)
	created := filepath.Join(dir, "new", "n.txt")
	cs.Files = append([]FileChange{{Kind: Create, Path: created, New: hashline.NewText("n\n")}}, cs.Files...)
	failRename(t, cs.Files[3].Path)
	if _, err := diskAt(t, dir).Apply(context.Background(), cs); err == nil {
		t.Fatal("Apply succeeded")
	}
	if _, err := os.Lstat(created); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the created file is still there: %v", err)
	}
	unchanged(t, dir, files)
}

// A file another program changed after it was read is not overwritten: the
// change set was proven against the old bytes.
func TestApplyRefusesFileChangedSinceRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	live, err := diskAt(t, dir).Live(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("EXTERNAL\none\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	next := hashline.NewText("one\nTWO\n")
	_, err = diskAt(t, dir).Apply(context.Background(), ChangeSet{Files: []FileChange{{Kind: Modify, Path: p, Old: &live, New: next}}})
	if !errors.Is(err, ErrNotApplied) {
		t.Fatalf("Apply = %v, want ErrNotApplied", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "EXTERNAL\none\ntwo\n" {
		t.Fatalf("file = %q: the outside change was lost", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind %v", entries)
	}
}

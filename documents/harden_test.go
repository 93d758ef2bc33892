package documents

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/confined"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

// modify is a change set that edits the file at path from old to new.
func modify(t *testing.T, d Disk, path, new string) ChangeSet {
	t.Helper()
	live, err := d.Live(context.Background(), path)
	if err != nil || !live.Exists() {
		t.Fatalf("Live(%s) = %v, %v", path, live, err)
	}
	return ChangeSet{Files: []FileChange{{Kind: Modify, Path: path, Old: &live, New: hashline.NewText(new)}}}
}

func statOf(t *testing.T, path string) confined.Info {
	t.Helper()
	_, info, err := confined.ReadFile(filepath.Dir(path), filepath.Base(path), MaxFileBytes)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// An edit of a file with a second hard link writes it in place: both names
// show the new text and stay one file (docs/design.md §6.2). Before the fix,
// the edited name got a new inode and the other kept the old text.
func TestDiskApplyKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	write(t, a, "one\ntwo\n")
	if err := os.Chmod(a, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	d := diskAt(t, dir)
	before := statOf(t, a)
	landed, err := d.Apply(context.Background(), modify(t, d, a, "one\nTWO\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := landed[a]; got == nil || got.Raw() != "one\nTWO\n" {
		t.Fatalf("landed = %v", landed)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "one\nTWO\n" {
			t.Errorf("%s = %q, want the new text under both names", filepath.Base(p), got)
		}
	}
	after := statOf(t, a)
	if after.ID != before.ID || after.Links != 2 || after.Mode.Perm() != before.Mode.Perm() {
		t.Errorf("file %v → %v, links %d, mode %v → %v: want one file with two links, mode kept", before.ID, after.ID, after.Links, before.Mode, after.Mode)
	}
	noStaged(t, dir)
}

// An edit keeps the file's owner and group, which a file staged by another
// user (root, here) would not have.
func TestDiskApplyKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another owner needs root")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	write(t, p, "one\n")
	if err := os.Chown(p, 1234, 5678); err != nil {
		t.Fatal(err)
	}
	d := diskAt(t, dir)
	if _, err := d.Apply(context.Background(), modify(t, d, p, "ONE\n")); err != nil {
		t.Fatal(err)
	}
	if st := statOf(t, p); st.UID != 1234 || st.GID != 5678 {
		t.Fatalf("owner %d:%d, want 1234:5678", st.UID, st.GID)
	}
	if got, _ := os.ReadFile(p); string(got) != "ONE\n" {
		t.Fatalf("file = %q", got)
	}
}

// A file with no write bit is refused with a code that says why and what
// to do, whatever the change, and even as root (docs/design.md §6.1). Before
// the fix, root replaced it.
func TestDiskApplyRefusesReadOnly(t *testing.T) {
	for _, kind := range []ChangeKind{Modify, Rename, Delete} {
		t.Run(map[ChangeKind]string{Modify: "modify", Rename: "rename", Delete: "delete"}[kind], func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "ro.txt")
			write(t, p, "keep\n")
			if err := os.Chmod(p, 0o444); err != nil {
				t.Fatal(err)
			}
			d := diskAt(t, dir)
			cs := modify(t, d, p, "changed\n")
			cs.Files[0].Kind = kind
			if kind == Rename {
				cs.Files[0].NewPath = filepath.Join(dir, "moved.txt")
			}
			_, err := d.Apply(context.Background(), cs)
			var he *hashline.Error
			if !errors.As(err, &he) || he.Code != hashline.CodeInvalidArgument || !strings.Contains(he.Message, "read-only") || !strings.Contains(he.Message, makeWritable("ro.txt")) {
				t.Fatalf("Apply = %v, want INVALID_ARGUMENT saying it is read-only and how to change that", err)
			}
			if got, _ := os.ReadFile(p); string(got) != "keep\n" {
				t.Fatalf("file = %q", got)
			}
			if _, err := os.Lstat(filepath.Join(dir, "moved.txt")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the refused move left its destination: %v", err)
			}
			noStaged(t, dir)
		})
	}
}

// The disk is read only beneath a root: a path no root holds any more is
// refused, and a FIFO is refused without blocking.
func TestDiskConfined(t *testing.T) {
	dir := t.TempDir()
	d := diskAt(t, dir)
	if _, err := d.Live(context.Background(), filepath.Join(filepath.Dir(dir), "elsewhere.txt")); hashline.AsError(err).Code != hashline.CodePathOutsideWorkspace {
		t.Fatalf("Live outside the roots = %v, want PATH_OUTSIDE_WORKSPACE", err)
	}
	if _, err := (Disk{}).Live(context.Background(), filepath.Join(dir, "a.txt")); hashline.AsError(err).Code != hashline.CodePathOutsideWorkspace {
		t.Fatalf("Live on a Disk without roots = %v, want PATH_OUTSIDE_WORKSPACE", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Live(context.Background(), fifo); hashline.AsError(err).Code != hashline.CodeInvalidArgument || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("Live of a FIFO = %v, want INVALID_ARGUMENT", err)
	}
}

//go:build !windows

package endpoint

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestFolderPath(t *testing.T) {
	for _, tc := range []struct {
		tmpdir string
		uid    int
		want   string
	}{
		{"", 1000, "/tmp/hashline-1000"},
		{"/var/tmp", 0, "/var/tmp/hashline-0"},
		{"/var/tmp/", 501, "/var/tmp/hashline-501"},
		{"relative/dir", 7, "/tmp/hashline-7"}, // a relative TMPDIR cannot be found again from another folder
	} {
		if got := FolderPath(tc.tmpdir, tc.uid); got != tc.want {
			t.Errorf("FolderPath(%q, %d) = %q, want %q", tc.tmpdir, tc.uid, got, tc.want)
		}
	}
}

func TestOpenFindsTheFolderFromTMPDIRAndUID(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(tmp, "xdg")) // never consulted
	r, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(tmp, "hashline-"+strconv.Itoa(os.Getuid()))
	if r.Dir() != want {
		t.Fatalf("Dir() = %q, want %q", r.Dir(), want)
	}
	fi, err := os.Lstat(want)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("folder %s: %v, mode %v; want a 0700 directory", want, err, fi.Mode())
	}
	if _, err := os.Stat(filepath.Join(tmp, "xdg")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("XDG_RUNTIME_DIR was used: %v", err)
	}
}

func TestFolderRules(t *testing.T) {
	uid := os.Getuid()
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, dir string) // nil: the folder is missing
		refused string                         // a phrase of the refusal, "" when accepted
	}{
		{"missing: created", nil, ""},
		{"ours, 0700", func(t *testing.T, dir string) { mkdir(t, dir, 0o700) }, ""},
		{"group-readable", func(t *testing.T, dir string) { mkdir(t, dir, 0o750) }, "mode 0750, not 0700"},
		{"world-writable", func(t *testing.T, dir string) { mkdir(t, dir, 0o777) }, "mode 0777, not 0700"},
		{"owner has no write", func(t *testing.T, dir string) { mkdir(t, dir, 0o500) }, "mode 0500, not 0700"},
		{"a file", func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "is not a directory"},
		{"a link to a 0700 folder", func(t *testing.T, dir string) {
			target := dir + ".real"
			mkdir(t, target, 0o700)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "is a symbolic link"},
		{"another user's", func(t *testing.T, dir string) {
			if uid != 0 {
				t.Skip("giving a folder to another user needs root")
			}
			mkdir(t, dir, 0o700)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, "belongs to uid 65534, not to you"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := FolderPath(t.TempDir(), uid)
			if tc.prepare != nil {
				tc.prepare(t, dir)
			}
			r, err := OpenDir(dir, uid)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				fi, err := os.Lstat(r.Dir())
				if err != nil || fi.Mode().Perm() != 0o700 {
					t.Fatalf("folder after Open: %v %v", err, fi.Mode())
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeUnsafeFolder {
				t.Fatalf("err = %v, want %s", err, CodeUnsafeFolder)
			}
			if !strings.Contains(e.Msg, tc.refused) || !strings.Contains(e.Msg, dir) {
				t.Fatalf("message %q does not say %q about %s", e.Msg, tc.refused, dir)
			}
			if !strings.Contains(e.Msg, "TMPDIR") && !strings.Contains(e.Msg, "chmod") {
				t.Fatalf("message %q names no next step", e.Msg)
			}
		})
	}
}

func mkdir(t *testing.T, dir string, perm os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
}

package confined

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"hashline-ls/internal/testenv"
)

// The helper process of TestLockBetweenProcesses: it takes the lock of the
// folder HASHLINE_LOCK_HELPER names, says so, and holds it until its stdin
// closes.
func TestMain(m *testing.M) { testenv.Main(m, "HASHLINE_LOCK_HELPER", holdLock) }

func holdLock(dir string) int {
	d, err := OpenDir(dir, "")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	unlock, err := Lock(context.Background(), d)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
	unlock()
	return 0
}

// winTree is a root with a file in a folder, a large file, and a folder
// beside the root.
func winTree(t *testing.T) (root, outside string) {
	t.Helper()
	return rootBesideOutside(t, "Sub/Data.txt")
}

// Names are looked up as Windows does (either separator, any case), and
// nothing outside the root, no folder and nothing too large is read.
func TestReadFileWindows(t *testing.T) {
	root, _ := winTree(t)
	checkReads(t, root, []readCase{
		{rel: `Sub\Data.txt`, want: "inside\n"},
		{rel: "sub/data.TXT", want: "inside\n"},
		{rel: `..\outside\data.txt`, err: ErrOutside},
		{rel: `Sub\..\..\outside\data.txt`, err: ErrOutside},
		{rel: "Sub", err: ErrNotRegular},
		{rel: "big.txt", err: ErrTooLarge},
		{rel: "missing.txt", err: fs.ErrNotExist},
	})
	// Two names of one file give one ID, which Lock orders folders by.
	_, a, err := ReadFile(root, `Sub\Data.txt`, 50)
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := ReadFile(root, "SUB/DATA.TXT", 50)
	if err != nil || a.ID != b.ID || a.ID == (ID{}) || a.Links != 1 {
		t.Fatalf("IDs %+v and %+v (%v): want one, not zero, with one link", a, b, err)
	}
}

// Stage, Link, Rename and Remove act in the folder opened; a name that is
// not one plain element on Windows is refused before anything is touched.
func TestDirWindows(t *testing.T) {
	root, _ := winTree(t)
	d, tmp := stagedInNewDir(t, root, `new\deeper`, 0o644, nil)
	if ok, err := d.Exists(tmp); ok || err != nil {
		t.Fatalf("Exists(%s) after Remove = %v, %v", tmp, ok, err)
	}
	got, info, err := d.Read("f.txt", 100)
	if err != nil || string(got) != "staged\n" || info.Mode.Perm()&0o200 == 0 {
		t.Fatalf("Read = %q %+v %v", got, info, err)
	}
	for _, bad := range []string{"../big.txt", `..\big.txt`, `a\b`, "f.txt:stream", "CON", "nul.txt", "trailing.", "trailing "} {
		if _, err := d.Open(bad, os.O_RDONLY); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) = %v, want fs.ErrInvalid", bad, err)
		}
	}
	es, err := d.Entries()
	if err != nil || len(es) != 1 || es[0].Name() != "f.txt" {
		t.Fatalf("Entries = %v, %v", es, err)
	}
}

// A folder renamed away, and another put in its place, after it was
// opened: what is written through the opened folder lands in the folder
// that was checked, never in the one that took its name. Wine 8 refuses
// the writes instead (it finds a folder's handle by the folder's path),
// which also leaves the impostor alone.
func TestFolderSwappedAfterOpen(t *testing.T) {
	root, _ := winTree(t)
	d := openedDir(t, root, "Sub")
	if err := os.Rename(filepath.Join(root, "Sub"), filepath.Join(root, "Checked")); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, root, map[string]string{"Sub/Data.txt": "impostor\n"})
	err := func() error {
		tmp, err := d.Stage("Data.txt", "edited\n", 0o644, nil)
		if err != nil {
			return err
		}
		return d.Rename(tmp, "Data.txt")
	}()
	want := "edited\n"
	if err != nil {
		if !testenv.Wine() {
			t.Fatal(err)
		}
		t.Logf("Wine refused the write through the renamed folder: %v", err)
		want = "inside\n"
	}
	for rel, want := range map[string]string{`Checked\Data.txt`: want, `Sub\Data.txt`: "impostor\n"} {
		if b, err := os.ReadFile(filepath.Join(root, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", rel, b, err, want)
		}
	}
	if es, _ := os.ReadDir(filepath.Join(root, "Sub")); len(es) != 1 {
		t.Errorf("the impostor folder holds %v, want only its own file", es)
	}
}

// The replacement keeps the replaced file's DACL, here protected and with
// an ACE of its own, as ReplaceFileW would; a new file beside it takes the
// folder's defaults instead.
func TestStageKeepsDACL(t *testing.T) {
	root, _ := winTree(t)
	path := filepath.Join(root, "Sub", "Data.txt")
	me, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	sd, err := windows.SecurityDescriptorFromString(fmt.Sprintf("D:P(A;;FA;;;%s)(A;;FR;;;S-1-5-32-545)", me.User.Sid))
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		t.Fatal(err)
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
	before := securityOf(t, path)
	if !strings.Contains(before, "D:P") || !strings.Contains(before, "S-1-5-32-545") {
		t.Skipf("the DACL set does not read back (%s): this file system keeps no DACLs (Wine 8 keeps none), so there is nothing to keep", before)
	}
	d := replace(t, root, "Data.txt")
	defer d.Close()
	if after := securityOf(t, path); after != before {
		t.Errorf("security after the replace:\n%s\nwant, as before:\n%s", after, before)
	}
	tmp, err := d.Stage("New.txt", "new\n", 0o644, &Info{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Link(tmp, "New.txt"); err != nil {
		t.Fatal(err)
	}
	if got := securityOf(t, filepath.Join(root, "Sub", "New.txt")); got == before {
		t.Errorf("a new file took the protected DACL of another: %s", got)
	}
}

// The replacement keeps the replaced file's attributes (hidden) and its
// creation time, as ReplaceFileW would.
func TestStageKeepsAttributes(t *testing.T) {
	root, _ := winTree(t)
	path := filepath.Join(root, "Sub", "Data.txt")
	p16, _ := windows.UTF16PtrFromString(path)
	if err := windows.SetFileAttributes(p16, windows.FILE_ATTRIBUTE_HIDDEN); err != nil {
		t.Fatal(err)
	}
	created := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	setCreation(t, path, created)
	keepsCreation := creationOf(t, path).Equal(created)
	replace(t, root, "Data.txt").Close()
	attrs, err := windows.GetFileAttributes(p16)
	if err != nil || attrs&windows.FILE_ATTRIBUTE_HIDDEN == 0 {
		t.Errorf("attributes after the replace: %#x, %v; want hidden kept", attrs, err)
	}
	if !keepsCreation {
		t.Logf("a creation time set does not read back on this file system (Wine 8 on Linux keeps none): not checked")
	} else if got := creationOf(t, path); !got.Equal(created) {
		t.Errorf("creation time after the replace: %v, want %v", got, created)
	}
}

// replace edits name in root's Sub as the disk writer does: opened, staged
// like it, renamed over it. It returns the folder, open.
func replace(t *testing.T, root, name string) *Dir {
	t.Helper()
	d, err := OpenDir(root, "Sub")
	if err != nil {
		t.Fatal(err)
	}
	f, err := d.Open(name, os.O_RDONLY)
	if err != nil {
		t.Fatal(err)
	}
	info := f.Info
	f.Close()
	tmp, err := d.Stage(name, "edited\n", info.Mode.Perm(), &info)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "Sub", name)); err != nil || string(b) != "edited\n" {
		t.Fatalf("after the replace: %q, %v", b, err)
	}
	return d
}

func securityOf(t *testing.T, path string) string {
	t.Helper()
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	return sd.String()
}

func setCreation(t *testing.T, path string, at time.Time) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ft := windows.NsecToFiletime(at.UnixNano())
	if err := windows.SetFileTime(windows.Handle(f.Fd()), &ft, nil, nil); err != nil {
		t.Fatal(err)
	}
}

func creationOf(t *testing.T, path string) time.Time {
	t.Helper()
	var data windows.Win32FileAttributeData
	p16, _ := windows.UTF16PtrFromString(path)
	if err := windows.GetFileAttributesEx(p16, windows.GetFileExInfoStandard, (*byte)(unsafe.Pointer(&data))); err != nil {
		t.Fatal(err)
	}
	return time.Unix(0, data.CreationTime.Nanoseconds()).UTC()
}

// A rename over a file another program holds without FILE_SHARE_DELETE, as
// a scanner does for a moment, waits for it to let go.
func TestRenameWaitsForASharingProgram(t *testing.T) {
	root, _ := winTree(t)
	d := openedDir(t, root, "Sub")
	tmp, err := d.Stage("Data.txt", "edited\n", 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	p16, _ := windows.UTF16PtrFromString(filepath.Join(root, "Sub", "Data.txt"))
	h, err := windows.CreateFile(p16, windows.GENERIC_READ, windows.FILE_SHARE_READ, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan time.Time, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		released <- time.Now()
		windows.CloseHandle(h)
	}()
	if err := d.Rename(tmp, "Data.txt"); err != nil {
		t.Fatalf("Rename while a program held the file: %v", err)
	}
	done := time.Now()
	if at := <-released; done.Before(at) {
		t.Fatalf("the rename finished before the holder let go: the hold proved nothing")
	}
	if b, _, err := d.Read("Data.txt", 100); err != nil || string(b) != "edited\n" {
		t.Fatalf("after the rename: %q, %v", b, err)
	}
}

// Lock excludes another process until it lets go, and a process that dies
// holding it lets go too.
func TestLockBetweenProcesses(t *testing.T) {
	root, _ := winTree(t)
	sub := filepath.Join(root, "Sub")
	for _, ending := range []string{"release", "die"} {
		t.Run(ending, func(t *testing.T) {
			helper := testenv.Self(t, []string{"HASHLINE_LOCK_HELPER=" + sub})
			stdin, stdout := testenv.StartPiped(t, helper)
			defer helper.Process.Kill()
			if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "locked\n" {
				t.Fatalf("helper: %q", line)
			}
			d := openedDir(t, root, "Sub")
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			if _, err := Lock(ctx, d); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Lock while another process holds it = %v, want the wait to end with ctx", err)
			}
			if ending == "release" {
				stdin.Close()
			} else {
				helper.Process.Kill()
			}
			helper.Wait()
			unlock, err := Lock(context.Background(), d)
			if err != nil {
				t.Fatalf("Lock after the other process %s: %v", ending, err)
			}
			unlock()
		})
	}
}

// OpenFD hands over a handle of its own, which outlives the Root.
func TestOpenFDWindows(t *testing.T) {
	root, _ := winTree(t)
	r, err := OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := r.OpenFD(`Sub\Data.txt`)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "data")
	defer f.Close()
	b := make([]byte, 16)
	n, err := f.Read(b)
	if err != nil || string(b[:n]) != "inside\n" {
		t.Fatalf("read %q, %v", b[:n], err)
	}
	if _, err := r.OpenFD(`..\outside\data.txt`); err == nil {
		t.Fatal("OpenFD of a closed root answered")
	}
}

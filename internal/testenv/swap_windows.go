package testenv

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// exchange swaps a and b in three renames, through a third name beside a.
func exchange(a, b string) error {
	aside := filepath.Join(filepath.Dir(a), ".swap-"+filepath.Base(a))
	for _, r := range [][2]string{{a, aside}, {b, a}, {aside, b}} {
		if err := os.Rename(r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}

// ResetIn writes text to name in the folder dir, wherever it is named now.
func ResetIn(t testing.TB, dir *os.File, name, text string) {
	t.Helper()
	objName, err := windows.NewNTUnicodeString(name)
	if err != nil {
		t.Fatal(err)
	}
	oa := &windows.OBJECT_ATTRIBUTES{RootDirectory: windows.Handle(dir.Fd()), ObjectName: objName, Attributes: windows.OBJ_CASE_INSENSITIVE}
	oa.Length = uint32(unsafe.Sizeof(*oa))
	var h windows.Handle
	if err := windows.NtCreateFile(&h, windows.GENERIC_WRITE|windows.SYNCHRONIZE, oa, &windows.IO_STATUS_BLOCK{}, nil, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, windows.FILE_OVERWRITE,
		windows.FILE_OPEN_REPARSE_POINT|windows.FILE_SYNCHRONOUS_IO_NONALERT|windows.FILE_NON_DIRECTORY_FILE, 0, 0); err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(h), name)
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

package testenv

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Swap exchanges a and b over and over, to race what the test does with
// them, until stop is called or the test ends; stop reports how many swaps
// were made. Windows has no atomic exchange: each swap is three renames,
// through a third name beside a, so for a moment one of the two names is
// missing.
func Swap(t testing.TB, a, b string) (stop func() int) {
	t.Helper()
	var swaps atomic.Int64
	quit, done := make(chan struct{}), make(chan struct{})
	aside := filepath.Join(filepath.Dir(a), ".swap-"+filepath.Base(a))
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
			}
			for _, r := range [][2]string{{a, aside}, {b, a}, {aside, b}} {
				if err := os.Rename(r[0], r[1]); err != nil {
					t.Errorf("exchange: %v", err)
					return
				}
			}
			swaps.Add(1)
		}
	}()
	var once sync.Once
	stop = func() int {
		once.Do(func() { close(quit) })
		<-done
		return int(swaps.Load())
	}
	t.Cleanup(func() { stop() })
	return stop
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

package workspace

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// The names of files as Windows compares them: in any case. A drive is
// spelt in capitals and every existing element as its folder spells it,
// so that one file has one canonical path, however it was named (c:\x,
// C:\X, an 8.3 short name); the comparisons fold case all the same.

func samePath(a, b string) bool { return strings.EqualFold(a, b) }

func canonVolume(vol string) string {
	if len(vol) == 2 && vol[1] == ':' {
		return strings.ToUpper(vol)
	}
	return vol
}

// onDisk is the name c of the existing entry next, as its folder spells
// it (FindFirstFile reads the folder's entry, not what a link names).
func onDisk(next, c string) string {
	p, err := windows.UTF16PtrFromString(next)
	if err != nil {
		return c
	}
	var data windows.Win32finddata
	h, err := windows.FindFirstFile(p, &data)
	if err != nil {
		return c
	}
	windows.FindClose(h)
	return windows.UTF16ToString(data.FileName[:])
}

// checkName refuses an element that Windows reads as something other than
// a file's name: a device (CON, NUL, COM1...), an alternate data stream
// (name:stream), a wildcard or another character no name may hold, or a
// name ending in a dot or a space, which Windows drops.
func checkName(orig, c string) error {
	if c == ".." {
		return nil
	}
	if !filepath.IsLocal(c) || strings.ContainsAny(c, `:*?"<>|`) || strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
		return &Error{Kind: Invalid, Path: orig,
			Msg: fmt.Sprintf("path %q holds %q, which Windows reads as a device, a data stream, a wildcard or a name without its last dot or space: name the file as it is spelt on disk", orig, c)}
	}
	return nil
}

// uncPath is the UNC path a file URI naming a host stands for:
// file://server/share/a.go is \\server\share\a.go. A drive read as the
// host, file://C:/a.go, as a URI joined to a path by hand has it, is the
// drive's C:\a.go.
func uncPath(u *url.URL) (string, bool) {
	switch {
	case u.Host == "" || strings.EqualFold(u.Host, "localhost"):
		return "", false
	case len(u.Host) == 2 && u.Host[1] == ':':
		return u.Host + filepath.FromSlash(u.Path), true
	}
	return `\\` + u.Host + filepath.FromSlash(u.Path), true
}

// onRootDrive puts a path rooted without a drive, \etc\x, on the drive of
// the first root, as Windows puts it on the current drive: it is absolute,
// and inside the workspace only when the workspace holds it.
func onRootDrive(name string, roots []string) string {
	if len(roots) == 0 || filepath.VolumeName(name) != "" || len(name) == 0 || !os.IsPathSeparator(name[0]) {
		return name
	}
	return filepath.VolumeName(roots[0]) + name
}

package lsp

import (
	"net/url"
	"path/filepath"
	"strings"
)

// localPath is the Windows path of a file URI's path: /c:/Users/me is
// C:\Users\me, the drive in capitals, as the path resolver spells it, so
// that c: and C: name one file.
func localPath(p string) string {
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = strings.ToUpper(p[1:2]) + p[2:]
	}
	return filepath.FromSlash(p)
}

// hostPath is the UNC path of a URI naming a host: file://server/share/a
// is \\server\share\a.
func hostPath(u *url.URL) (string, bool) {
	return `\\` + u.Host + filepath.FromSlash(u.Path), true
}

// pathURL is the file URL of an absolute Windows path: C:\a is
// file:///C:/a, \\server\share\a is file://server/share/a.
func pathURL(path string) *url.URL {
	if strings.HasPrefix(path, `\\`) {
		host, rest, _ := strings.Cut(path[2:], `\`)
		return &url.URL{Scheme: "file", Host: host, Path: "/" + filepath.ToSlash(rest)}
	}
	return &url.URL{Scheme: "file", Path: "/" + filepath.ToSlash(path)}
}

package lsptest

import (
	"net/url"
	"path/filepath"
	"strings"
)

// uriOf spells a Windows path as VS Code does: the drive in small letters
// and its colon escaped, file:///c%3A/Users/me/a.go.
func uriOf(path string) string {
	if len(path) >= 2 && path[1] == ':' {
		rest := (&url.URL{Path: filepath.ToSlash(path[2:])}).EscapedPath()
		return "file:///" + strings.ToLower(path[:1]) + "%3A" + rest
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// pathOf is the path of a file URL, the drive in capitals as the
// workspace's paths have it: file:///c%3A/a and file:///C:/a are C:\a.
func pathOf(u *url.URL) string {
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = strings.ToUpper(p[1:2]) + p[2:]
	}
	if u.Host != "" {
		return `\\` + u.Host + filepath.FromSlash(p)
	}
	return filepath.FromSlash(p)
}

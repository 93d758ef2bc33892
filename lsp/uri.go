package lsp

import (
	"net/url"
)

// uriPath returns the local path of a file:// URI: on Windows,
// file:///c%3A/Users/me/a.go, as VS Code sends it, is C:\Users\me\a.go
// (uri_windows.go).
func uriPath(uri string) (string, bool) {
	if uri == "" {
		return "", false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	if u.Host != "" && u.Host != "localhost" {
		return hostPath(u)
	}
	return localPath(u.Path), true
}

// fileURI is the file:// URI of an absolute path.
func fileURI(path string) string { return pathURL(path).String() }

//go:build !windows

package lsp

import (
	"net/url"
	"path/filepath"
)

func localPath(p string) string { return filepath.FromSlash(p) }

// hostPath: a URI naming another host names no local file.
func hostPath(*url.URL) (string, bool) { return "", false }

func pathURL(path string) *url.URL {
	return &url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
}

//go:build !windows

package lsptest

import (
	"net/url"
	"path/filepath"
)

func uriOf(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func pathOf(u *url.URL) string { return filepath.FromSlash(u.Path) }

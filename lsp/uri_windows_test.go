package lsp

import "testing"

// Windows paths and file URIs, both ways: VS Code's c%3A, any drive's
// case, UNC shares.
func TestURIWindows(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///c%3A/Users/me/a.go":     `C:\Users\me\a.go`,
		"file:///C:/Users/me/a%20b.go":   `C:\Users\me\a b.go`,
		"file:///d:/x":                   `D:\x`,
		"file://server/share/dir/a.go":   `\\server\share\dir\a.go`,
		"file://localhost/C:/Users/a.go": `C:\Users\a.go`,
	} {
		if got, ok := uriPath(uri); !ok || got != want {
			t.Errorf("uriPath(%q) = %q, %v; want %q", uri, got, ok, want)
		}
	}
	for path, want := range map[string]string{
		`C:\Users\me\a b.go`:      "file:///C:/Users/me/a%20b.go",
		`\\server\share\dir\a.go`: "file://server/share/dir/a.go",
	} {
		if got := fileURI(path); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", path, got, want)
		}
		if back, ok := uriPath(fileURI(path)); !ok || back != path {
			t.Errorf("uriPath(fileURI(%q)) = %q, %v", path, back, ok)
		}
	}
}

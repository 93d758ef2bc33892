package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On Windows one file has one canonical path, however it is named: any
// case, either separator, the drive in small letters, VS Code's
// file:///c%3A/ URIs; roots match in any case; names Windows reads as
// devices, streams or wildcards are refused.
func TestResolveWindows(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "Work")
	for _, p := range []string{`Sub\Main.go`, "readme.txt"} {
		mustMkdir(t, filepath.Dir(filepath.Join(root, p)))
		mustWrite(t, filepath.Join(root, p))
	}
	mustWrite(t, filepath.Join(base, "outside.txt"))
	r, err := New(strings.ToLower(root))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.List(); len(got) != 1 || got[0] != root {
		t.Fatalf("roots = %q, want the folder as the disk spells it, %q", got, root)
	}
	main := filepath.Join(root, "Sub", "Main.go")
	lowerDrive := strings.ToLower(main[:1]) + main[1:]
	vscode := "file:///" + strings.ToLower(main[:1]) + "%3A" + strings.ReplaceAll(filepath.ToSlash(main[2:]), " ", "%20")
	for _, c := range []struct {
		in, abs, rel string
		exists       bool
	}{
		{`Sub\Main.go`, main, "Sub/Main.go", true},
		{"sub/main.GO", main, "Sub/Main.go", true},
		{lowerDrive, main, "Sub/Main.go", true},
		{strings.ToUpper(main), main, "Sub/Main.go", true},
		{vscode, main, "Sub/Main.go", true},
		{main[2:], main, "Sub/Main.go", true}, // rooted, without its drive
		{"file:///" + filepath.ToSlash(main), main, "Sub/Main.go", true},
		{"file://" + filepath.ToSlash(main), main, "Sub/Main.go", true},
		{`sub\New.go`, filepath.Join(root, "Sub", "New.go"), "Sub/New.go", false},
	} {
		p, err := r.Resolve(c.in)
		if err != nil || p.Abs != c.abs || p.Rel != c.rel || p.Root != root || p.Exists != c.exists {
			t.Errorf("Resolve(%q) = %+v, %v; want %s (%s, exists %v)", c.in, p, err, c.abs, c.rel, c.exists)
		}
	}
	for _, c := range []struct {
		in   string
		kind Kind
		says string
	}{
		{"readme.txt:stream", Invalid, "data stream"},
		{"CON", Invalid, "device"},
		{`Sub\nul.txt`, Invalid, "device"},
		{"*.go", Invalid, "wildcard"},
		{"trailing.", Invalid, "last dot"},
		{`..\outside.txt`, Outside, "outside"},
		{filepath.Join(base, "outside.txt"), Outside, "outside"},
		{"file://server/share/a.go", Outside, `\\server\share\a.go`},
		{`\Windows\win.ini`, Outside, "resolves to " + root[:3]},
		{"/etc/hostname", Outside, root[:2] + `\etc\hostname`},
		{strings.ToUpper(root), Invalid, "workspace folder"},
	} {
		_, err := r.Resolve(c.in)
		e, ok := err.(*Error)
		if !ok || e.Kind != c.kind || !strings.Contains(e.Msg, c.says) {
			t.Errorf("Resolve(%q) = %v, want kind %d saying %q", c.in, err, c.kind, c.says)
		}
	}
	if got, rel, ok := r.Within(strings.ToUpper(main)); !ok || got != root || !strings.EqualFold(rel, `Sub\Main.go`) {
		t.Errorf("Within(%q) = %q, %q, %v", strings.ToUpper(main), got, rel, ok)
	}
	if _, err := os.Stat(filepath.Join(root, "Sub", "New.go")); err == nil {
		t.Error("Resolve created a file")
	}
}

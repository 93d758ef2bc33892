// Package golden reads and rewrites the golden files that tests keep under
// testdata: whole expected texts (Text), and cases written as txtar
// archives, whose comment says what the case is about and whose files are
// the case's named sections, its input and what it must produce (File).
// With -update a test writes what it got back into the file.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Update is the -update flag of every test binary that imports golden.
var Update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Text returns the text of the whole golden file path, for got to be
// compared with; with -update it writes got there instead and returns
// false: there is nothing to compare.
func Text(t testing.TB, path, got string) (want string, ok bool) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	return string(b), true
}

// A File is one golden file, read whole.
type File struct {
	Path    string
	Comment string
	names   []string          // section names in file order
	text    map[string]string // section name → its text
}

// New returns an empty golden file, for a test that writes it whole.
func New(path, comment string) *File {
	return &File{Path: path, Comment: comment, text: map[string]string{}}
}

// Read parses the golden file at path; a section named twice fails t.
func Read(t testing.TB, path string) *File {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := &File{Path: path, Comment: string(a.Comment), text: map[string]string{}}
	for _, s := range a.Files {
		if _, dup := f.text[s.Name]; dup {
			t.Fatalf("%s: section %q appears twice", path, s.Name)
		}
		f.names = append(f.names, s.Name)
		f.text[s.Name] = string(s.Data)
	}
	return f
}

// Section returns the text of the named section, and whether there is one.
func (f *File) Section(name string) (string, bool) {
	s, ok := f.text[name]
	return s, ok
}

// Must returns the text of the named section, failing t when there is none.
func (f *File) Must(t testing.TB, name string) string {
	t.Helper()
	s, ok := f.text[name]
	if !ok {
		t.Fatalf("%s has no %q section", f.Path, name)
	}
	return s
}

// Value is the named section without its last newline, failing t when
// there is none: a one-line value, or a text that must not end in one.
func (f *File) Value(t testing.TB, name string) string {
	t.Helper()
	return strings.TrimSuffix(f.Must(t, name), "\n")
}

// Quoted is the named section read as one Go string literal, for a text
// whose bytes a section cannot hold as they are (CR, invalid UTF-8, no
// final newline); it fails t when there is no such section or literal.
func (f *File) Quoted(t testing.TB, name string) string {
	t.Helper()
	s, err := strconv.Unquote(f.Value(t, name))
	if err != nil {
		t.Fatalf("%s: section %q is not one Go string literal: %v", f.Path, name, err)
	}
	return s
}

// Names lists the sections in file order.
func (f *File) Names() []string { return f.names }

// Set replaces the named section's text, or adds the section at the end.
func (f *File) Set(name, text string) {
	if _, ok := f.text[name]; !ok {
		f.names = append(f.names, name)
	}
	f.text[name] = text
}

// Write writes f back to its path.
func (f *File) Write(t testing.TB) {
	t.Helper()
	a := &txtar.Archive{Comment: []byte(f.Comment)}
	for _, n := range f.names {
		a.Files = append(a.Files, txtar.File{Name: n, Data: []byte(f.text[n])})
	}
	if err := os.WriteFile(f.Path, txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Glob lists the golden files (*.txt) of dir, and fails t when there are
// fewer than atLeast: a lost file would otherwise pass unseen.
func Glob(t testing.TB, dir string, atLeast int) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < atLeast {
		t.Fatalf("found %d golden files in %s, want at least %d", len(files), dir, atLeast)
	}
	return files
}

// Run runs fn as a parallel subtest for each golden file of dir, named by
// the file's name without .txt.
func Run(t *testing.T, dir string, atLeast int, fn func(t *testing.T, f *File)) {
	t.Helper()
	for _, path := range Glob(t, dir, atLeast) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			fn(t, Read(t, path))
		})
	}
}

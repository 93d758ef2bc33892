package blocks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/internal/golden"
)

// TestGolden resolves every line of every fixture under testdata/<lang>/ and
// compares the results with the fixture's .golden file. A golden records,
// for each line, the line's text and either the span it resolves to or the
// reason it declines; review a rewritten golden by eye, line by line.
func TestGolden(t *testing.T) {
	r := New()
	dirs, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, dir := range dirs {
		switch filepath.Base(dir) {
		case "outline":
			continue // outline_test.go's
		case "resolve":
			// resolve_test.go's cases, each set in a folder of its own,
			// which the testdata/*/* walks of the fixtures pass over.
			continue
		}
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || strings.HasSuffix(name, ".golden") {
				continue
			}
			fixture := filepath.Join(dir, name)
			// A fixture that Go's own tools would read (a .go file, which
			// gofmt walks into testdata for) carries a .fixture suffix; the
			// resolver sees the name without it.
			path := strings.TrimSuffix(fixture, ".fixture")
			t.Run(filepath.ToSlash(fixture), func(t *testing.T) {
				raw, err := os.ReadFile(fixture)
				if err != nil {
					t.Fatal(err)
				}
				lang := langName(path)
				if lang != filepath.Base(dir) {
					t.Fatalf("lookup(%q) is %q, want the folder's name %q", path, lang, filepath.Base(dir))
				}
				seen[lang] = true
				got := render(r, path, string(raw))
				goldenPath := fixture + ".golden"
				want, ok := golden.Text(t, goldenPath, got)
				if ok && got != want {
					t.Errorf("results differ from %s (run go test -update and review the diff):\n%s", goldenPath, diffLines(want, got))
				}
			})
		}
	}
	for _, l := range languages {
		if !seen[l.name] {
			t.Errorf("language %s has no fixture under testdata/%s", l.name, l.name)
		}
	}
}

// render resolves every line of text and lines 0 and n+1 outside it.
func render(r *Resolver, path, text string) string {
	var b strings.Builder
	clean, _ := r.Parses(path, text)
	fmt.Fprintf(&b, "# %s (%s), parses cleanly: %v\n", filepath.Base(path), langName(path), clean)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	result := func(n int) string {
		block, err := r.ResolveBlock(path, text, n)
		if err != nil {
			return "x  " + err.Error()
		}
		return fmt.Sprintf("=> %d-%d", block.Start, block.End)
	}
	for i, l := range lines {
		fmt.Fprintf(&b, "%4d | %s\n     %s\n", i+1, l, result(i+1))
	}
	for _, n := range []int{0, len(lines) + 1} {
		fmt.Fprintf(&b, "%4d   (outside)\n     %s\n", n, result(n))
	}
	return b.String()
}

// diffLines shows the first lines where want and got part.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
			if shown++; shown == 10 {
				b.WriteString("  ...\n")
				break
			}
		}
	}
	return b.String()
}

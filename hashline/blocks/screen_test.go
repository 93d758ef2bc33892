package blocks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/internal/testenv"
)

// TestGoMayDeclare: Go's screen refuses a text only where every run that
// could be the name stands where Go declares no name (after a '.', an
// '=', a name that is no declaring keyword) or lies in a comment or a
// literal, and it agrees with the outline on each case.
func TestGoMayDeclare(t *testing.T) {
	// declared says the outline lists the name: the screen must let
	// those through; the others it lets through only where a run may be
	// the name.
	cases := []struct {
		name, text    string
		may, declared bool
	}{
		{"a function", "package p\n\nfunc NewReader() {}\n", true, true},
		{"a method", "package p\n\nfunc (b *B) NewReader() {}\n", true, true},
		{"a generic function", "package p\n\nfunc NewReader[T any]() {}\n", true, true},
		{"a type", "package p\n\ntype NewReader struct{}\n", true, true},
		{"a type in a group", "package p\n\ntype (\n\tA int\n\tNewReader = A\n)\n", true, true},
		{"a constant in a group", "package p\n\nconst (\n\tA = 1\n\tNewReader = 2\n)\n", true, true},
		{"the second of a list of names", "package p\n\nvar a, NewReader = 1, 2\n", true, true},
		{"a variable against its type", "package p\n\nvar NewReader*int\n", true, true},
		{"a comment before the name", "package p\n\nfunc /* x. */ NewReader() {}\n", true, true},
		{"a call", "package p\n\nvar r = bufio.NewReader(nil)\n", false, false},
		{"a call with space after the dot", "package p\n\nvar r = bufio. NewReader(nil)\n", false, false},
		{"calls and a qualified type", "package p\n\nvar r bufio.NewReader = x.NewReader(y.NewReader)\n", false, false},
		{"a name in a doc comment", "package p\n\n// NewReader is used here.\nvar r = bufio.NewReader(nil)\n", false, false},
		{"a selector across lines", "package p\n\nvar r = bufio.\n\tNewReader(nil)\n", true, false},
		{"a run outside ASCII", "package p\n\nvar ÿNewReader = 1\n", true, false},
		{"names in comments and literals", "package p\n\n// NewReader\n/* NewReader */\nvar s, t, r = \"NewReader \\\" NewReader\", `NewReader`, 'N' // NewReader\n", false, false},
		{"a name after a literal with a quote in it", "package p\n\nvar s = \"\\\"\"\nvar r = '\\''\nvar NewReader = 1\n", true, true},
		{"a string left open", "package p\n\nvar s = \"NewReader\n", true, false},
		{"a comment left open", "package p\n\n/* NewReader\n", true, false},
		{"uses after an assignment, a keyword, a name or a brace", "package p\n\nfunc f() {\n\tr := NewReader(nil)\n\tgo NewReader(r)\n\tvar x NewReader = y\n\t_ = []NewReader{{NewReader: 1}}\n\treturn NewReader(x)\n}\n", false, false},
		{"a use in a list of arguments", "package p\n\nvar r = f(a, NewReader(nil))\n", true, false},
		{"a longer name", "package p\n\nfunc NewReaderSize() {}\n", false, false},
		{"a number", "package p\n\nvar x = 0x1NewReader\n", false, false},
	}
	r := New()
	accept := func(name string) bool { return name == "NewReader" }
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.MayDeclare("p.go", c.text, accept); got != c.may {
				t.Fatalf("MayDeclare = %v, want %v", got, c.may)
			}
			syms, err := r.Outline("p.go", c.text, nil)
			if err != nil && c.declared {
				t.Fatal(err)
			}
			listed := false
			for _, s := range syms {
				listed = listed || !s.Group && accept(s.Name)
			}
			if listed != c.declared {
				t.Fatalf("the outline lists the name: %v, want %v", listed, c.declared)
			}
		})
	}
	if !r.MayDeclare("p.py", "x.NewReader()\n", accept) {
		t.Fatal("a language with no screen was refused")
	}
}

// TestGoMayDeclareReal: over real Go files, the screen never refuses a
// name the outline lists.
func TestGoMayDeclareReal(t *testing.T) {
	tree := testenv.GoTree(t)
	r := New()
	files, names := 0, 0
	for _, dir := range []string{"bufio", "go/ast", "net/http", "syscall", "unicode", "time"} {
		err := filepath.WalkDir(filepath.Join(tree, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			text := string(b)
			syms, err := r.Outline(p, text, nil)
			if err != nil {
				return nil
			}
			files++
			// Refusing every run shows which runs the screen tries; when it
			// stops early at a run outside ASCII, each name is tried alone.
			tried := map[string]bool{}
			early := r.MayDeclare(p, text, func(n string) bool { tried[n] = true; return false })
			for _, s := range syms {
				if s.Group {
					continue
				}
				names++
				if early && r.MayDeclare(p, text, func(n string) bool { return n == s.Name }) || !early && tried[s.Name] {
					continue
				}
				t.Errorf("%s: refused %s, which line %d declares", p, s.Name, s.Line)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 || names < 1000 {
		t.Fatalf("only %d files and %d names were outlined", files, names)
	}
}

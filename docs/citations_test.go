// Package docs holds the project's two documents, contract.md and
// design.md, and this test of the citations that point into them.
//
// A comment, doc or test cites a section in one form only: the document's
// path from the repository root, a space, the section sign and the
// section's number, as in "docs/contract.md " + sign + "12.4". Inside the
// two documents a bare section sign cites a section of the same document,
// and "contract.md " or "design.md " before it cites the other one. A
// section is a heading that starts with its number: "## 12. The gates",
// "### 12.4 The provenance gate".
package docs_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"testing"
)

// sweptOldCitations turns on TestNoOldCitations. Set it once every
// citation of a document outside the repository, and of an issue number,
// has been rewritten as a citation of docs/contract.md or docs/design.md.
const sweptOldCitations = true

// sign is the section sign, and issue the word, spelled so that this
// file cites nothing itself.
const (
	sign  = "\u00a7"
	issue = "iss" + "ue"
)

// documents are the files a citation may name, by their name in docs/.
var documents = []string{"contract.md", "design.md"}

var (
	heading = regexp.MustCompile(`^#{2,6} ([0-9]+(?:\.[0-9]+)*)\.? `)
	number  = regexp.MustCompile(`^[0-9]+(?:\.[0-9]+)*`)
	// named is a document's name just before a section sign: "docs/" is
	// required outside the documents and optional inside them.
	named = regexp.MustCompile(`(docs/)?(contract|design)\.md $`)
	// outside are the other ways a line may cite what the repository does
	// not hold: an issue of the tracker, or a working document by name.
	outside = regexp.MustCompile(`(?i:\bissues? #?[0-9]+)|\bDESIGN\.md\b|(?i:line-anchored edit[ ]contract)`)
)

// sections reads the section numbers of each document.
func sections(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for _, name := range documents {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = map[string]bool{}
		for i, line := range strings.Split(string(b), "\n") {
			m := heading.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if out[name][m[1]] {
				t.Errorf("docs/%s:%d: section %s is numbered twice", name, i+1, m[1])
			}
			out[name][m[1]] = true
		}
		if len(out[name]) == 0 {
			t.Errorf("docs/%s has no numbered sections", name)
		}
	}
	return out
}

// textFiles lists the repository's tracked files, as paths from its root
// (the parent of this folder), with their contents, leaving out binary
// files. Without git it walks the tree, leaving out dot folders (.git,
// caches) and node_modules.
func textFiles(t *testing.T) map[string][]byte {
	t.Helper()
	top := os.DirFS("..")
	var names []string
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = ".."
	if out, err := cmd.Output(); err == nil {
		for _, n := range strings.Split(string(out), "\x00") {
			if n != "" {
				names = append(names, n)
			}
		}
	} else {
		t.Logf("git ls-files failed (%v): walking the tree instead", err)
		err := fs.WalkDir(top, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			if d.Type().IsRegular() {
				names = append(names, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := fs.ReadFile(top, n)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b[:min(len(b), 8000)]), "\x00") {
			files[n] = b
		}
	}
	if len(files) == 0 {
		t.Fatal("no files found in the repository")
	}
	return files
}

// finding is one citation, at file:line.
type finding struct {
	file string
	line int
	text string // the citation, or the line for an old one
}

// scan sorts the citations of one file: good are those that name a section
// of a document that exists, broken those that name a document but no
// section of it, and old every other section sign, issue number and
// working document.
func scan(file string, text []byte, secs map[string]map[string]bool) (good, broken, old []finding) {
	self := ""
	if dir, base := path.Split(file); dir == "docs/" {
		for _, d := range documents {
			if base == d {
				self = d
			}
		}
	}
	for i, line := range strings.Split(string(text), "\n") {
		for rest, before := line, ""; ; {
			k := strings.Index(rest, sign)
			if k < 0 {
				break
			}
			before += rest[:k]
			rest = rest[k+len(sign):]
			doc := self
			m := named.FindStringSubmatch(before)
			switch {
			case m != nil && (m[1] != "" || self != ""):
				doc = m[2] + ".md"
			case self == "":
				old = append(old, finding{file, i + 1, strings.TrimSpace(line)})
				before += sign
				continue
			}
			n := number.FindString(rest)
			cited := strings.TrimPrefix(named.FindString(before), "docs/") + sign + n
			if m == nil {
				cited = sign + n
			}
			if n == "" || !secs[doc][n] {
				broken = append(broken, finding{file, i + 1, cited + " names no section of docs/" + doc})
			} else {
				good = append(good, finding{file, i + 1, cited})
			}
			before += sign
		}
		if outside.MatchString(line) {
			old = append(old, finding{file, i + 1, strings.TrimSpace(line)})
		}
	}
	return good, broken, old
}

func TestSectionsAreNumbered(t *testing.T) {
	for doc, secs := range sections(t) {
		for n := range secs {
			if i := strings.LastIndexByte(n, '.'); i >= 0 && !secs[n[:i]] {
				t.Errorf("docs/%s: section %s has no section %s above it", doc, n, n[:i])
			}
		}
	}
}

// TestCitedSectionsExist fails on a citation of docs/contract.md or
// docs/design.md whose section does not exist in that file.
func TestCitedSectionsExist(t *testing.T) {
	secs := sections(t)
	total := 0
	for file, text := range textFiles(t) {
		good, broken, _ := scan(file, text, secs)
		total += len(good)
		for _, f := range broken {
			t.Errorf("%s:%d: %s", f.file, f.line, f.text)
		}
	}
	t.Logf("%d citations name a section that exists", total)
}

// TestNoOldCitations fails on every other citation: a section sign that
// names no document of docs/ (a section of a document the repository does
// not hold), an issue number, or a working document by name.
func TestNoOldCitations(t *testing.T) {
	secs := sections(t)
	var old []finding
	for file, text := range textFiles(t) {
		_, _, o := scan(file, text, secs)
		old = append(old, o...)
	}
	if !sweptOldCitations {
		t.Skipf("%d citations of documents outside the repository or of issue numbers remain; set sweptOldCitations once they are rewritten", len(old))
	}
	for _, f := range old {
		t.Errorf("%s:%d: cites what the repository does not hold: %s", f.file, f.line, f.text)
	}
}

// TestScan pins the citation forms the other tests accept.
func TestScan(t *testing.T) {
	secs := map[string]map[string]bool{"contract.md": {"12": true, "12.4": true}, "design.md": {"5": true}}
	cases := []struct {
		file, line           string
		good, broken, oldest int
	}{
		{"a.go", "// the gate (docs/contract.md " + sign + "12.4).", 1, 0, 0},
		{"a.go", "// docs/contract.md " + sign + "12 and docs/design.md " + sign + "5.", 2, 0, 0},
		{"a.go", "// docs/contract.md " + sign + "13.", 0, 1, 0},
		{"a.go", "// docs/contract.md " + sign + "N", 0, 1, 0},
		{"a.go", "// contract.md " + sign + "12, outside docs/", 0, 0, 1},
		{"a.go", "// the gate (" + sign + "9.1)", 0, 0, 1},
		{"a.go", "// DESIGN " + sign + "6, then docs/design.md " + sign + "5", 1, 0, 1},
		{"a.go", "// (" + issue + " 13, point 1)", 0, 0, 1},
		{"a.lua", "-- see I" + issue[1:] + " 7", 0, 0, 1},
		{"a.go", "// working notes in DESIGN" + ".md", 0, 0, 1},
		{"docs/design.md", "the gate (contract.md " + sign + "12.4), the sink (" + sign + "5)", 2, 0, 0},
		{"docs/design.md", "no such (" + sign + "6)", 0, 1, 0},
		{"docs/contract.md", "see " + sign + "12 and design.md " + sign + "5", 2, 0, 0},
		{"docs/other.md", "see " + sign + "12", 0, 0, 1},
		{"a.go", "// the issue of tags, no section sign", 0, 0, 0},
	}
	for _, c := range cases {
		good, broken, old := scan(c.file, []byte(c.line), secs)
		if len(good) != c.good || len(broken) != c.broken || len(old) != c.oldest {
			t.Errorf("%s %q: %d good, %d broken, %d old; want %d, %d, %d", c.file, c.line, len(good), len(broken), len(old), c.good, c.broken, c.oldest)
		}
	}
}

// walkNames are the backticked Go names of docs/design.md §3, the walk of an
// edit through the code; a protocol method (with a slash), an error code
// or an op (capitals) and a result field (a quoted word) are not Go names.
var walkName = regexp.MustCompile("`" + `((?:[a-z]+\.)?(?:\(\*?[A-Za-z]+\)\.|[A-Za-z]+\.)*[A-Za-z_][A-Za-z0-9_]*)(?:\([^` + "`" + `]*\))?(?:\.[A-Za-z]+\([^` + "`" + `]*\))*` + "`")

// TestWalkNamesExist checks that every function, method and type
// docs/design.md §3 names exists in the code: a package-qualified name in that package, a
// receiver-qualified one as a method of that type, a bare one anywhere.
func TestWalkNamesExist(t *testing.T) {
	b, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	walk := string(b)
	start, end := strings.Index(walk, "\n## 3. "), strings.Index(walk, "\n## 4. ")
	if start < 0 || end < start {
		t.Fatal("design.md has no section 3 before a section 4")
	}
	decls := goDecls(t)
	names := 0
	for _, m := range walkName.FindAllStringSubmatch(walk[start:end], -1) {
		name := m[1]
		if strings.ToUpper(name) == name || !strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") {
			continue
		}
		names++
		if !decls.has(name) {
			t.Errorf("docs/design.md §3 names %s, which the code does not declare", m[0])
		}
	}
	if names < 50 {
		t.Errorf("docs/design.md §3 names %d functions; the walk should name each one", names)
	}
}

// decl is one declaration: its package, its receiver type (methods only)
// and its name.
type decl struct{ pkg, recv, name string }

type declSet map[decl]bool

// has reports whether name, as design.md writes it ("pkg.(*T).m",
// "pkg.F", "(*T).m", "T.m", "f"), is declared.
func (d declSet) has(name string) bool {
	parts := strings.Split(strings.NewReplacer("(*", "", "(", "", ")", "").Replace(name), ".")
	last := parts[len(parts)-1]
	for k := range d {
		if k.name != last {
			continue
		}
		switch len(parts) {
		case 1:
			return true
		case 2: // pkg.F, or T.m
			if k.pkg == parts[0] && k.recv == "" || k.recv == parts[0] {
				return true
			}
		case 3: // pkg.T.m
			if k.pkg == parts[0] && k.recv == parts[1] {
				return true
			}
		}
	}
	return false
}

// goDecls reads the functions, methods and types the repository's Go code
// (tests left out) declares.
func goDecls(t *testing.T) declSet {
	t.Helper()
	out := declSet{}
	fset := token.NewFileSet()
	for path, text := range textFiles(t) {
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, path, text, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		pkg := file.Name.Name
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				out[decl{pkg: pkg, recv: recvName(d), name: d.Name.Name}] = true
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok {
						continue
					}
					out[decl{pkg: pkg, name: ts.Name.Name}] = true
					if it, ok := ts.Type.(*ast.InterfaceType); ok {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								out[decl{pkg: pkg, recv: ts.Name.Name, name: n.Name}] = true
							}
						}
					}
				}
			}
		}
	}
	return out
}

// recvName is the name of a method's receiver type, "" for a function.
func recvName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	x := d.Recv.List[0].Type
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

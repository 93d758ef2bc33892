package blocks

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// referenceDescend walks from n down to the deepest node holding off by
// asking the tree for each child in turn: what descend must find.
func referenceDescend(n *sitter.Node, off int) []*sitter.Node {
	out := []*sitter.Node{n}
	cur := sitter.NewTreeCursor(n)
	defer cur.Close()
	for cur.GoToFirstChild() {
		found := false
		for {
			c := cur.CurrentNode()
			if int(c.StartByte()) > off {
				break
			}
			if off < int(c.EndByte()) {
				out = append(out, c)
				found = true
				break
			}
			if !cur.GoToNextSibling() {
				break
			}
		}
		if !found {
			break
		}
	}
	return out
}

// TestDescend checks, at every offset of every block fixture, that the
// parse's descend (children searched by index, then listed) finds the
// chain a walk over every child finds, and that what the parse keeps of
// each node is what the tree says of it.
func TestDescend(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range fixtures {
		if fi, err := os.Stat(f); strings.HasSuffix(f, ".golden") || err != nil || fi.IsDir() {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		path := strings.TrimSuffix(f, ".fixture")
		text := string(raw)
		// Each order on a parse of its own: offsets rising, falling and
		// shuffled, so children are searched lazily from either end and
		// from the middle before they are listed.
		n := len(text) + len(jsonPrefix) + len(jsonSuffix)
		rising, falling, shuffled := make([]int, n+1), make([]int, n+1), rand.New(rand.NewPCG(1, uint64(n))).Perm(n+1)
		for i := range rising {
			rising[i], falling[i] = i, n-i
		}
		for _, offs := range [][]int{rising, falling, shuffled} {
			p, perr := parse(lookup(path), text)
			if perr != nil {
				break // a fixture that does not parse, on purpose
			}
			for _, off := range offs {
				if off > len(p.src) {
					continue
				}
				got, want := p.descend(p.root, off), referenceDescend(p.root, off)
				if len(got) != len(want) {
					t.Fatalf("%s at %d: %d nodes, want %d", f, off, len(got), len(want))
				}
				for i := range got {
					g, w := got[i], want[i]
					if p.start(g) != int(w.StartByte()) || p.end(g) != int(w.EndByte()) || p.typ(g) != w.Type() || p.named(g) != w.IsNamed() {
						t.Fatalf("%s at %d, node %d: %s %d-%d named %v, want %s %d-%d named %v", f, off, i,
							p.typ(g), p.start(g), p.end(g), p.named(g), w.Type(), w.StartByte(), w.EndByte(), w.IsNamed())
					}
				}
				checked++
			}
			p.close()
		}
	}
	t.Logf("%d offsets checked", checked)
}

package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/internal/testenv"
)

// rootBesideOutside is a folder root holding inside (the text "inside\n")
// and big.txt (100 bytes), beside a folder outside holding data.txt.
func rootBesideOutside(t *testing.T, inside string) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	testenv.WriteFiles(t, base, map[string]string{
		"root/" + inside:   "inside\n",
		"outside/data.txt": "outside\n",
		"root/big.txt":     strings.Repeat("x", 100),
	})
	return root, outside
}

// readCase is a name ReadFile is asked for beneath a root, and what it
// answers: want, or an error that is err.
type readCase struct {
	rel  string
	want string
	err  error
}

// checkReads reads each case's name beneath root with a limit of 50 bytes,
// in a subtest of its own.
func checkReads(t *testing.T, root string, cases []readCase) {
	for _, c := range cases {
		t.Run(c.rel, func(t *testing.T) {
			b, _, err := ReadFile(root, c.rel, 50)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("ReadFile = %q, %v; want %v", b, err, c.err)
				}
				return
			}
			if err != nil || string(b) != c.want {
				t.Fatalf("ReadFile = %q, %v; want %q", b, err, c.want)
			}
		})
	}
}

// stagedInNewDir makes the folders rel (new/deeper in the caller's
// spelling) beneath root and checks they are there, then stages f.txt in
// it with perm and like, links it as f.txt, checks that a second link is
// refused, and removes the staged name. It returns the folder, open, and
// the staged name.
func stagedInNewDir(t *testing.T, root, rel string, perm fs.FileMode, like *Info) (*Dir, string) {
	t.Helper()
	d, err := MakeDir(root, rel, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if fi, err := os.Stat(filepath.Join(root, "new", "deeper")); err != nil || !fi.IsDir() {
		t.Fatalf("MakeDir left %v, %v", fi, err)
	}
	tmp, err := d.Stage("f.txt", "staged\n", perm, like)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Link(tmp, "f.txt"); err != nil {
		t.Fatal(err)
	}
	if err := d.Link(tmp, "f.txt"); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second Link = %v, want fs.ErrExist", err)
	}
	if err := d.Remove(tmp); err != nil {
		t.Fatal(err)
	}
	return d, tmp
}

// openedDir is the folder rel beneath root, open until the test ends.
func openedDir(t *testing.T, root, rel string) *Dir {
	t.Helper()
	d, err := OpenDir(root, rel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

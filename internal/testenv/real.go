package testenv

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Real is one real-world file a test reads where it lies on every machine
// that runs the tests: in the Go tree, in the shared corpus, or inside one
// of the vendored tarballs. It is never copied into the repository.
type Real struct {
	Where string // GoRoot, CorpusDir or VendorDir
	// Path is beneath Where; a vendored file is TARBALL/MEMBER, the member
	// as the tarball names it.
	Path string
}

// Where a Real lies.
const (
	GoRoot    = "goroot"
	CorpusDir = "corpus"
	VendorDir = "vendor"
)

// Name is how a test names the file: Where and Path.
func (r Real) Name() string { return r.Where + ":" + r.Path }

// Read returns the file's text. A file of the Go tree must be there; one
// of the corpus or the vendored code is skipped when its folder is absent,
// or fails the test where it is required, as Corpus and Vendored do.
func (r Real) Read(t testing.TB) string {
	t.Helper()
	switch r.Where {
	case GoRoot:
		b, err := os.ReadFile(filepath.Join(GoTree(t), filepath.FromSlash(r.Path)))
		if err != nil {
			t.Fatalf("the Go tree's %s: %v", r.Path, err)
		}
		return string(b)
	case CorpusDir:
		first, rest, _ := strings.Cut(r.Path, "/")
		b, err := os.ReadFile(filepath.Join(Corpus(t, first), filepath.FromSlash(rest)))
		if err != nil {
			t.Fatalf("the corpus's %s: %v", r.Path, err)
		}
		return string(b)
	case VendorDir:
		dir, rest, _ := strings.Cut(r.Path, "/")
		tarball, member, _ := strings.Cut(rest, "/")
		return readMember(t, filepath.Join(Vendored(t, dir), tarball), member)
	}
	t.Fatalf("testenv: no place %q for %s", r.Where, r.Path)
	return ""
}

var goTree struct {
	once sync.Once
	dir  string
	err  error
}

// GoTree is $(go env GOROOT)/src, the Go tree whose files tests read as
// real code: every machine that runs the tests has it. $GOROOT, where it
// is set, names it for a test program that has no go command to ask (a
// Windows one run under Wine).
func GoTree(t testing.TB) string {
	t.Helper()
	goTree.once.Do(func() {
		if dir := os.Getenv("GOROOT"); dir != "" {
			goTree.dir = filepath.Join(dir, "src")
			return
		}
		out, err := exec.Command("go", "env", "GOROOT").Output()
		goTree.dir, goTree.err = filepath.Join(strings.TrimSpace(string(out)), "src"), err
	})
	if goTree.err != nil {
		t.Fatalf("go env GOROOT: %v", goTree.err)
	}
	return goTree.dir
}

// readMember reads one file out of a .tar.gz.
func readMember(t testing.TB, tarball, member string) string {
	t.Helper()
	text, found := "", false
	eachMember(t, tarball, func(name, s string) {
		if name == member {
			text, found = s, true
		}
	}, []string{member})
	if !found {
		t.Fatalf("%s holds no %s", tarball, member)
	}
	return text
}

// Outlined are the real files whose outlines have goldens, by language:
// one for each language the Go tree, the corpus or the vendored plugins
// hold. The other languages have small samples of their own.
var Outlined = map[string]Real{
	"go":         {GoRoot, "io/io.go"},
	"c":          {GoRoot, "runtime/cgo/gcc_libinit_windows.c"},
	"python":     {GoRoot, "runtime/runtime-gdb.py"},
	"bash":       {GoRoot, "make.bash"},
	"markdown":   {GoRoot, "runtime/HACKING.md"},
	"json":       {GoRoot, "crypto/tls/bogo_config.json"},
	"css":        {GoRoot, "cmd/vendor/github.com/google/pprof/internal/driver/html/stacks.css"},
	"html":       {GoRoot, "cmd/vendor/github.com/google/pprof/internal/driver/html/stacks.html"},
	"javascript": {CorpusDir, "react-edit/literal-off-by-one-002/input/code-path.js"},
	"lua":        {VendorDir, "neovim-plugins/nui.nvim.tar.gz/nui.nvim/lua/nui/popup/init.lua"},
	"yaml":       {VendorDir, "neovim-plugins/codecompanion.nvim.tar.gz/codecompanion.nvim/.github/workflows/ci.yml"},
	"rust":       {VendorDir, "neovim-plugins/avante.nvim.tar.gz/avante.nvim/crates/avante-tokenizers/src/lib.rs"},
	"toml":       {VendorDir, "neovim-plugins/avante.nvim.tar.gz/avante.nvim/Cargo.toml"},
}

// RealText is a real file and its text.
type RealText struct {
	Real
	Text string
}

// Large lists the real files of at least minLines lines whose names end in
// one of exts, by extension: the Go tree's and those of every vendored
// tarball beneath the vendored folder dir, at most per of each extension,
// spread evenly over them in name order so that the choice is the same
// on every machine with the same Go and the same fixtures.
func Large(t testing.TB, dir string, minLines, per int, exts ...string) map[string][]RealText {
	t.Helper()
	found := map[string][]RealText{}
	keep := func(r Real, text string) {
		if strings.Count(text, "\n") < minLines {
			return
		}
		for _, e := range exts {
			if strings.HasSuffix(r.Path, e) {
				found[e] = append(found[e], RealText{r, text})
				return
			}
		}
	}
	tree := GoTree(t)
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && hasSuffix(p, exts) {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(tree, p)
			keep(Real{GoRoot, filepath.ToSlash(rel)}, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking the Go tree: %v", err)
	}
	tarballs, _ := filepath.Glob(filepath.Join(Vendored(t, dir), "*.tar.gz"))
	for _, tb := range tarballs {
		eachMember(t, tb, func(name string, text string) {
			keep(Real{VendorDir, dir + "/" + filepath.Base(tb) + "/" + name}, text)
		}, exts)
	}
	for e, rs := range found {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Name() < rs[j].Name() })
		if len(rs) > per {
			picked := make([]RealText, per)
			for i := range picked {
				picked[i] = rs[i*len(rs)/per]
			}
			rs = picked
		}
		found[e] = rs
	}
	return found
}

func hasSuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// eachMember calls f with every regular file of a .tar.gz whose name ends
// in one of suffixes.
func eachMember(t testing.TB, tarball string, f func(name, text string), suffixes []string) {
	t.Helper()
	file, err := os.Open(tarball)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	gz, err := gzip.NewReader(file)
	if err != nil {
		t.Fatalf("%s: %v", tarball, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", tarball, err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		if h.Typeflag != tar.TypeReg || !hasSuffix(name, suffixes) {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("%s: %s: %v", tarball, name, err)
		}
		f(name, string(b))
	}
}

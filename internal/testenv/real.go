package testenv

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
// real code: every machine that runs the tests has it.
func GoTree(t testing.TB) string {
	t.Helper()
	goTree.once.Do(func() {
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
	f, err := os.Open(tarball)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", tarball, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			t.Fatalf("%s holds no %s", tarball, member)
		}
		if err != nil {
			t.Fatalf("%s: %v", tarball, err)
		}
		if strings.TrimPrefix(h.Name, "./") == member {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatalf("%s: %s: %v", tarball, member, err)
			}
			return string(b)
		}
	}
}

// Members lists the regular files of a vendored tarball whose names end
// in one of the suffixes, as TARBALL/MEMBER paths for a Real of VendorDir
// beneath dir.
func Members(t testing.TB, dir, tarball string, suffixes ...string) []string {
	t.Helper()
	path := filepath.Join(Vendored(t, dir), tarball)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		for _, s := range suffixes {
			if h.Typeflag == tar.TypeReg && strings.HasSuffix(name, s) {
				out = append(out, dir+"/"+tarball+"/"+name)
				break
			}
		}
	}
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

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Report is what the checks of one binary found, one line per check, each
// starting with "ok" or "FAIL".
type Report struct {
	Lines []string
}

func (r *Report) ok(format string, args ...any) {
	r.Lines = append(r.Lines, "ok   "+fmt.Sprintf(format, args...))
}

func (r *Report) fail(format string, args ...any) {
	r.Lines = append(r.Lines, "FAIL "+fmt.Sprintf(format, args...))
}

// Failed reports whether any check failed.
func (r *Report) Failed() bool {
	return slices.ContainsFunc(r.Lines, func(l string) bool { return strings.HasPrefix(l, "FAIL") })
}

// Check reads the binary at path and checks it for target (GOOS_GOARCH);
// grammars are the tree_sitter_* entry points it must define. An error
// means the file could not be read as that platform's format at all.
func Check(path, target string, grammars []string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	goos, goarch, _ := strings.Cut(target, "_")
	switch goos {
	case "darwin":
		return checkMachO(data, goarch, grammars)
	case "linux":
		return checkELF(data, goarch, grammars)
	case "windows":
		return checkPE(data, goarch, grammars)
	}
	return nil, fmt.Errorf("unknown target %q: use linux_amd64, linux_arm64, darwin_arm64, darwin_amd64 or windows_amd64", target)
}

// missing lists the names of want that defined does not hold.
func missing(want []string, defined func(string) bool) []string {
	var out []string
	for _, w := range want {
		if !defined(w) {
			out = append(out, w)
		}
	}
	return out
}

// grammarsCheck is the check that every grammar's entry point is defined.
func grammarsCheck(r *Report, grammars []string, defined func(string) bool) {
	if len(grammars) == 0 {
		r.fail("grammars: no tree_sitter_* entry point to look for")
		return
	}
	if m := missing(grammars, defined); len(m) > 0 {
		r.fail("grammars: %d of %d entry points are missing: %s", len(m), len(grammars), strings.Join(m, ", "))
		return
	}
	r.ok("grammars: all %d tree_sitter_* entry points defined", len(grammars))
}

var grammarCall = regexp.MustCompile(`\bC\.(tree_sitter_[A-Za-z0-9_]+)\(`)

// grammarPackages is the import path under which every grammar package
// of pkg's dependencies lies.
const grammarPackages = "github.com/smacker/go-tree-sitter/"

// Grammars lists the tree_sitter_<language> functions that the cgo files
// of pkg's grammar dependencies call: the grammars linked into its binary.
// (The core package's own test grammar is not among them: nothing calls
// it, so linkers that drop dead code leave it out.)
func Grammars(pkg string) ([]string, error) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{if .CgoFiles}}{{.ImportPath}}{{"\t"}}{{.Dir}}{{range .CgoFiles}}{{"\t"}}{{.}}{{end}}{{"\n"}}{{end}}`, pkg).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", pkg, err)
	}
	var names []string
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSpace(line), "\t")
		if !strings.HasPrefix(fields[0], grammarPackages) {
			continue
		}
		for _, f := range fields[2:] {
			src, err := os.ReadFile(filepath.Join(fields[1], f))
			if err != nil {
				return nil, err
			}
			for _, m := range grammarCall.FindAllSubmatch(src, -1) {
				names = append(names, string(m[1]))
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// cstring is the NUL-terminated string at the start of b.
func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

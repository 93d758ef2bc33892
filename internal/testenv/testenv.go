// Package testenv finds what tests need from outside the repository: the
// shared fixtures beside it (../shared from the module root) and the real
// editors on PATH. When one is missing, the test is skipped with a message
// naming what is missing and where it was looked for, or failed where it is
// required: HASHLINE_REQUIRE_CORPUS set requires the corpus, and
// HASHLINE_REQUIRE_EDITORS set requires the editors and the vendored
// editor plugins, as in CI. It also holds the set-up the tests of several
// packages share: files written beneath a folder and, on Linux, names
// swapped while a test works with them.
package testenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The variables that turn a missing fixture from a skip into a failure.
const (
	RequireCorpus  = "HASHLINE_REQUIRE_CORPUS"
	RequireEditors = "HASHLINE_REQUIRE_EDITORS"
)

// Corpus returns the folder of the named corpus, ../shared/corpus/name.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	dir, ok := OptionalCorpus(t, name)
	if !ok {
		t.Skipf("the %s corpus is not at %s (../shared/corpus/%s beside the repository); set %s to fail instead", name, dir, name, RequireCorpus)
	}
	return dir
}

// OptionalCorpus is Corpus for a test that also runs without the corpus:
// it reports whether the corpus is there, and fails the test only where
// the corpus is required.
func OptionalCorpus(t testing.TB, name string) (string, bool) {
	t.Helper()
	dir := SharedPath("corpus", name)
	if exists(dir) {
		return dir, true
	}
	if required(RequireCorpus) {
		t.Fatalf("the %s corpus is not at %s (../shared/corpus/%s beside the repository), and %s is set", name, dir, name, RequireCorpus)
	}
	return dir, false
}

// Vendored returns the folder of the named vendored third-party code,
// ../shared/vendor/name; it holds the editor plugins the editor tests run.
func Vendored(t testing.TB, name string) string {
	t.Helper()
	dir := SharedPath("vendor", name)
	if exists(dir) {
		return dir
	}
	if required(RequireEditors) {
		t.Fatalf("%s is not at %s (../shared/vendor/%s beside the repository), and %s is set", name, dir, name, RequireEditors)
	}
	t.Skipf("%s is not at %s (../shared/vendor/%s beside the repository); set %s to fail instead", name, dir, name, RequireEditors)
	return ""
}

// Editor returns the path of the named editor's program on PATH.
func Editor(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if required(RequireEditors) {
		t.Fatalf("%s is not installed (%v), and %s is set", name, err, RequireEditors)
	}
	t.Skipf("%s is not installed (%v); install it to run this test, or set %s to fail instead", name, err, RequireEditors)
	return ""
}

// NotInstalled skips the test, or fails it where the editors are required,
// because a real client it drives (an npm package, a program) is missing;
// install says how to install it.
func NotInstalled(t testing.TB, what, install string) {
	t.Helper()
	if required(RequireEditors) {
		t.Fatalf("%s is not installed, and %s is set: %s", what, RequireEditors, install)
	}
	t.Skipf("%s is not installed: %s, or set %s to fail instead", what, install, RequireEditors)
}

// SharedPath is where ../shared/elem... is from the module root, whether
// or not it exists. Tests run in their package's folder, so the root is
// the nearest folder above it that holds go.mod.
func SharedPath(elem ...string) string {
	root, err := moduleRoot()
	if err != nil {
		root = "."
	}
	return filepath.Join(append([]string{root, "..", "shared"}, elem...)...)
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working folder")
		}
		dir = parent
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func required(env string) bool { return os.Getenv(env) != "" }

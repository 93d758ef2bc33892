package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// verdict records what a helper did to the test it was given: a skip or
// a failure ends the helper's goroutine, as they end a test's.
type verdict struct {
	testing.TB
	skipped, failed string
}

func (v *verdict) Helper() {}

func (v *verdict) Skipf(format string, args ...any) {
	v.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (v *verdict) Fatalf(format string, args ...any) {
	v.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func judge(t *testing.T, f func(testing.TB) string) (got string, v *verdict) {
	v = &verdict{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = f(v)
	}()
	<-done
	return got, v
}

// A fixture that is there is returned; one that is missing skips the test,
// or fails it when its variable is set, naming where it was looked for.
func TestMissingSkipsOrFails(t *testing.T) {
	// A module beside a shared folder, and a PATH with one editor on it.
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(base, "shared")
	for _, dir := range []string{filepath.Join(base, "repo", "pkg"), filepath.Join(shared, "corpus", "real"), filepath.Join(shared, "vendor", "plugins"), filepath.Join(base, "bin")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "repo", "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "bin", "editor"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(base, "repo", "pkg"))
	t.Setenv("PATH", filepath.Join(base, "bin"))

	corpus := func(name string) func(testing.TB) string {
		return func(t testing.TB) string { return Corpus(t, name) }
	}
	optional := func(name string) func(testing.TB) string {
		return func(t testing.TB) string {
			dir, ok := OptionalCorpus(t, name)
			return fmt.Sprint(dir, " ", ok)
		}
	}
	vendored := func(name string) func(testing.TB) string {
		return func(t testing.TB) string { return Vendored(t, name) }
	}
	editor := func(name string) func(testing.TB) string {
		return func(t testing.TB) string { return Editor(t, name) }
	}
	missingCorpus := filepath.Join(shared, "corpus", "gone")
	for _, tc := range []struct {
		name     string
		f        func(testing.TB) string
		env      string // set to 1 for the case
		want     string
		skip     string // a part of the skip message; "" for no skip
		fail     string // a part of the failure message; "" for no failure
		noEffect string // a variable that is set and must not matter
	}{
		{name: "corpus there", f: corpus("real"), want: filepath.Join(shared, "corpus", "real"), noEffect: RequireCorpus},
		{name: "corpus missing", f: corpus("gone"), skip: missingCorpus, noEffect: RequireEditors},
		{name: "corpus missing, required", f: corpus("gone"), env: RequireCorpus, fail: missingCorpus},
		{name: "optional corpus there", f: optional("real"), want: filepath.Join(shared, "corpus", "real") + " true"},
		{name: "optional corpus missing", f: optional("gone"), want: missingCorpus + " false", noEffect: RequireEditors},
		{name: "optional corpus missing, required", f: optional("gone"), env: RequireCorpus, fail: missingCorpus},
		{name: "vendored there", f: vendored("plugins"), want: filepath.Join(shared, "vendor", "plugins")},
		{name: "vendored missing", f: vendored("gone"), skip: filepath.Join(shared, "vendor", "gone"), noEffect: RequireCorpus},
		{name: "vendored missing, required", f: vendored("gone"), env: RequireEditors, fail: filepath.Join(shared, "vendor", "gone")},
		{name: "editor there", f: editor("editor"), want: filepath.Join(base, "bin", "editor"), noEffect: RequireEditors},
		{name: "editor missing", f: editor("nvim"), skip: "nvim is not installed", noEffect: RequireCorpus},
		{name: "editor missing, required", f: editor("nvim"), env: RequireEditors, fail: "nvim is not installed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(RequireCorpus, "")
			t.Setenv(RequireEditors, "")
			for _, env := range []string{tc.env, tc.noEffect} {
				if env != "" {
					t.Setenv(env, "1")
				}
			}
			got, v := judge(t, tc.f)
			switch {
			case tc.fail != "":
				if !strings.Contains(v.failed, tc.fail) || v.skipped != "" {
					t.Fatalf("failed %q, skipped %q; want a failure naming %s", v.failed, v.skipped, tc.fail)
				}
			case tc.skip != "":
				if !strings.Contains(v.skipped, tc.skip) || v.failed != "" {
					t.Fatalf("skipped %q, failed %q; want a skip naming %s", v.skipped, v.failed, tc.skip)
				}
			default:
				if got != tc.want || v.skipped != "" || v.failed != "" {
					t.Fatalf("got %q (skipped %q, failed %q), want %q", got, v.skipped, v.failed, tc.want)
				}
			}
		})
	}
}

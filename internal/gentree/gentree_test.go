package gentree

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var small = Spec{Seed: 3, Files: 120, SmallBytes: 400 << 10, Large: 2, LargeSize: Size{Min: 300 << 10, Max: 400 << 10}, Hits: 30, LargeHits: 3}

func read(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestWriteIsDeterministic(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	s1, err := Write(one, small)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Write(two, small)
	if err != nil {
		t.Fatal(err)
	}
	if s1 != s2 || !reflect.DeepEqual(read(t, one), read(t, two)) {
		t.Fatalf("two trees from one spec differ: %+v, %+v", s1, s2)
	}
	other := small
	other.Seed++
	three := t.TempDir()
	if _, err := Write(three, other); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(read(t, one), read(t, three)) {
		t.Fatal("another seed wrote the same tree")
	}
}

// HitPattern matches the planted lines of the files grep searches and
// nothing else; the files grep leaves out hold hits too.
func TestHitsArePlanted(t *testing.T) {
	dir := t.TempDir()
	st, err := Write(dir, small)
	if err != nil {
		t.Fatal(err)
	}
	files := read(t, dir)
	re := regexp.MustCompile(HitPattern)
	searched, skipped := 0, 0
	var size int64
	for rel, body := range files {
		size += int64(len(body))
		n := 0
		for _, line := range strings.Split(body, "\n") {
			if re.MatchString(line) {
				n++
			}
		}
		if leftOut(rel, body) {
			skipped += n
		} else {
			searched += n
		}
		if regexp.MustCompile(NoHitPattern).MatchString(body) {
			t.Errorf("%s matches the no-hit pattern", rel)
		}
	}
	if searched != st.Hits || skipped == 0 || st.Files != len(files) || st.Bytes != size || st.Hits < small.Hits/2 {
		t.Fatalf("hits searched %d skipped %d, stats %+v, %d files of %d bytes", searched, skipped, st, len(files), size)
	}
}

// leftOut is what the tree's ignore rules and binary files keep from grep.
func leftOut(rel, body string) bool {
	for _, prefix := range []string{"build/", ".git/", "pkg00/sub/local.go"} {
		if strings.HasPrefix(rel, prefix) {
			return true
		}
	}
	return strings.HasSuffix(rel, ".gen.txt") || bytes.IndexByte([]byte(body), 0) >= 0
}

package search

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/internal/testenv"
)

// bigText is a text of several pieces whose lines meet the pattern near
// piece boundaries, with CRLF and lone-CR endings and a line longer than a
// piece.
func bigText(hits bool) string {
	var b strings.Builder
	for b.Len() < 3*pieceBytes {
		b.WriteString("some filler text, nothing to see\n")
		if hits && b.Len()%pieceBytes > pieceBytes-200 {
			b.WriteString("func nearEdgeHandler() {}\r\n")
		}
	}
	b.WriteString(strings.Repeat("z", pieceBytes+100) + "\rlone\r")
	if hits {
		b.WriteString("func lastHandler()")
	}
	return b.String()
}

func TestReaderFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"small.go":    "package a\nfunc aHandler() {}\nfunc b() {}\n",
		"none.go":     "package a\n",
		"empty.go":    "",
		"bin.dat":     "func xHandler()\x00",
		"late-nul.go": strings.Repeat("func lateHandler()\n", 600) + "\x00\n",
		"big-hit.c":   bigText(true),
		"big-none.c":  bigText(false),
		"bom.go":      "\uFEFFfunc bomHandler()\n",
		"huge.go":     strings.Repeat("func hugeHandler()\n", 200),
	}
	testenv.WriteFiles(t, dir, files)
	const expr = `func\s+\w+Handler`
	r := &Reader{Pattern: mustCompile(t, expr), MaxBytes: 8 * pieceBytes}
	// One Reader for all, in an order that makes it reuse its buffer after
	// large files, matched or not.
	order := []string{"big-none.c", "small.go", "big-hit.c", "none.go", "empty.go", "bin.dat", "late-nul.go", "big-hit.c", "bom.go"}
	for _, limit := range []int{-1, 1, 3} {
		for _, name := range order {
			got := r.File(filepath.Join(dir, name), limit)
			want := Found{Lines: reference(t, expr, files[name], limit)}
			switch {
			case name == "bin.dat":
				want = Found{Skip: Binary}
			case len(want.Lines) > 0:
				want.Text = files[name]
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (limit %d): skip %d lines %v text %d bytes, want skip %d lines %v text %d bytes",
					name, limit, got.Skip, got.Lines, len(got.Text), want.Skip, want.Lines, len(want.Text))
			}
		}
	}
	small := &Reader{Pattern: r.Pattern, MaxBytes: 1000}
	for name, want := range map[string]Skip{"huge.go": Oversized, "missing.go": Unreadable, ".": Unreadable, "small.go": NotSkipped} {
		if got := small.File(filepath.Join(dir, name), -1); got.Skip != want {
			t.Errorf("%s: skip %d, want %d", name, got.Skip, want)
		}
	}
}

func TestIsBinary(t *testing.T) {
	cases := []struct {
		head string
		want bool
	}{
		{"", false},
		{"text\n", false},
		{"\x00", true},
		{strings.Repeat("x", SniffBytes-1) + "\x00", true},
		{strings.Repeat("x", SniffBytes) + "\x00", false},
	}
	for _, c := range cases {
		if got := IsBinary([]byte(c.head)); got != c.want {
			t.Errorf("IsBinary(%d bytes) = %v, want %v", len(c.head), got, c.want)
		}
	}
}

// A file whose size reads as 0 but which holds more than one read gives,
// as the files of /proc do, is read to its end.
func TestReaderFileOfUnknownSize(t *testing.T) {
	const path = "/proc/self/smaps"
	if b, err := os.ReadFile(path); err != nil || len(b) < 8192 {
		t.Skipf("no %s longer than a page here (%v): nothing to check", path, err)
	}
	r := &Reader{Pattern: mustCompile(t, `.`), MaxBytes: 1 << 30}
	got := r.File(path, -1)
	if got.Skip != NotSkipped || len(got.Text) < 8192 || !strings.HasSuffix(got.Text, "\n") || len(got.Lines) != strings.Count(got.Text, "\n") {
		t.Fatalf("%s: skip %d, %d lines, %d bytes", path, got.Skip, len(got.Lines), len(got.Text))
	}
}

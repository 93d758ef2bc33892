package workspace

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixture lays out:
//
//	base/a/            first root
//	  main.go, shared.go, sub/x.go, a b.go
//	  good     -> main.go                  (inside, relative link)
//	  evil     -> base/outside/secret.txt  (file outside)
//	  evildir  -> base/outside             (folder outside)
//	  dangling -> ../outside/nothere       (missing target outside)
//	  loop     -> loop
//	base/b/            second root
//	  only_b.go, shared.go
//	base/outside/secret.txt
//	base/alink -> base/a
//	base/notadir.txt
type fixture struct {
	base, a, b, outside, alink string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	// The temp dir may itself sit behind a symlink (macOS /var); canonical
	// expectations must start from the resolved form.
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{
		base:    base,
		a:       filepath.Join(base, "a"),
		b:       filepath.Join(base, "b"),
		outside: filepath.Join(base, "outside"),
		alink:   filepath.Join(base, "alink"),
	}
	for _, d := range []string{f.a, f.b, f.outside, filepath.Join(f.a, "sub")} {
		mustMkdir(t, d)
	}
	for _, p := range []string{
		filepath.Join(f.a, "main.go"),
		filepath.Join(f.a, "shared.go"),
		filepath.Join(f.a, "sub", "x.go"),
		filepath.Join(f.a, "a b.go"),
		filepath.Join(f.b, "only_b.go"),
		filepath.Join(f.b, "shared.go"),
		filepath.Join(f.outside, "secret.txt"),
		filepath.Join(base, "notadir.txt"),
	} {
		mustWrite(t, p)
	}
	mustSymlink(t, "main.go", filepath.Join(f.a, "good"))
	mustSymlink(t, filepath.Join(f.outside, "secret.txt"), filepath.Join(f.a, "evil"))
	mustSymlink(t, f.outside, filepath.Join(f.a, "evildir"))
	mustSymlink(t, filepath.Join("..", "outside", "nothere"), filepath.Join(f.a, "dangling"))
	mustSymlink(t, "loop", filepath.Join(f.a, "loop"))
	mustSymlink(t, f.a, f.alink)
	return f
}

func mustMkdir(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func mustNew(t *testing.T, folders ...string) *Roots {
	t.Helper()
	r, err := New(folders...)
	if err != nil {
		t.Fatalf("New(%q): %v", folders, err)
	}
	return r
}

func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func TestResolve(t *testing.T) {
	f := newFixture(t)
	r := mustNew(t, f.a, f.b)

	type want struct {
		abs, root, rel string
		exists         bool
	}
	ok := func(root, rel string, exists bool) *want {
		return &want{filepath.Join(root, filepath.FromSlash(rel)), root, rel, exists}
	}
	// inA and inB build expected results; inB is needed because a relative
	// path tried under the first root can legitimately land in the second.
	inA := func(rel string, exists bool) *want { return ok(f.a, rel, exists) }
	inB := func(rel string, exists bool) *want { return ok(f.b, rel, exists) }

	tests := []struct {
		name    string
		in      string
		want    *want
		kind    Kind
		msgHas  []string
		noExist string // a path Resolve must not have created
	}{
		{name: "relative in first root", in: "main.go", want: inA("main.go", true)},
		{name: "relative nested", in: "sub/x.go", want: inA("sub/x.go", true)},
		{name: "relative in both roots prefers first", in: "shared.go", want: inA("shared.go", true)},
		{name: "relative only in second root", in: "only_b.go", want: inB("only_b.go", true)},
		{name: "new file goes to first root", in: "new.go", want: inA("new.go", false)},
		{
			name: "nested new file in missing folder", in: "newdir/deeper/file.go",
			want: inA("newdir/deeper/file.go", false), noExist: filepath.Join(f.a, "newdir"),
		},
		{name: "dot segments and doubled slashes", in: "./sub//x.go", want: inA("sub/x.go", true)},
		{name: "absolute inside", in: filepath.Join(f.b, "only_b.go"), want: inB("only_b.go", true)},
		{name: "absolute new file inside", in: filepath.Join(f.b, "n.go"), want: inB("n.go", false)},
		{
			name: "absolute outside", in: filepath.Join(f.outside, "secret.txt"), kind: Outside,
			msgHas: []string{"resolves to " + filepath.Join(f.outside, "secret.txt"), f.a + ", " + f.b, "hashline.extraRoots"},
		},
		{
			name: "dotdot escaping", in: "../outside/secret.txt", kind: Outside,
			msgHas: []string{`"../outside/secret.txt"`, filepath.Join(f.outside, "secret.txt"), "name a file inside"},
		},
		{name: "dotdot escaping to filesystem root", in: "../../../../../../../../../../etc/passwd", kind: Outside},
		{name: "dotdot staying inside", in: "sub/../main.go", want: inA("main.go", true)},
		{name: "dotdot crossing into second root", in: "../b/only_b.go", want: inB("only_b.go", true)},
		{
			name: "dotdot after missing folder", in: "newdir/../main.go", kind: Outside,
			msgHas: []string{`without ".."`}, noExist: filepath.Join(f.a, "newdir"),
		},
		{name: "dotdot below a regular file", in: "main.go/../sub/x.go", kind: Outside},
		{
			name: "symlink to file outside", in: "evil", kind: Outside,
			msgHas: []string{"symlink", filepath.Join(f.outside, "secret.txt")},
		},
		{name: "symlinked folder outside with missing file", in: "evildir/new.txt", kind: Outside, msgHas: []string{"symlink"}},
		{name: "symlinked folder outside with existing file", in: "evildir/secret.txt", kind: Outside},
		{name: "dangling symlink pointing outside", in: "dangling", kind: Outside, msgHas: []string{filepath.Join(f.outside, "nothere")}},
		{name: "symlink inside to file inside", in: "good", want: inA("main.go", true)},
		// The OS applies ".." to the link's target, not to the link's
		// folder: evildir/.. is base, so this lands in root b.
		{name: "dotdot after symlinked folder follows the target", in: "evildir/../b/only_b.go", want: inB("only_b.go", true)},
		{name: "dotdot after symlinked folder escaping", in: "evildir/../outside/secret.txt", kind: Outside},
		{name: "symlink loop", in: "loop", kind: Invalid, msgHas: []string{"loop"}},
		{name: "file URI with percent-encoded space", in: fileURI(filepath.Join(f.a, "a b.go")), want: inA("a b.go", true)},
		{name: "file URI with localhost host", in: "file://localhost" + filepath.ToSlash(filepath.Join(f.a, "main.go")), want: inA("main.go", true)},
		{name: "file URI outside", in: fileURI(filepath.Join(f.outside, "secret.txt")), kind: Outside},
		{name: "file URI with remote host", in: "file://example.com" + filepath.ToSlash(filepath.Join(f.a, "main.go")), kind: Invalid, msgHas: []string{"example.com"}},
		{name: "file URI with fragment", in: fileURI(filepath.Join(f.a, "main.go")) + "#L3", kind: Invalid, msgHas: []string{"%23"}},
		{name: "file URI with bad escape", in: "file:///a%zz", kind: Invalid},
		{name: "file URI with no path", in: "file://", kind: Invalid},
		{name: "http URI", in: "http://example.com/main.go", kind: Invalid, msgHas: []string{`"http"`, "file://"}},
		{name: "colon in a relative name is not a URI", in: "notes:today.txt", want: inA("notes:today.txt", false)},
		{name: "empty", in: "", kind: Invalid, msgHas: []string{"empty", `"src/main.go"`}},
		{name: "NUL byte", in: "main.go\x00.txt", kind: Invalid, msgHas: []string{"NUL"}},
		{name: "NUL byte in URI", in: "file:///x/a%00b", kind: Invalid, msgHas: []string{"NUL"}},
		{name: "overlong", in: strings.Repeat("a/", 2049), kind: Invalid, msgHas: []string{"4098 bytes", "4096"}},
		{name: "root itself relative", in: ".", kind: Invalid, msgHas: []string{"itself"}},
		{name: "root itself through dotdot", in: "sub/..", kind: Invalid},
		{name: "root itself absolute", in: f.b, kind: Invalid},
		{name: "root itself as URI", in: fileURI(f.a), kind: Invalid},
		{name: "parent of roots", in: f.base, kind: Outside},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.Resolve(tt.in)
			if tt.want != nil {
				if err != nil {
					t.Fatalf("Resolve(%q) error: %v", tt.in, err)
				}
				w := Path{Abs: tt.want.abs, Root: tt.want.root, Rel: tt.want.rel, Exists: tt.want.exists}
				if got != w {
					t.Fatalf("Resolve(%q)\n got %+v\nwant %+v", tt.in, got, w)
				}
				if w.Exists {
					real, err := filepath.EvalSymlinks(tt.in)
					if filepath.IsAbs(tt.in) && err == nil && real != got.Abs {
						t.Errorf("Abs %s differs from EvalSymlinks %s", got.Abs, real)
					}
				}
			} else {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Resolve(%q) = %+v, %v; want *Error of kind %d", tt.in, got, err, tt.kind)
				}
				if e.Kind != tt.kind || e.Path != tt.in {
					t.Fatalf("Resolve(%q) error kind=%d path=%q, want kind=%d path=%q (%v)", tt.in, e.Kind, e.Path, tt.kind, tt.in, e)
				}
				if got != (Path{}) {
					t.Errorf("Resolve(%q) returned %+v alongside an error", tt.in, got)
				}
				if !strings.Contains(e.Error(), ": ") {
					t.Errorf("message %q lacks a next step", e.Error())
				}
				for _, s := range tt.msgHas {
					if !strings.Contains(e.Error(), s) {
						t.Errorf("message %q does not contain %q", e.Error(), s)
					}
				}
			}
			if tt.noExist != "" {
				if _, err := os.Lstat(tt.noExist); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s exists after Resolve (err=%v)", tt.noExist, err)
				}
			}
		})
	}
}

func TestOutsideMessageFormat(t *testing.T) {
	f := newFixture(t)
	r := mustNew(t, f.a, f.b)
	_, err := r.Resolve("../outside/secret.txt")
	want := `path "../outside/secret.txt" resolves to ` + filepath.Join(f.outside, "secret.txt") +
		`, outside the workspace roots (` + f.a + `, ` + f.b +
		`): name a file inside one of them, or add its folder to hashline.extraRoots`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

func TestSymlinkedRoot(t *testing.T) {
	f := newFixture(t)
	r := mustNew(t, f.alink)
	if got := r.List(); len(got) != 1 || got[0] != f.a {
		t.Fatalf("List() = %q, want [%q]", got, f.a)
	}
	want := Path{Abs: filepath.Join(f.a, "main.go"), Root: f.a, Rel: "main.go", Exists: true}
	for _, in := range []string{
		"main.go",
		filepath.Join(f.a, "main.go"),
		filepath.Join(f.alink, "main.go"),
		fileURI(filepath.Join(f.alink, "main.go")),
	} {
		got, err := r.Resolve(in)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	// The link itself names the root folder, which is not a file.
	if _, err := r.Resolve(f.alink); !isKind(err, Invalid) {
		t.Errorf("Resolve(link to root) err = %v, want Invalid", err)
	}
}

func TestNew(t *testing.T) {
	f := newFixture(t)

	r := mustNew(t, f.a, f.alink, f.b, f.a+string(filepath.Separator)+".")
	if got := r.List(); len(got) != 2 || got[0] != f.a || got[1] != f.b {
		t.Fatalf("List() = %q, want [%q %q]", got, f.a, f.b)
	}
	// List hands out a copy; mutating it must not reach the Roots.
	r.List()[0] = "x"
	if got := r.List()[0]; got != f.a {
		t.Fatalf("List()[0] = %q after mutating a copy", got)
	}

	missing := filepath.Join(f.base, "missing")
	notDir := filepath.Join(f.base, "notadir.txt")
	for _, tc := range []struct {
		folder, msgHas string
	}{
		{missing, "does not exist"},
		{notDir, "not a directory"},
		{"", "empty"},
	} {
		_, err := New(f.a, tc.folder)
		var e *Error
		if !errors.As(err, &e) || e.Kind != Invalid || e.Path != tc.folder {
			t.Errorf("New(%q) err = %#v, want Invalid naming it", tc.folder, err)
			continue
		}
		if !strings.Contains(e.Error(), tc.msgHas) || !strings.Contains(e.Error(), tc.folder) {
			t.Errorf("New(%q) message %q lacks %q or the folder", tc.folder, e.Error(), tc.msgHas)
		}
	}

	empty := mustNew(t)
	if got := empty.List(); len(got) != 0 {
		t.Fatalf("List() of no roots = %q", got)
	}
	if _, err := empty.Resolve("main.go"); !isKind(err, Outside) {
		t.Errorf("Resolve with no roots err = %v, want Outside", err)
	}
	var zero Roots
	if _, err := zero.Resolve(filepath.Join(f.a, "main.go")); !isKind(err, Outside) {
		t.Errorf("zero Roots Resolve err = %v, want Outside", err)
	}
}

func TestSet(t *testing.T) {
	f := newFixture(t)
	r := mustNew(t, f.a)

	got, err := r.Resolve("only_b.go")
	if want := (Path{Abs: filepath.Join(f.a, "only_b.go"), Root: f.a, Rel: "only_b.go"}); err != nil || got != want {
		t.Fatalf("before Set: %+v, %v; want %+v", got, err, want)
	}
	if err := r.Set(f.b); err != nil {
		t.Fatal(err)
	}
	if l := r.List(); len(l) != 1 || l[0] != f.b {
		t.Fatalf("List() after Set = %q", l)
	}
	got, err = r.Resolve("only_b.go")
	if want := (Path{Abs: filepath.Join(f.b, "only_b.go"), Root: f.b, Rel: "only_b.go", Exists: true}); err != nil || got != want {
		t.Fatalf("after Set: %+v, %v; want %+v", got, err, want)
	}
	if _, err := r.Resolve(filepath.Join(f.a, "main.go")); !isKind(err, Outside) {
		t.Fatalf("old root still accepted after Set: %v", err)
	}

	// A failed Set keeps the previous folders.
	if err := r.Set(f.a, filepath.Join(f.base, "missing")); !isKind(err, Invalid) {
		t.Fatalf("Set with missing folder err = %v, want Invalid", err)
	}
	if l := r.List(); len(l) != 1 || l[0] != f.b {
		t.Fatalf("List() after failed Set = %q, want [%q]", l, f.b)
	}
}

func TestConcurrentResolveAndSet(t *testing.T) {
	f := newFixture(t)
	r := mustNew(t, f.a)
	valid := map[Path]bool{
		{Abs: filepath.Join(f.a, "shared.go"), Root: f.a, Rel: "shared.go", Exists: true}: true,
		{Abs: filepath.Join(f.b, "shared.go"), Root: f.b, Rel: "shared.go", Exists: true}: true,
	}

	const rounds = 200
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	report := func(s string) {
		select {
		case errs <- s:
		default:
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < rounds; i++ {
			folder := f.a
			if i%2 == 0 {
				folder = f.b
			}
			if err := r.Set(folder); err != nil {
				report("Set: " + err.Error())
				return
			}
		}
	}()
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				got, err := r.Resolve("shared.go")
				if err != nil || !valid[got] {
					report("Resolve: unexpected " + got.Abs + " " + got.Root)
					return
				}
				if l := r.List(); len(l) != 1 || (l[0] != f.a && l[0] != f.b) {
					report("List: unexpected " + strings.Join(l, ","))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Error(s)
	}
}

func isKind(err error, k Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

// A huge path is refused on its length alone, before any message could
// quote it: the answer stays small whatever the input holds.
func TestResolveHugeInputNotEchoed(t *testing.T) {
	r, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		strings.Repeat("\x00", 1<<20),
		strings.Repeat("a/", 1<<19),
		"file:///" + strings.Repeat("%00", 1<<18),
	} {
		_, err := r.Resolve(in)
		var e *Error
		if !errors.As(err, &e) || e.Kind != Invalid || !strings.Contains(e.Error(), "bytes long") || len(e.Error()) > 200 {
			t.Fatalf("Resolve(%d bytes) = %.300v, want a short refusal on its length", len(in), err)
		}
	}
}

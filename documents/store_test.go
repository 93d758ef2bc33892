package documents

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"hashline-ls/internal/golden"
)

const testPath = "/w/a.go"

func rng(sl, sc, el, ec uint32) *Range {
	return &Range{Start: pos(sl, sc), End: pos(el, ec)}
}

// checkDoc asserts the document's text, and that the store's incrementally
// kept index is the one a fresh scan gives.
func checkDoc(t *testing.T, s *Store, path, want string) Doc {
	t.Helper()
	d, ok := s.Get(path)
	if !ok {
		t.Fatalf("Get(%s): not open", path)
	}
	if d.Text != want {
		t.Fatalf("text = %q, want %q", d.Text, want)
	}
	s.mu.Lock()
	got := slices.Clone(s.docs[path].idx.starts)
	s.mu.Unlock()
	if fresh := lineStarts(d.Text); !slices.Equal(got, fresh) {
		t.Fatalf("index of %q = %v, a fresh scan gives %v", d.Text, got, fresh)
	}
	return d
}

func TestStoreOpenChangeClose(t *testing.T) {
	t.Parallel()
	s := NewStore()
	if _, ok := s.Get(testPath); ok {
		t.Fatal("Get on an empty store found a document")
	}
	s.Open(testPath, "file:///w/a.go", 1, "package a\n")
	s.Open("/w/b.go", "file:///w/b.go", 3, "package b\n")
	d := checkDoc(t, s, testPath, "package a\n")
	if d.Path != testPath || d.URI != "file:///w/a.go" || d.Version != 1 || d.Seq != 1 {
		t.Fatalf("after Open: %+v", d)
	}
	if err := s.Change(testPath, 2, []Change{{Range: rng(0, 8, 0, 9), Text: "alpha"}}); err != nil {
		t.Fatal(err)
	}
	d = checkDoc(t, s, testPath, "package alpha\n")
	if d.Version != 2 || d.Seq != 3 || d.URI != "file:///w/a.go" {
		t.Fatalf("after Change: %+v", d)
	}
	if got := s.Paths(); !slices.Equal(got, []string{testPath, "/w/b.go"}) && !slices.Equal(got, []string{"/w/b.go", testPath}) {
		t.Fatalf("Paths() = %v", got)
	}
	if got := s.Paths(); !slices.IsSorted(got) {
		t.Fatalf("Paths() = %v, not sorted", got)
	}
	s.Close(testPath)
	if _, ok := s.Get(testPath); ok {
		t.Fatal("Get after Close found the document")
	}
	if got := s.Seq(); got != 4 {
		t.Fatalf("Seq() after open, open, change, close = %d, want 4", got)
	}
	s.Close(testPath) // closing what is not open changes nothing
	if got := s.Seq(); got != 4 {
		t.Fatalf("Seq() after a second Close = %d, want 4", got)
	}
	if got := s.Paths(); !slices.Equal(got, []string{"/w/b.go"}) {
		t.Fatalf("Paths() after Close = %v", got)
	}
	s.Open(testPath, "file:///w/a.go", 7, "reopened")
	if d := checkDoc(t, s, testPath, "reopened"); d.Version != 7 || d.Seq != 5 {
		t.Fatalf("after reopening: %+v", d)
	}
}

func TestStoreEncodingDefault(t *testing.T) {
	t.Parallel()
	s := NewStore()
	if s.Encoding() != UTF16 {
		t.Fatalf("default encoding %v, want utf-16", s.Encoding())
	}
	s.SetEncoding(UTF8)
	if s.Encoding() != UTF8 {
		t.Fatalf("encoding %v after SetEncoding(UTF8)", s.Encoding())
	}
}

// TestStoreChangesGolden runs the didChange cases of testdata/store, one a
// file: the document opens with "text quoted" in "encoding", then every
// other section, in file order, is one didChange, named for what it does.
// A change is a line "line:character-line:character" or "all" (the whole
// document), a space and its text; the step's last line is "want" and the
// whole text after it. Texts are Go string literals, as in
// testdata/position.
func TestStoreChangesGolden(t *testing.T) {
	t.Parallel()
	golden.Run(t, "testdata/store", 14, func(t *testing.T, g *golden.File) {
		s := NewStore()
		s.SetEncoding(mustEncoding(t, g))
		s.Open(testPath, "file:///w/a.go", 0, g.Quoted(t, "text quoted"))
		var version int32
		for _, name := range g.Names() {
			if name == "encoding" || name == "text quoted" {
				continue
			}
			version++
			changes, want := parseStep(t, name, g.Must(t, name))
			if err := s.Change(testPath, version, changes); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			d, _ := s.Get(testPath)
			if *golden.Update {
				want = d.Text
				g.Set(name, fmtStep(changes, want))
			} else if d.Text != want {
				t.Fatalf("%s: text = %q, want %q", name, d.Text, want)
			}
			checkDoc(t, s, testPath, want)
		}
		if *golden.Update {
			g.Write(t)
		}
	})
}

// parseStep reads one step of a testdata/store file.
func parseStep(t *testing.T, name, sec string) (changes []Change, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(sec, "\n"), "\n")
	for i, line := range lines {
		head, lit, _ := strings.Cut(line, " ")
		text, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("step %q line %d: %v", name, i+1, err)
		}
		switch {
		case head == "want" && i == len(lines)-1:
			return changes, text
		case head == "all":
			changes = append(changes, Change{nil, text})
		default:
			a, b, _ := strings.Cut(head, "-")
			changes = append(changes, Change{&Range{mustPosition(t, a), mustPosition(t, b)}, text})
		}
	}
	t.Fatalf("step %q does not end in a want line", name)
	return nil, ""
}

func fmtStep(changes []Change, want string) string {
	var b strings.Builder
	for _, c := range changes {
		if c.Range == nil {
			fmt.Fprintf(&b, "all %s\n", strconv.Quote(c.Text))
			continue
		}
		fmt.Fprintf(&b, "%s-%s %s\n", fmtPosition(c.Range.Start), fmtPosition(c.Range.End), strconv.Quote(c.Text))
	}
	return b.String() + "want " + strconv.Quote(want) + "\n"
}

func TestStoreVersionsSkip(t *testing.T) {
	t.Parallel()
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, "x")
	if d, _ := s.Get(testPath); d.Version != 0 {
		t.Fatalf("version %d after didOpen version 0", d.Version)
	}
	for _, v := range []int32{4, 9} {
		if err := s.Change(testPath, v, []Change{{rng(0, 1, 0, 1), "y"}}); err != nil {
			t.Fatal(err)
		}
		if d, _ := s.Get(testPath); d.Version != v {
			t.Fatalf("version %d after didChange version %d", d.Version, v)
		}
	}
	checkDoc(t, s, testPath, "xyy")
}

func TestStoreChangeUnopened(t *testing.T) {
	t.Parallel()
	s := NewStore()
	err := s.Change("/w/missing.go", 3, []Change{{nil, "x"}})
	if err == nil || !strings.Contains(err.Error(), "/w/missing.go") {
		t.Fatalf("Change on an unopened document: err = %v, want one naming the path", err)
	}
	if s.Seq() != 0 {
		t.Fatalf("Seq() = %d after a refused change, want 0", s.Seq())
	}
}

func TestStoreBadBatchChangesNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		changes []Change
	}{
		{"reversed first", []Change{{rng(0, 3, 0, 1), "x"}}},
		{"reversed across lines", []Change{{rng(1, 0, 0, 5), "x"}}},
		{"reversed after good ones", []Change{{rng(1, 0, 1, 1), "X"}, {rng(0, 0, 0, 1), "Y"}, {rng(0, 2, 0, 1), "Z"}}},
		{"reversed after a flush", []Change{{rng(0, 0, 0, 1), "X"}, {rng(1, 0, 1, 1), "Y"}, {rng(0, 2, 0, 1), "Z"}}},
		{"reversed after a replace", []Change{{nil, "other"}, {rng(0, 2, 0, 1), "Z"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := NewStore()
			s.Open(testPath, "file:///w/a.go", 5, "hello\nworld\n")
			err := s.Change(testPath, 6, c.changes)
			if err == nil || !strings.Contains(err.Error(), "ends before it starts") || !strings.Contains(err.Error(), testPath) {
				t.Fatalf("err = %v, want a reversed range naming the path", err)
			}
			d := checkDoc(t, s, testPath, "hello\nworld\n")
			if d.Version != 5 || d.Seq != 1 {
				t.Fatalf("after a bad batch: version %d seq %d, want 5 and 1", d.Version, d.Seq)
			}
			// The index survived: a later change lands where it should.
			if err := s.Change(testPath, 7, []Change{{rng(1, 5, 1, 5), "!"}}); err != nil {
				t.Fatal(err)
			}
			checkDoc(t, s, testPath, "hello\nworld!\n")
		})
	}
}

// Random batches match a reference that splices strings one change at a
// time, in every encoding, whatever the order of the changes; bottom-up
// batches take the store's single-copy path, the rest the general one.
func TestStoreMatchesReference(t *testing.T) {
	t.Parallel()
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 42))
		enc := []Encoding{UTF16, UTF8, UTF32}[seed%3]
		s := NewStore()
		s.SetEncoding(enc)
		ref := randomText(r, 40)
		s.Open(testPath, "file:///w/a.go", 0, ref)
		for round := range 30 {
			var changes []Change
			before := ref
			bottomUp := r.IntN(3) > 0
			limit := len(ref) // offsets of the next change stay below this
			for range 1 + r.IntN(5) {
				if r.IntN(40) == 0 {
					ref = randomText(r, 20)
					changes = append(changes, Change{nil, ref})
					limit = len(ref)
					continue
				}
				a, b := r.IntN(limit+1), r.IntN(limit+1)
				if !bottomUp {
					a, b = r.IntN(len(ref)+1), r.IntN(len(ref)+1)
				}
				a, b = min(a, b), max(a, b)
				if r.IntN(2) == 0 {
					b = a
				}
				ra := randomPosition(r, ref, a, enc)
				rb := randomPosition(r, ref, b, enc)
				if rb.Before(ra) {
					rb = ra
				}
				text := randomText(r, r.IntN(4))
				changes = append(changes, Change{&Range{ra, rb}, text})
				// The reference applies the change as a fresh index of its
				// text locates it.
				x := NewLineIndex(ref)
				oa, ob := x.OffsetAt(ref, ra, enc), x.OffsetAt(ref, rb, enc)
				ref = ref[:oa] + text + ref[ob:]
				limit = oa
			}
			if err := s.Change(testPath, int32(round+1), changes); err != nil {
				t.Fatalf("seed %d round %d: %v", seed, round, err)
			}
			d, _ := s.Get(testPath)
			if d.Text != ref {
				t.Fatalf("seed %d round %d, %v: from %q, changes %s\ngot  %q\nwant %q", seed, round, enc, before, fmtChanges(changes), d.Text, ref)
			}
			checkDoc(t, s, testPath, ref)
		}
	}
}

// randomPosition names offset off of text, mostly exactly, sometimes past
// its line's end, inside a character or past the last line.
func randomPosition(r *rand.Rand, text string, off int, enc Encoding) Position {
	p := NewLineIndex(text).PositionAt(text, off, enc)
	switch r.IntN(10) {
	case 0:
		p.Character += uint32(1 + r.IntN(3))
	case 1:
		p.Character += 1000
	case 2:
		if p.Line == NewLineIndex(text).PositionAt(text, len(text), enc).Line {
			p.Line++
		}
	}
	return p
}

func fmtChanges(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Range == nil {
			fmt.Fprintf(&b, "[all %q] ", c.Text)
			continue
		}
		fmt.Fprintf(&b, "[%v-%v %q] ", c.Range.Start, c.Range.End, c.Text)
	}
	return b.String()
}

// The waits run in a synctest bubble: time moves only when every goroutine
// of the bubble waits, so each Wait returns at an exact virtual time.
func TestStoreWait(t *testing.T) {
	t.Parallel()
	bubble := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, f)
		})
	}

	bubble("a change 150 ms later", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, "a")
		d0, _ := s.Get(testPath)
		go func() {
			time.Sleep(150 * time.Millisecond)
			if err := s.Change(testPath, 4, []Change{{rng(0, 1, 0, 1), "b"}}); err != nil {
				t.Error(err)
			}
		}()
		start := time.Now()
		d, changed := s.Wait(context.Background(), testPath, d0.Seq, 5*time.Second)
		if !changed || d.Text != "ab" || d.Version != 4 {
			t.Fatalf("Wait = %+v, %v; want the change", d, changed)
		}
		if el := time.Since(start); el != 150*time.Millisecond {
			t.Fatalf("Wait returned after %v, want 150ms", el)
		}
	})

	bubble("a change to another document does not end it", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, "a")
		s.Open("/w/b.go", "file:///w/b.go", 0, "b")
		d0, _ := s.Get(testPath)
		go func() {
			time.Sleep(20 * time.Millisecond)
			_ = s.Change("/w/b.go", 1, []Change{{nil, "bb"}})
			time.Sleep(50 * time.Millisecond)
			_ = s.Change(testPath, 1, []Change{{nil, "aa"}})
		}()
		start := time.Now()
		d, changed := s.Wait(context.Background(), testPath, d0.Seq, 5*time.Second)
		if !changed || d.Text != "aa" {
			t.Fatalf("Wait = %+v, %v; want the change to a.go", d, changed)
		}
		if el := time.Since(start); el != 70*time.Millisecond {
			t.Fatalf("Wait returned after %v, want 70ms, at the change to a.go", el)
		}
	})

	bubble("already changed returns at once", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, "a")
		if d, changed := s.Wait(context.Background(), testPath, 0, 0); !changed || d.Seq != 1 {
			t.Fatalf("Wait = %+v, %v; want the open document", d, changed)
		}
	})

	bubble("false at the bound", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 3, "a")
		d0, _ := s.Get(testPath)
		start := time.Now()
		d, changed := s.Wait(context.Background(), testPath, d0.Seq, 80*time.Millisecond)
		if changed || d != d0 {
			t.Fatalf("Wait = %+v, %v; want the unchanged document and false", d, changed)
		}
		if el := time.Since(start); el != 80*time.Millisecond {
			t.Fatalf("Wait returned after %v, want the 80ms bound", el)
		}
	})

	bubble("a zero bound only looks", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 3, "a")
		start := time.Now()
		if _, changed := s.Wait(context.Background(), testPath, 1, 0); changed {
			t.Fatal("Wait with a zero bound reported a change")
		}
		if el := time.Since(start); el != 0 {
			t.Fatalf("Wait with a zero bound returned after %v, want at once", el)
		}
	})

	bubble("prompt on cancel", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, "a")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(30*time.Millisecond, cancel)
		start := time.Now()
		if _, changed := s.Wait(ctx, testPath, 1, time.Minute); changed {
			t.Fatal("Wait reported a change on cancel")
		}
		if el := time.Since(start); el != 30*time.Millisecond {
			t.Fatalf("Wait returned %v after it began, want 30ms, at the cancel", el)
		}
	})

	bubble("a didOpen of a document that was not open", func(t *testing.T) {
		s := NewStore()
		after := s.Seq()
		go func() {
			time.Sleep(50 * time.Millisecond)
			s.Open(testPath, "file:///w/a.go", 0, "opened")
		}()
		start := time.Now()
		d, changed := s.Wait(context.Background(), testPath, after, 5*time.Second)
		if !changed || d.Text != "opened" {
			t.Fatalf("Wait = %+v, %v; want the opened document", d, changed)
		}
		if el := time.Since(start); el != 50*time.Millisecond {
			t.Fatalf("Wait returned after %v, want 50ms, at the didOpen", el)
		}
	})

	bubble("a close ends it", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, "a")
		go func() {
			time.Sleep(30 * time.Millisecond)
			s.Close(testPath)
		}()
		start := time.Now()
		d, changed := s.Wait(context.Background(), testPath, 1, 5*time.Second)
		if changed || d != (Doc{}) {
			t.Fatalf("Wait = %+v, %v; want a zero document and false", d, changed)
		}
		if el := time.Since(start); el != 30*time.Millisecond {
			t.Fatalf("Wait returned after %v, want 30ms, at the close", el)
		}
	})

	bubble("many waiters all wake", func(t *testing.T) {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, "a")
		var wg sync.WaitGroup
		woke := make(chan bool, 8)
		for range 8 {
			wg.Go(func() {
				_, changed := s.Wait(context.Background(), testPath, 1, 5*time.Second)
				woke <- changed
			})
		}
		// Every waiter is blocked in Wait once the bubble is idle.
		synctest.Wait()
		start := time.Now()
		if err := s.Change(testPath, 1, []Change{{nil, "b"}}); err != nil {
			t.Error(err)
		}
		wg.Wait()
		close(woke)
		for changed := range woke {
			if !changed {
				t.Fatal("a waiter did not see the change")
			}
		}
		if el := time.Since(start); el != 0 {
			t.Fatalf("the waiters woke %v after the change, want at once", el)
		}
	})
}

func TestStoreConcurrent(t *testing.T) {
	t.Parallel()
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, "")
	const n = 200
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range n {
			if err := s.Change(testPath, int32(i+1), []Change{{rng(uint32(i), 0, uint32(i), 0), "x\n"}}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			var last uint64
			for range n {
				d, ok := s.Get(testPath)
				if !ok {
					t.Error("document vanished")
					return
				}
				if d.Seq < last || strings.Count(d.Text, "\n") != int(d.Version) {
					t.Errorf("inconsistent read: seq %d after %d, version %d with %d lines", d.Seq, last, d.Version, strings.Count(d.Text, "\n"))
					return
				}
				last = d.Seq
				_ = s.Paths()
			}
		})
	}
	wg.Go(func() {
		s.Wait(context.Background(), testPath, n, 5*time.Second)
	})
	wg.Wait()
	checkDoc(t, s, testPath, strings.Repeat("x\n", n))
}

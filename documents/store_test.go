package documents

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
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

// Each step is one didChange; want is the whole text after it.
type step struct {
	name    string
	changes []Change
	want    string
}

func runSteps(t *testing.T, enc Encoding, initial string, steps []step) {
	t.Helper()
	s := NewStore()
	s.SetEncoding(enc)
	s.Open(testPath, "file:///w/a.go", 0, initial)
	for i, st := range steps {
		if err := s.Change(testPath, int32(i+1), st.changes); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		d, _ := s.Get(testPath)
		if d.Text != st.want {
			t.Fatalf("%s: text = %q, want %q", st.name, d.Text, st.want)
		}
		checkDoc(t, s, testPath, st.want)
	}
}

func TestStoreChanges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		enc     Encoding
		initial string
		steps   []step
	}{
		{"typing and deleting", UTF16, "func main() {\n}\n", []step{
			{"insert a line", []Change{{rng(1, 0, 1, 0), "\tprintln()\n"}}, "func main() {\n\tprintln()\n}\n"},
			{"type inside it", []Change{{rng(1, 9, 1, 9), `"hi"`}}, "func main() {\n\tprintln(\"hi\")\n}\n"},
			{"delete a word", []Change{{rng(0, 5, 0, 9), ""}}, "func () {\n\tprintln(\"hi\")\n}\n"},
			{"join two lines", []Change{{rng(0, 9, 1, 1), " "}}, "func () { println(\"hi\")\n}\n"},
			{"split a line", []Change{{rng(0, 9, 0, 10), "\n\t"}}, "func () {\n\tprintln(\"hi\")\n}\n"},
			{"delete everything", []Change{{rng(0, 0, 3, 0), ""}}, ""},
			{"type into nothing", []Change{{rng(0, 0, 0, 0), "x"}}, "x"},
		}},
		{"insert at 0:0 is not a replace", UTF16, "abc\n", []step{
			{"insert", []Change{{rng(0, 0, 0, 0), "// head\n"}}, "// head\nabc\n"},
		}},
		{"whole document replace", UTF16, "abc\n", []step{
			{"replace", []Change{{nil, "new\ntext"}}, "new\ntext"},
			{"then edit it", []Change{{rng(1, 0, 1, 4), "TEXT"}}, "new\nTEXT"},
		}},
		{"replace inside a batch", UTF16, "abc\n", []step{
			{"edit, replace, edit", []Change{{rng(0, 0, 0, 1), "X"}, {nil, "one\ntwo\n"}, {rng(1, 0, 1, 3), "2"}}, "one\n2\n"},
		}},
		{"later ranges refer to the text after earlier ones", UTF16, "aaa\nbbb\nccc\n", []step{
			// Top-down: the second range is in the text the first left.
			{"top down", []Change{{rng(0, 0, 0, 0), "x\ny\n"}, {rng(2, 0, 2, 3), "A"}, {rng(4, 3, 4, 3), "!"}}, "x\ny\nA\nbbb\nccc!\n"},
			// Bottom-up, as editors send a multi-range edit.
			{"bottom up", []Change{{rng(4, 0, 4, 1), "C"}, {rng(3, 1, 3, 2), "B"}, {rng(0, 0, 1, 1), ""}}, "\nA\nbBb\nCcc!\n"},
			{"same line bottom up", []Change{{rng(2, 2, 2, 3), "_"}, {rng(2, 0, 2, 1), "_"}}, "\nA\n_B_\nCcc!\n"},
			{"overlapping", []Change{{rng(2, 0, 2, 3), "xyz"}, {rng(2, 1, 3, 1), "-"}}, "\nA\nx-cc!\n"},
		}},
		{"insertions at one point", UTF8, "ab", []step{
			{"bottom up at one offset", []Change{{rng(0, 1, 0, 1), "2"}, {rng(0, 1, 0, 1), "1"}}, "a12b"},
			{"adjacent ranges", []Change{{rng(0, 2, 0, 3), "X"}, {rng(0, 1, 0, 2), "Y"}}, "aYXb"},
		}},
		{"line endings made and broken", UTF16, "a\rb", []step{
			{"cr becomes crlf", []Change{{rng(1, 0, 1, 0), "\n"}}, "a\r\nb"},
			{"crlf split", []Change{{rng(0, 1, 0, 1), "x"}}, "ax\r\nb"},
			{"lf before a lone cr", []Change{{rng(1, 0, 1, 0), "\r"}}, "ax\r\n\rb"},
			{"delete the lf of crlf by range over the ending", []Change{{rng(0, 2, 1, 0), "\r"}}, "ax\r\rb"},
			{"bottom up across endings", []Change{{rng(2, 0, 2, 0), "\n"}, {rng(1, 0, 1, 0), "\n"}}, "ax\r\n\r\nb"},
		}},
		{"emoji and cjk in utf-16", UTF16, "a😀b日c\n", []step{
			{"after the emoji", []Change{{rng(0, 3, 0, 3), "|"}}, "a😀|b日c\n"},
			{"replace the emoji", []Change{{rng(0, 1, 0, 3), "🎉🎉"}}, "a🎉🎉|b日c\n"},
			{"inside a pair rounds down", []Change{{rng(0, 2, 0, 2), "^"}}, "a^🎉🎉|b日c\n"},
			{"after cjk", []Change{{rng(0, 9, 0, 10), "C"}}, "a^🎉🎉|b日C\n"},
			{"bottom up around both", []Change{{rng(0, 8, 0, 9), "本"}, {rng(0, 2, 0, 4), ""}}, "a^🎉|b本C\n"},
		}},
		{"emoji and cjk in utf-8", UTF8, "a😀b日c\n", []step{
			{"after the emoji", []Change{{rng(0, 5, 0, 5), "|"}}, "a😀|b日c\n"},
			{"replace cjk", []Change{{rng(0, 7, 0, 10), "本"}}, "a😀|b本c\n"},
			{"inside the emoji rounds down", []Change{{rng(0, 3, 0, 3), "^"}}, "a^😀|b本c\n"},
		}},
		// The first change completes a sequence the text had cut short, so
		// the bytes before it no longer count as they did.
		{"a change completes a character, utf-16", UTF16, "\xe6\x97x", []step{
			{"bottom up", []Change{{rng(0, 2, 0, 2), "\xa5"}, {rng(0, 1, 0, 1), "!"}}, "日!x"},
		}},
		{"a change completes a character, utf-8", UTF8, "\xe6\x97x", []step{
			{"bottom up", []Change{{rng(0, 2, 0, 2), "\xa5"}, {rng(0, 1, 0, 1), "!"}}, "!日x"},
		}},
		{"emoji in utf-32", UTF32, "😀😀\n", []step{
			{"between", []Change{{rng(0, 1, 0, 1), "-"}}, "😀-😀\n"},
		}},
		{"clamped ranges", UTF16, "ab\ncd", []step{
			{"past line end", []Change{{rng(0, 10, 0, 20), "!"}}, "ab!\ncd"},
			{"past the last line", []Change{{rng(9, 0, 9, 0), "\nend"}}, "ab!\ncd\nend"},
			{"bottom up past a line end", []Change{{rng(1, 99, 1, 99), "?"}, {rng(0, 99, 0, 99), "?"}}, "ab!?\ncd?\nend"},
		}},
		{"empty batch", UTF16, "x", []step{
			{"nothing", nil, "x"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runSteps(t, c.enc, c.initial, c.steps)
		})
	}
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

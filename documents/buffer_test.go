package documents

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// The store builds each change in a buffer of its own and reuses the one
// the text before it lived in. Whatever a reader was handed (a Doc, a Live
// text, a Wait's document) stays the text it was when handed out, however
// many changes follow, and every text is the one a fresh splice of the
// changes gives.
func TestStoreNeverWritesAHandedOutText(t *testing.T) {
	t.Parallel()
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		ref := randomText(r, 60)
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, ref)
		type held struct{ got, want string }
		var hold []held
		for round := range 200 {
			var changes []Change
			for range 1 + r.IntN(3) {
				a := r.IntN(len(ref) + 1)
				b := min(len(ref), a+r.IntN(3))
				text := randomText(r, r.IntN(3))
				x := NewLineIndex(ref)
				ra, rb := x.PositionAt(ref, a, UTF16), x.PositionAt(ref, b, UTF16)
				changes = append(changes, Change{&Range{ra, rb}, text})
				oa, ob := x.OffsetAt(ref, ra, UTF16), x.OffsetAt(ref, rb, UTF16)
				ref = ref[:oa] + text + ref[ob:]
			}
			if err := s.Change(testPath, int32(round+1), changes); err != nil {
				t.Fatal(err)
			}
			switch r.IntN(8) {
			case 0:
				d, _ := s.Get(testPath)
				hold = append(hold, held{d.Text, ref})
			case 1:
				l, err := s.Live(context.Background(), testPath)
				if err != nil {
					t.Fatal(err)
				}
				hold = append(hold, held{l.Text.Raw(), ref})
			case 2:
				d, _ := s.Wait(context.Background(), testPath, 0, 0)
				hold = append(hold, held{d.Text, ref})
			}
		}
		checkDoc(t, s, testPath, ref)
		for i, h := range hold {
			if h.got != h.want {
				t.Fatalf("seed %d: text %d handed out changed to %q, it was %q", seed, i, h.got, h.want)
			}
		}
	}
}

// Keystrokes nobody reads in between are built in the store's two buffers:
// a hundred of them in a large document allocate less than two copies of
// it, not a hundred.
func TestStoreKeystrokesReuseTheBuffers(t *testing.T) {
	text := strings.Repeat("\tfmt.Println(\"héllo\", i) // a line of a large file\n", 20000)
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, text)
	typeAt := func(v int32) {
		if err := s.Change(testPath, v, []Change{{rng(5000, uint32(v), 5000, uint32(v)), "x"}}); err != nil {
			t.Fatal(err)
		}
	}
	typeAt(1)
	typeAt(2)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for v := int32(3); v < 103; v++ {
		typeAt(v)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(2*len(text)) {
		t.Fatalf("100 keystrokes in %d bytes allocated %d bytes", len(text), n)
	}
	// Each keystroke typed after the one before, from the line's second
	// character on.
	at := NewLineIndex(text).OffsetAt(text, pos(5000, 1), UTF16)
	if d, _ := s.Get(testPath); d.Text != text[:at]+strings.Repeat("x", 102)+text[at:] {
		t.Fatal("the keystrokes did not land where they were typed")
	}
}

// A buffer read, changed and read again gets a Live text made of the one
// read before (hashline.Text.Derive): its bytes, lines and tag are those
// of the text itself, whatever the change, a batch or a line ending.
func TestStoreLiveAfterAChangeIsItsText(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 4000 {
		b.WriteString("\tline of a buffer large enough to be hashed in marks")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\n")
	}
	ref := b.String()
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, ref)
	r := rand.New(rand.NewPCG(11, 13))
	for round := range 60 {
		if r.IntN(3) > 0 {
			l, err := s.Live(context.Background(), testPath)
			if err != nil {
				t.Fatal(err)
			}
			fresh := hashline.NewText(ref)
			if l.Text.Raw() != ref || l.Text.Tag() != fresh.Tag() || l.Text.Len() != fresh.Len() || l.Text.Line(fresh.Len()/2) != fresh.Line(fresh.Len()/2) {
				t.Fatalf("round %d: the Live text is not the buffer's", round)
			}
		}
		var changes []Change
		for k := range 1 + r.IntN(3) {
			line := uint32(4000 - 1000*k - r.IntN(900))
			text := []string{"y", "", "new line\n"}[r.IntN(3)]
			if round >= 50 {
				// A CR or a blank at last: no longer clean, or no longer LF.
				text = []string{"\r", " "}[r.IntN(2)]
			}
			changes = append(changes, Change{rng(line, 3, line, uint32(3+r.IntN(3))), text})
		}
		x := NewLineIndex(ref)
		for _, c := range changes {
			a, e := x.OffsetAt(ref, c.Range.Start, UTF16), x.OffsetAt(ref, c.Range.End, UTF16)
			ref = ref[:a] + c.Text + ref[e:]
			x = NewLineIndex(ref)
		}
		if err := s.Change(testPath, int32(round+1), changes); err != nil {
			t.Fatal(err)
		}
	}
	checkDoc(t, s, testPath, ref)
}

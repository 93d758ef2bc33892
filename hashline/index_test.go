package hashline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The index and digest an edit's new text carries from the old one, and
// the digest of a text its index calls clean, are those a fresh index and
// the full normalization give, on random texts in every ending style and
// random hunks, blank-ended lines among them.
func TestDerivedIndexMatchesFresh(t *testing.T) {
	derived, clean := 0, 0
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 23))
		old := NewText(genText(r))
		hunks := randomHunks(r, old.Len())
		got := old.Apply(old.Edits(hunks))
		if x := got.index.Load(); x != nil {
			derived++
			if x.clean {
				clean++
			}
		}
		want := NewLazyText(got.Raw())
		if err := sameIndex(got.x(), want.x()); err != nil {
			t.Fatalf("seed %d: %q with hunks %+v gives %q: %v", seed, old.Raw(), hunks, got.Raw(), err)
		}
		if got.Digest() != want.Digest() || want.Digest() != fullDigest(want) {
			t.Fatalf("seed %d: %q: digest of the derived text, the fresh one and the full normalization differ", seed, got.Raw())
		}
	}
	if derived < 500 || clean < 100 {
		t.Fatalf("only %d derived indexes, %d of them clean: the cases do not reach the derivation", derived, clean)
	}
}

// The index of an LF text is where a byte-by-byte scan puts its lines, and
// it is clean exactly when no line ends in a blank: lines of every length,
// so that LFs fall everywhere in the 64 bytes the scan compares at a time,
// and a blank at the very end, before a last LF or without one.
func TestIndexMatchesByteScan(t *testing.T) {
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 31))
		raw := genLongLines(r)
		if r.IntN(3) == 0 {
			raw = strings.ReplaceAll(genText(r), "\r", "") + raw
		}
		if r.IntN(4) == 0 {
			raw += string(" \t"[r.IntN(2)]) + "\n"[:r.IntN(2)]
		}
		body := bodyStart(raw)
		starts, clean := []int32{int32(body)}, true
		for i := body; i < len(raw); i++ {
			if raw[i] != '\n' {
				continue
			}
			clean = clean && !(i > int(starts[len(starts)-1]) && isBlank(raw[i-1]))
			if i+1 < len(raw) {
				starts = append(starts, int32(i+1))
			}
		}
		if last := raw[starts[len(starts)-1]:]; len(raw) > body && !strings.HasSuffix(last, "\n") {
			clean = clean && !isBlank(last[len(last)-1])
		}
		if len(raw) == body {
			starts = starts[:0]
		}
		starts = append(starts, int32(len(raw)))
		x := NewLazyText(raw).x()
		if !slices.Equal(x.starts, starts) || x.clean != clean {
			t.Fatalf("seed %d: %q: starts %v clean %v, want %v %v", seed, raw, x.starts, x.clean, starts, clean)
		}
	}
}

func sameIndex(got, want *lines) error {
	switch {
	case !slices.Equal(got.starts, want.starts):
		return fmt.Errorf("starts %v, want %v", got.starts, want.starts)
	case got.eol != want.eol || got.bom != want.bom || got.final != want.final || got.hasCR != want.hasCR:
		return fmt.Errorf("eol %q bom %v final %v CR %v, want %q %v %v %v", got.eol, got.bom, got.final, got.hasCR, want.eol, want.bom, want.final, want.hasCR)
	case got.clean && !want.clean:
		return fmt.Errorf("called clean, but it is not")
	}
	return nil
}

// fullDigest hashes t line by line, as if no text were clean.
func fullDigest(t *Text) Digest {
	x := *t.x()
	x.clean = false
	u := NewLazyText(t.Raw())
	u.index.Store(&x)
	return u.hashNormalized().d
}

// randomHunks returns sorted hunks of n lines, apart from each other.
func randomHunks(r *rand.Rand, n int) []Hunk {
	var hunks []Hunk
	for at := 0; at <= n; {
		start := at + r.IntN(3)
		if start > n {
			break
		}
		end := min(n, start+r.IntN(3))
		h := Hunk{Start: start, End: end}
		for range r.IntN(3) {
			h.Lines = append(h.Lines, genLine(r))
		}
		if h.Start < h.End || len(h.Lines) > 0 {
			hunks = append(hunks, h)
		}
		at = end + 1
	}
	return hunks
}

// A read of a text not indexed yet renders in the same scan that indexes
// it: the view, the index and the digest are those of a text indexed first,
// whatever the window's length, with lines too long to show, lines at the
// width limit, bytes that are not UTF-8 and a BOM among the cases.
func TestFreshRenderMatchesIndexed(t *testing.T) {
	for seed := range uint64(2000) {
		r := rand.New(rand.NewPCG(seed, 29))
		raw := genText(r)
		switch r.IntN(10) {
		case 0:
			raw += strings.Repeat("é", MaxLineChars) + "\n"
		case 1:
			raw = "\xff" + raw
		case 2, 3:
			raw = genLongLines(r)
		case 4:
			raw += strings.Repeat("x", MaxLineChars-1+r.IntN(3)) + "\n" + raw
		}
		indexed := NewText(raw)
		for _, limit := range []int{1, 1 + r.IntN(5), indexed.Len() + 1} {
			want := RenderWindowAs(AnchorTag, "f.go", indexed, 1, limit)
			fresh := NewLazyText(raw)
			got := RenderWindowAs(AnchorTag, "f.go", fresh, 1, limit)
			if got.Content != want.Content || got.First != want.First || got.Last != want.Last ||
				!slices.Equal(got.Clipped, want.Clipped) || got.Seen.String() != want.Seen.String() {
				t.Fatalf("seed %d, limit %d: %q renders\n%q %+v, want\n%q %+v", seed, limit, raw, got.Content, got, want.Content, want)
			}
			if err := sameIndex(fresh.x(), indexed.x()); err != nil || fresh.Digest() != indexed.Digest() {
				t.Fatalf("seed %d: %q: %v, or the digests differ", seed, raw, err)
			}
		}
	}
}

// genLongLines is an LF text of lines from empty to 100 bytes long, some
// ending in a blank, with or without a last LF: the lines of real source,
// which the generated texts of the property tests keep short.
func genLongLines(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(40) {
		n := r.IntN(100)
		for i := range n {
			b.WriteByte("abcdefgh _(){}"[(i+n)%14])
		}
		if r.IntN(4) == 0 {
			b.WriteByte(" \t"[r.IntN(2)])
		}
		b.WriteByte('\n')
	}
	if r.IntN(2) == 0 {
		b.WriteString("tail")
	}
	return b.String()
}

// A text read again takes the index and digest of the session's snapshot
// only when its bytes, or for CR and BOM texts its normalized text, are the
// snapshot's; a byte changed anywhere leaves it to index and hash itself.
func TestRecallTakesOnlyTheSameText(t *testing.T) {
	for _, base := range []string{"a\nbb\n\tccc\n", "a\r\nbb\r\nccc", "\uFEFFa\nb\n", "x"} {
		s := NewSession()
		read := NewText(base)
		s.Read("f", "f", read, 1, MaxIRLines)
		again := NewLazyText(strings.Clone(base))
		s.recall("f", again)
		if !again.Hashed() || again.Digest() != read.Digest() {
			t.Fatalf("%q read again: the digest was not taken from the snapshot", base)
		}
		for i := range len(base) {
			for _, c := range []byte{'z', '\r', '\n'} {
				changed := base[:i] + string(c) + base[i+1:]
				if changed == base {
					continue
				}
				u := NewLazyText(changed)
				s.recall("f", u)
				fresh := NewText(changed)
				if u.Hashed() && fresh.Normalized() != read.Normalized() {
					t.Fatalf("%q changed at %d to %q: took a digest", base, i, changed)
				}
				if u.Digest() != fresh.Digest() || u.Len() != fresh.Len() {
					t.Fatalf("%q changed at %d to %q: digest or lines not its own", base, i, changed)
				}
			}
		}
	}
}

// An edit of a text the session holds unchanged, small or large, takes the
// live digest and index from the snapshot rather than hashing and scanning
// it: the very ones the snapshot's text carries.
func TestPlanTakesTheDigestOfAnUnchangedText(t *testing.T) {
	for _, copies := range []int{0, 100, markMax / 16} {
		s := NewSession()
		read := NewText("one\ntwo\nthree\n" + strings.Repeat("a line of a large text\n", copies))
		s.Read("f", "f", read, 1, 3)
		live := NewLazyText(strings.Clone(read.Raw()))
		if _, err := s.Plan(EditRequest{Path: "f", Display: "f", Tag: string(read.Tag()), Ops: "PUT 2.=2:\n+TWO"}, live); err != nil {
			t.Fatal(err)
		}
		if live.digest.Load() != read.digest.Load() || live.index.Load() != read.index.Load() {
			t.Fatalf("%d bytes: the live text was indexed or hashed again", read.Size())
		}
	}
}

// The digest of a text made by an edit, resumed from the marks of the text
// it was made of, is the digest of its bytes, edit after edit, wherever the
// edits fall, and when an edit leaves a blank at a line's end: on a text
// whose marks lie 64 KiB apart, one with 32 of them, and one just big
// enough for marks.
func TestResumedDigestMatchesFresh(t *testing.T) {
	for _, lines := range []int{2 * markMax * 32 / 40, 12000, 2*markMin/40 + 60} {
		t.Run(fmt.Sprint(lines), func(t *testing.T) { testResumedDigest(t, lines) })
	}
}

func testResumedDigest(t *testing.T, lines int) {
	r := rand.New(rand.NewPCG(37, 41))
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "\tline %d of a text large enough for marks\n", i)
	}
	cur := NewText(b.String())
	if len(cur.digest.Load().marks) == 0 {
		t.Fatalf("a clean text of %d bytes has no marks", cur.Size())
	}
	resumed := 0
	for step := range 40 {
		hunks := []Hunk{{Start: r.IntN(cur.Len()), Lines: []string{fmt.Sprintf("\tedited %d", step)}}}
		hunks[0].End = min(cur.Len(), hunks[0].Start+r.IntN(3))
		if step%10 == 9 {
			hunks[0].Lines[0] += " " // a blank before the LF: not clean
		}
		next := cur.Apply(cur.Edits(hunks))
		if next.from.Load() != nil {
			resumed++
		}
		if got, want := next.Digest(), NewText(next.Raw()).Digest(); got != want {
			t.Fatalf("step %d: the resumed digest is not the text's", step)
		}
		if next.from.Load() != nil {
			t.Fatalf("step %d: the text it was made of is still held after the digest", step)
		}
		if step%10 != 9 {
			cur = NewText(next.Raw())
		}
	}
	if resumed < 30 {
		t.Fatalf("only %d of 40 edits resumed a digest", resumed)
	}
}

// Derive takes what its caller says only when the bytes say it too: a raw
// that is not the text with the edits applied, by one byte anywhere, gets
// an index and a digest of its own.
func TestDeriveChecksTheEdits(t *testing.T) {
	var b strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	old := NewText(b.String())
	edits := []ByteEdit{{Start: 150000, End: 150004, New: "new\n"}, {Start: 250000, End: 250000, New: "more\n"}}
	right := ApplyEdits(old.Raw(), edits)
	if d := old.Derive(right, edits); d.Digest() != NewText(right).Digest() || d.Len() != NewText(right).Len() {
		t.Fatal("the derived text is not its bytes' text")
	}
	for _, at := range []int{0, 70000, 150001, 200000, len(right) - 1} {
		wrong := right[:at] + "\n" + right[at+1:]
		d := old.Derive(wrong, edits)
		if d.Digest() != NewText(wrong).Digest() || d.Len() != NewText(wrong).Len() {
			t.Fatalf("a byte changed at %d: the derived text took the edits' word for it", at)
		}
	}
}

// A fresh large text is hashed on another processor while its lines are
// found, as if it were clean; whatever the scan then finds, the digest must
// be the one hashing after the scan gives, and a byte that makes the text
// unclean anywhere (a blank before an LF, a CR, first, middle or last) must
// not leave the speculative digest in place.
func TestHashAheadMatchesSerial(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*markMax; i++ {
		fmt.Fprintf(&b, "\tline %d of a text hashed ahead\n", i)
	}
	clean := b.String()
	at := func(i int) int { return strings.IndexByte(clean[i:], '\n') + i }
	variants := map[string]string{
		"clean":                       clean,
		"no last LF":                  strings.TrimSuffix(clean, "\n"),
		"BOM":                         bom + clean,
		"just over the least":         clean[:strings.IndexByte(clean[aheadMin:], '\n')+aheadMin+1],
		"just under the least":        clean[:strings.LastIndexByte(clean[:aheadMin], '\n')+1],
		"blank first":                 " " + clean[:at(0)] + " " + clean[at(0):],
		"tab in the middle":           clean[:at(len(clean)/2)] + "\t" + clean[at(len(clean)/2):],
		"blank last":                  strings.TrimSuffix(clean, "\n") + " \n",
		"CR first":                    strings.Replace(clean, "\n", "\r\n", 1),
		"CR in the middle":            clean[:at(len(clean)/2)] + "\r" + clean[at(len(clean)/2):],
		"lone CR last":                strings.TrimSuffix(clean, "\n") + "\r",
		"invalid UTF-8 in the middle": clean[:len(clean)/2] + "\xff" + clean[len(clean)/2:],
	}
	// And at random: a size either side of the least, and one byte that
	// makes the text unclean, or none, anywhere.
	r := rand.New(rand.NewPCG(43, 47))
	for i := range 40 {
		end := aheadMin - 2048 + r.IntN(len(clean)-aheadMin)
		raw := clean[:end+strings.IndexByte(clean[end:], '\n')+1]
		if k := r.IntN(4); k > 0 {
			from := r.IntN(len(raw))
			at := from + strings.IndexByte(raw[from:], '\n')
			raw = raw[:at] + []string{"", " ", "\t", "\r"}[k] + raw[at:]
		}
		variants[fmt.Sprintf("random %d", i)] = raw
	}
	for name, raw := range variants {
		t.Run(name, func(t *testing.T) {
			serial := NewLazyText(raw)
			serial.x()
			want := serial.Digest()
			if got := NewText(raw).Digest(); got != want {
				t.Fatalf("NewText's digest differs from the one hashed after the scan")
			}
			fresh := NewLazyText(raw)
			v := RenderWindowAs(AnchorTag, "f.go", fresh, 1, MaxIRLines)
			if fresh.Digest() != want || !strings.HasPrefix(v.Content, "[f.go#"+string(modelTag(raw))+"]") {
				t.Fatalf("the fresh render's digest or header is not the text's: %.40q", v.Content)
			}
			if serial.Tag() != modelTag(raw) {
				t.Fatalf("tag %s, want %s", serial.Tag(), modelTag(raw))
			}
		})
	}
}

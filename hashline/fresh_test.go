package hashline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A fresh render cuts the text into chunks, writes each chunk's rows in a
// region of one buffer sized for them unclipped, and, for a large text,
// shares the chunks with the goroutine that hashes. Whatever the text, its
// view, its index and its tag must be the ones the row-by-row render of the
// indexed text gives: with windows ending anywhere, lines that are clipped
// (shorter or longer rows than their region allows), long lines of many
// bytes but few characters, invalid UTF-8, blanks before an LF, a BOM, no
// last LF, and sizes either side of a chunk and of the hash beside, and
// past the jobs that only index.
func TestFreshRenderInChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	kinds := []func(i int) string{
		func(i int) string { return fmt.Sprintf("\tline %d of a fresh render", i) },
		func(int) string { return "" },
		func(i int) string { return fmt.Sprintf("x := %d ", i) },
		func(i int) string { return strings.Repeat("long", MaxLineChars/4+1+i%7) },
		func(int) string { return strings.Repeat("日", MaxLineChars/2) },
		func(int) string { return "bad \xff byte" },
		func(i int) string { return fmt.Sprintf("}\t// %d", i) },
	}
	text := func(size int, weights []int) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			k := 0
			for w := r.IntN(weights[len(weights)-1]); weights[k] <= w; k++ {
			}
			b.WriteString(kinds[k](i))
			b.WriteByte('\n')
		}
		return b.String()
	}
	type variant struct {
		raw   string
		limit int
	}
	variants := map[string]variant{"empty": {"", MaxIRLines}, "BOM only": {bom, MaxIRLines}, "one line, no LF": {"a", MaxIRLines}}
	// Cumulative weights: mostly plain lines, now and then each other kind.
	plain, mixed := []int{100, 101, 102, 103, 104, 105, 106}, []int{60, 70, 80, 84, 88, 92, 100}
	for i := range 60 {
		weights := plain
		if i%2 == 1 {
			weights = mixed
		}
		size := []int{freshChunk - 100, freshChunk + 100, 3 * freshChunk, freshHelped + 1000, 3 * freshHelped}[i%5]
		raw := text(size, weights)
		switch i % 4 {
		case 1:
			raw = strings.TrimSuffix(raw, "\n")
		case 2:
			raw = bom + raw
		}
		limit := MaxIRLines
		if i%3 == 0 {
			limit = 1 + r.IntN(strings.Count(raw, "\n")+1)
		}
		variants[fmt.Sprintf("%d: %d bytes, limit %d", i, len(raw), limit)] = variant{raw, limit}
	}
	// A window of a text whose rest takes several jobs that only index.
	big := text(3*freshIndexChunk+freshChunk, mixed)
	variants["a window of a large text"] = variant{big, 2000}
	variants["all of a large text"] = variant{big, MaxIRLines}
	for name, v := range variants {
		t.Run(name, func(t *testing.T) {
			indexed := NewText(v.raw)
			want := RenderWindowAs(AnchorTag, "f.go", indexed, 1, v.limit)
			fresh := NewLazyText(v.raw)
			got := RenderWindowAs(AnchorTag, "f.go", fresh, 1, v.limit)
			if got.Content != want.Content {
				at := 0
				for at < min(len(got.Content), len(want.Content)) && got.Content[at] == want.Content[at] {
					at++
				}
				t.Fatalf("content differs at byte %d of %d (want %d): %.60q, want %.60q", at, len(got.Content), len(want.Content), got.Content[at:], want.Content[at:])
			}
			if got.Seen.String() != want.Seen.String() || !slices.Equal(got.Clipped, want.Clipped) || got.First != want.First || got.Last != want.Last {
				t.Fatalf("seen %s clipped %v window %d-%d, want %s %v %d-%d", got.Seen, got.Clipped, got.First, got.Last, want.Seen, want.Clipped, want.First, want.Last)
			}
			if err := sameIndex(fresh.x(), indexed.x()); err != nil {
				t.Fatal(err)
			}
			if fresh.Tag() != modelTag(v.raw) || fresh.Digest() != indexed.Digest() {
				t.Fatalf("tag %s, want %s, or the digests differ", fresh.Tag(), modelTag(v.raw))
			}
		})
	}
}

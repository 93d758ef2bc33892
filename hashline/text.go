package hashline

import (
	"crypto/sha256"
	"strings"
	"unsafe"
)

const bom = "\uFEFF"

// Text is one version of a file: its bytes exactly as held, and where each
// line lies in them (docs/contract.md §3.1).
//
// A line ends at LF, CRLF or a lone CR, the three endings LSP positions
// count, so line N here is line N-1 in every editor. The ending is not part
// of the line; a final ending terminates the last line and adds none.
// A leading UTF-8 BOM is not content. Nothing is rewritten: every line keeps
// its own ending and trailing whitespace, and Splice copies untouched lines
// byte for byte.
type Text struct {
	raw    string
	starts []int // starts[i] is where line i+1 begins; starts[Len()] == len(raw)
	eol    string
	bom    bool
	final  bool // the last line has an ending
	hasCR  bool
	digest Digest
}

// Digest is the SHA-256 of the text normalized for hashing: BOM dropped,
// endings as LF, trailing [ \t] cut from every line (docs/contract.md §3.2). Two texts
// with one Digest differ at most in those three respects, which is exactly
// what a reader of numbered lines cannot see.
type Digest [sha256.Size]byte

// NewText indexes and tags raw. It copies nothing.
func NewText(raw string) *Text {
	t := indexText(raw)
	t.digest = t.hashNormalized()
	return t
}

// indexText finds the lines of raw without hashing it.
func indexText(raw string) *Text {
	t := &Text{raw: raw}
	body := 0
	if strings.HasPrefix(raw, bom) {
		t.bom = true
		body = len(bom)
	}
	t.hasCR = strings.IndexByte(raw[body:], '\r') >= 0
	if t.hasCR {
		t.splitAny(body)
	} else {
		t.splitLF(body)
	}
	return t
}

func (t *Text) splitLF(body int) {
	rest := t.raw[body:]
	n := strings.Count(rest, "\n")
	if len(rest) > 0 && rest[len(rest)-1] != '\n' {
		n++
	}
	t.starts = make([]int, 0, n+1)
	for pos := body; pos < len(t.raw); {
		t.starts = append(t.starts, pos)
		i := strings.IndexByte(t.raw[pos:], '\n')
		if i < 0 {
			break
		}
		pos += i + 1
	}
	t.starts = append(t.starts, len(t.raw))
	t.final = len(rest) > 0 && rest[len(rest)-1] == '\n'
	t.eol = "\n"
}

func (t *Text) splitAny(body int) {
	var lf, crlf, cr int
	raw := t.raw
	t.starts = make([]int, 0, 64)
	pos := body
	for pos < len(raw) {
		t.starts = append(t.starts, pos)
		i := pos
		for i < len(raw) && raw[i] != '\n' && raw[i] != '\r' {
			i++
		}
		switch {
		case i == len(raw):
			pos = i
		case raw[i] == '\n':
			lf++
			pos = i + 1
		case i+1 < len(raw) && raw[i+1] == '\n':
			crlf++
			pos = i + 2
		default:
			cr++
			pos = i + 1
		}
	}
	t.starts = append(t.starts, len(raw))
	t.final = len(raw) > body && (raw[len(raw)-1] == '\n' || raw[len(raw)-1] == '\r')
	// The dominant ending is the most frequent one; ties go to LF, then CRLF,
	// so the choice never depends on where in the file the endings sit.
	switch {
	case lf >= crlf && lf >= cr:
		t.eol = "\n"
	case crlf >= cr:
		t.eol = "\r\n"
	default:
		t.eol = "\r"
	}
}

// hashNormalized feeds the hash the longest runs of bytes that are already in
// normalized form, so a clean LF file is hashed in one Write.
func (t *Text) hashNormalized() Digest {
	h := sha256.New()
	raw := t.raw
	seg := t.starts[0]
	for i := 0; i+1 < len(t.starts); i++ {
		s, next := t.starts[i], t.starts[i+1]
		ce := t.contentEnd(i)
		te := ce
		for te > s && (raw[te-1] == ' ' || raw[te-1] == '\t') {
			te--
		}
		if te == ce && (next == ce || next == ce+1 && raw[ce] == '\n') {
			continue
		}
		h.Write(bytesOf(raw[seg:te]))
		if next > ce {
			h.Write(lf)
		}
		seg = next
	}
	h.Write(bytesOf(raw[seg:]))
	var d Digest
	h.Sum(d[:0])
	return d
}

var lf = []byte{'\n'}

// bytesOf views s as bytes without copying. Only for callees that read.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// contentEnd is where line i (0-based) stops, before its ending.
func (t *Text) contentEnd(i int) int {
	s, e := t.starts[i], t.starts[i+1]
	if e > s && t.raw[e-1] == '\n' {
		e--
	}
	if t.hasCR && e > s && t.raw[e-1] == '\r' {
		e--
	}
	return e
}

// Len is the number of addressable lines. An empty file has none.
func (t *Text) Len() int { return len(t.starts) - 1 }

// Line returns line n (1-based) without its ending.
func (t *Text) Line(n int) string { return t.raw[t.starts[n-1]:t.contentEnd(n-1)] }

// Lines returns lines [from, to] (1-based, inclusive) without endings.
func (t *Text) Lines(from, to int) []string {
	out := make([]string, 0, to-from+1)
	for n := from; n <= to; n++ {
		out = append(out, t.Line(n))
	}
	return out
}

// Raw returns the bytes exactly as given.
func (t *Text) Raw() string { return t.raw }

// Size is the length of the raw bytes.
func (t *Text) Size() int { return len(t.raw) }

// Tag is the 4-hex tag of the whole text (docs/contract.md §3.3).
func (t *Text) Tag() Tag { return tagOf(t.digest) }

// Digest identifies the text up to the differences docs/contract.md §3.2 sets aside.
func (t *Text) Digest() Digest { return t.digest }

// EOL is the dominant line ending, given to every line an edit adds.
func (t *Text) EOL() string { return t.eol }

// HasBOM reports whether the text starts with a UTF-8 BOM.
func (t *Text) HasBOM() bool { return t.bom }

// FinalNewline reports whether the last line has an ending.
func (t *Text) FinalNewline() bool { return t.final }

// Normalized returns the text without BOM and with LF endings; trailing
// whitespace stays. It is what the snapshot store keeps.
func (t *Text) Normalized() string {
	if !t.bom && !t.hasCR {
		return t.raw
	}
	var b strings.Builder
	b.Grow(len(t.raw))
	for i := 0; i < t.Len(); i++ {
		b.WriteString(t.raw[t.starts[i]:t.contentEnd(i)])
		if i+1 < t.Len() || t.final {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Hunk replaces the original lines [Start, End) (0-based, half-open) with
// Lines. Start == End is a pure insertion before original line Start.
type Hunk struct {
	Start, End int
	Lines      []string
}

// ByteEdit replaces Raw()[Start:End] with New.
type ByteEdit struct {
	Start, End int
	New        string
}

// Edits turns sorted, non-overlapping, non-adjacent hunks into byte edits of
// the raw text that restore everything the hunks do not name: the BOM, each
// untouched line's own bytes and ending, the dominant ending on new lines,
// and the final-newline state. A file that had no lines gains a final
// newline, as a file written from scratch would. Where keeping an ending
// would lose a line (an empty last line, a lone CR before an LF), the line
// wins.
func (t *Text) Edits(hunks []Hunk) []ByteEdit {
	n := t.Len()
	out := make([]ByteEdit, 0, len(hunks))
	for _, h := range hunks {
		e := ByteEdit{Start: t.starts[h.Start], End: t.starts[h.End]}
		tailOpen := h.End == n && n > 0 && !t.final
		switch {
		case !tailOpen:
			e.New = joinTerminated(h.Lines, t.eol)
		case len(h.Lines) == 0 && h.Start == 0:
			// Everything goes; BOM stays.
		case len(h.Lines) == 0:
			// The line before the deleted tail becomes the last one and
			// gives up its ending, so the file still ends without one;
			// an empty line cannot, or it would stop being a line.
			if ce := t.contentEnd(h.Start - 1); ce > t.starts[h.Start-1] {
				e.Start = ce
			}
		case h.Start == h.End:
			e.New = t.eol + strings.Join(h.Lines, t.eol)
		default:
			e.New = strings.Join(h.Lines, t.eol)
		}
		if tailOpen && len(h.Lines) > 0 && h.Lines[len(h.Lines)-1] == "" {
			// An empty last line exists only through its ending.
			e.New += t.eol
		}
		out = append(out, t.keepBreaks(e))
	}
	return out
}

// keepBreaks stops a lone CR ending from meeting an LF across e: the two
// would read as one CRLF and a line would vanish. The side e writes takes
// CRLF instead; a pure deletion writes nothing of its own, so there the
// empty line after it has its LF turned into CRLF.
func (t *Text) keepBreaks(e ByteEdit) ByteEdit {
	if !t.hasCR {
		return e
	}
	cr := e.Start > 0 && t.raw[e.Start-1] == '\r'
	lf := e.End < len(t.raw) && t.raw[e.End] == '\n'
	switch {
	case e.New == "":
		if cr && lf {
			e.End++
			e.New = "\r\n"
		}
	default:
		if cr && e.New[0] == '\n' {
			e.New = "\r" + e.New
		}
		if lf && e.New[len(e.New)-1] == '\r' {
			e.New += "\n"
		}
	}
	return e
}

func joinTerminated(lines []string, eol string) string {
	size := 0
	for _, l := range lines {
		size += len(l) + len(eol)
	}
	var b strings.Builder
	b.Grow(size)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteString(eol)
	}
	return b.String()
}

// Splice returns the raw text with the hunks applied (see Edits).
func (t *Text) Splice(hunks []Hunk) string {
	return ApplyEdits(t.raw, t.Edits(hunks))
}

// ApplyEdits applies sorted, non-overlapping byte edits to raw.
func ApplyEdits(raw string, edits []ByteEdit) string {
	size := len(raw)
	for _, e := range edits {
		size += len(e.New) - (e.End - e.Start)
	}
	var b strings.Builder
	b.Grow(size)
	pos := 0
	for _, e := range edits {
		b.WriteString(raw[pos:e.Start])
		b.WriteString(e.New)
		pos = e.End
	}
	b.WriteString(raw[pos:])
	return b.String()
}

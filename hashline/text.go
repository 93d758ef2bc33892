package hashline

import (
	"crypto/sha256"
	"encoding"
	"runtime"
	"strings"
	"sync/atomic"
	"unsafe"

	"hashline-ls/internal/newlines"
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
//
// The line index and the digest are computed when first needed, once, by
// whichever goroutine gets there first; a text with the bytes of one the
// session already holds takes both from it instead (Session.Read, Plan), so an
// unchanged file costs a byte compare rather than a scan and a hash.
type Text struct {
	raw    string
	index  atomic.Pointer[lines]
	digest atomic.Pointer[hashState]
	// from is the text Apply made this one of, while its digest may still
	// be resumed from where the two agree: their first same bytes. It is
	// let go once the digest is known.
	from atomic.Pointer[Text]
	same int
}

// hashState is a text's digest and, for a large clean text, the state of
// the hash at marks along it, so that a text made of it by an edit resumes
// hashing at the last mark before the edit rather than at its start.
type hashState struct {
	d     Digest
	tag   Tag // tagOf(d), made once: every read and edit asks for it
	marks []hashMark
}

// hashMark is the state of the hash after the first at bytes of a clean
// text's body (the text after its BOM).
type hashMark struct {
	at    int
	state []byte
}

// lines is where the lines of a text lie.
type lines struct {
	// starts[i] is where line i+1 begins; starts[Len()] == len(raw). Four
	// bytes each: no text is read past MaxFileBytes.
	starts []int32
	eol    string
	bom    bool
	final  bool // the last line has an ending
	hasCR  bool
	// clean is set for a text without CR whose lines carry no trailing
	// [ \t]: its normalized form is its bytes after the BOM, hashed in one
	// call.
	clean bool
}

// Digest is the SHA-256 of the text normalized for hashing: BOM dropped,
// endings as LF, trailing [ \t] cut from every line (docs/contract.md §3.2). Two texts
// with one Digest differ at most in those three respects, which is exactly
// what a reader of numbered lines cannot see.
type Digest [sha256.Size]byte

// NewText indexes and tags raw. It copies nothing.
func NewText(raw string) *Text {
	t := NewLazyText(raw)
	t.Digest()
	return t
}

// NewLazyText is the text raw, indexed and tagged only when first asked:
// the read paths build their texts so, because the session may hold the
// same bytes already.
func NewLazyText(raw string) *Text { return &Text{raw: raw} }

// x is the line index, made on first use.
func (t *Text) x() *lines {
	if x := t.index.Load(); x != nil {
		return x
	}
	x := indexLines(t.raw)
	if !t.index.CompareAndSwap(nil, x) {
		return t.index.Load()
	}
	return x
}

// indexLines finds the lines of raw.
func indexLines(raw string) *lines {
	x := &lines{}
	body := 0
	if strings.HasPrefix(raw, bom) {
		x.bom = true
		body = len(bom)
	}
	x.hasCR = strings.IndexByte(raw[body:], '\r') >= 0
	if x.hasCR {
		x.splitAny(raw, body)
	} else {
		x.splitLF(raw, body)
	}
	return x
}

// splitLF indexes a text without CR: one vectorised count sizes the index,
// and a vectorised scan for its LFs fills it.
func (x *lines) splitLF(raw string, body int) {
	rest := raw[body:]
	n := strings.Count(rest, "\n")
	x.final = len(rest) > 0 && rest[len(rest)-1] == '\n'
	if len(rest) > 0 && !x.final {
		n++
	}
	starts := make([]int32, n+1)
	starts[0] = int32(body)
	dirty := false
	// The LF ending line k is found at starts[k+1], and moved one on to
	// where line k+1 starts. The last line's end is the text's: its LF,
	// if it has one, is not looked for.
	for k, pos := 1, body; k < n; {
		m := newlines.Next(raw, pos, starts[k:n])
		if m == 0 {
			break // not reached: the count found them
		}
		for i := k; i < k+m; i++ {
			end := int(starts[i])
			dirty = dirty || end > pos && isBlank(raw[end-1])
			pos = end + 1
			starts[i] = int32(pos)
		}
		k += m
	}
	if n > 0 {
		ce := len(raw)
		if x.final {
			ce--
		}
		dirty = dirty || ce > int(starts[n-1]) && isBlank(raw[ce-1])
	}
	starts[n] = int32(len(raw))
	x.starts, x.eol, x.clean = starts, "\n", !dirty
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func (x *lines) splitAny(raw string, body int) {
	var lf, crlf, cr int
	x.starts = make([]int32, 0, 64)
	pos := body
	for pos < len(raw) {
		x.starts = append(x.starts, int32(pos))
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
	x.starts = append(x.starts, int32(len(raw)))
	x.final = len(raw) > body && (raw[len(raw)-1] == '\n' || raw[len(raw)-1] == '\r')
	// The dominant ending is the most frequent one; ties go to LF, then CRLF,
	// so the choice never depends on where in the file the endings sit.
	switch {
	case lf >= crlf && lf >= cr:
		x.eol = "\n"
	case crlf >= cr:
		x.eol = "\r\n"
	default:
		x.eol = "\r"
	}
}

// hashNormalized feeds the hash the longest runs of bytes that are already in
// normalized form, so a clean LF file is hashed in one Write.
func (t *Text) hashNormalized() *hashState {
	raw, x := t.raw, t.x()
	from := t.from.Swap(nil)
	if x.clean {
		return hashClean(raw[x.at(0):], from, t.same-x.at(0))
	}
	h := sha256.New()
	seg := x.at(0)
	for i := 0; i+1 < len(x.starts); i++ {
		s, next := x.at(i), x.at(i+1)
		ce := x.contentEnd(raw, i)
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
	st := &hashState{}
	h.Sum(st.d[:0])
	return st
}

// aheadMin is the smallest body hashed while another processor finds its
// lines: below it, waking that processor and waiting for it cost more than
// the overlap saves.
const aheadMin = 64 << 10

// aheadable is whether t's body, from body on, is worth hashing beside
// another pass over it.
func (t *Text) aheadable(body int) bool {
	return len(t.raw)-body >= aheadMin && t.digest.Load() == nil && runtime.GOMAXPROCS(0) > 1
}

// hashBeside hashes t's body as a clean text's while another processor
// finds its lines, and so whether it is clean: the two passes over a fresh
// text then take the time of the longer one, the hash, which stays on this
// processor so that waking the other one costs nothing on the way. It
// installs the digest and reports true when t is clean; otherwise the
// hashing stops as soon as the lines are found, since its result would be
// wrong. It does nothing, and reports false, for a small or hashed text or
// with one processor.
func (t *Text) hashBeside() bool {
	body := bodyStart(t.raw)
	if !t.aheadable(body) {
		return false
	}
	var stop atomic.Bool
	found := make(chan bool, 1)
	go func() {
		clean := t.x().clean
		stop.Store(!clean)
		found <- clean
	}()
	from := t.from.Load()
	st := hashCleanUnless(&stop, t.raw[body:], from, t.same-body)
	if !<-found {
		return false
	}
	t.install(st, from)
	return true
}

// install gives t st, the digest of its body hashed from from's marks.
func (t *Text) install(st *hashState, from *Text) {
	st.tag = tagOf(st.d)
	t.from.CompareAndSwap(from, nil)
	t.digest.CompareAndSwap(nil, st)
}

// bodyStart is where raw's body begins: after its BOM, if any.
func bodyStart(raw string) int {
	if strings.HasPrefix(raw, bom) {
		return len(bom)
	}
	return 0
}

// markMin is the least distance between two marks: hashing it takes some
// fifty times as long as taking a mark.
const markMin = 4 << 10

// markEvery is how far apart the marks of a text of size bytes are: none
// below twice markMin, so that an edit of a small file resumes its digest
// too; 32 up to 2 MiB, where they cost a fresh hash about 1%; 64 KiB apart
// above, so that a keystroke in a large buffer hashes little more than
// what follows it.
func markEvery(size int) int { return min(max(markMin, size/32), markMax) }

// markMax is the greatest distance between two marks.
const markMax = 64 << 10

// hashClean hashes body, a clean text's: resumed, when from is the text it
// was made of and shares its first same bytes, at from's last mark within
// them.
func hashClean(body string, from *Text, same int) *hashState {
	return hashCleanUnless(nil, body, from, same)
}

// hashCleanUnless is hashClean, given up between two marks once stop is
// set (stop may be nil).
func hashCleanUnless(stop *atomic.Bool, body string, from *Text, same int) *hashState {
	st := &hashState{}
	if len(body) < 2*markMin {
		st.d = sha256.Sum256(bytesOf(body))
		return st
	}
	h := sha256.New()
	pos := 0
	if fs := from.hashState(); fs != nil {
		for k := len(fs.marks) - 1; k >= 0; k-- {
			if m := fs.marks[k]; m.at <= same && h.(encoding.BinaryUnmarshaler).UnmarshalBinary(m.state) == nil {
				st.marks, pos = fs.marks[:k+1:k+1], m.at
				break
			}
		}
	}
	every := markEvery(len(body))
	// The states of the marks share one allocation, sized at the first.
	var slab []byte
	for {
		next := (pos/every + 1) * every
		if next >= len(body) {
			h.Write(bytesOf(body[pos:]))
			break
		}
		h.Write(bytesOf(body[pos:next]))
		if stop != nil && stop.Load() {
			return st
		}
		at := len(slab)
		slab, _ = h.(encoding.BinaryAppender).AppendBinary(slab)
		if at == 0 {
			slab = append(make([]byte, 0, ((len(body)-pos)/every+1)*len(slab)), slab...)
		}
		st.marks, pos = append(st.marks, hashMark{next, slab[at:len(slab):len(slab)]}), next
	}
	h.Sum(st.d[:0])
	return st
}

// hashState is t's digest and marks, if t has been hashed (t may be nil).
func (t *Text) hashState() *hashState {
	if t == nil {
		return nil
	}
	return t.digest.Load()
}

var lf = []byte{'\n'}

// bytesOf views s as bytes without copying. Only for callees that read.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// at is where line i+1 begins.
func (x *lines) at(i int) int { return int(x.starts[i]) }

// contentEnd is where line i (0-based) of raw stops, before its ending.
func (x *lines) contentEnd(raw string, i int) int {
	s, e := x.at(i), x.at(i+1)
	if e > s && raw[e-1] == '\n' {
		e--
	}
	if x.hasCR && e > s && raw[e-1] == '\r' {
		e--
	}
	return e
}

func (t *Text) contentEnd(i int) int { return t.x().contentEnd(t.raw, i) }

// Len is the number of addressable lines. An empty file has none.
func (t *Text) Len() int { return len(t.x().starts) - 1 }

// Line returns line n (1-based) without its ending.
func (t *Text) Line(n int) string {
	x := t.x()
	return t.raw[x.at(n-1):x.contentEnd(t.raw, n-1)]
}

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
func (t *Text) Tag() Tag {
	t.Digest()
	return t.digest.Load().tag
}

// Digest identifies the text up to the differences docs/contract.md §3.2 sets aside.
func (t *Text) Digest() Digest {
	if st := t.digest.Load(); st != nil {
		return st.d
	}
	if t.index.Load() == nil && t.hashBeside() {
		return t.digest.Load().d
	}
	st := t.hashNormalized()
	st.tag = tagOf(st.d)
	t.digest.CompareAndSwap(nil, st)
	return st.d
}

// knowDigest gives t its digest, proven by the caller to be the one its
// bytes hash to.
func (t *Text) knowDigest(d Digest) {
	if t.digest.Load() == nil {
		t.digest.CompareAndSwap(nil, &hashState{d: d, tag: tagOf(d)})
	}
}

// Hashed reports whether t's digest is known, computed or given.
func (t *Text) Hashed() bool { return t.digest.Load() != nil }

// takeFrom gives t, which holds the same bytes as u, what u has computed:
// its line index and its digest.
func (t *Text) takeFrom(u *Text) {
	if x := u.index.Load(); x != nil {
		t.index.CompareAndSwap(nil, x)
	}
	if d := u.digest.Load(); d != nil {
		t.digest.CompareAndSwap(nil, d)
	}
}

// EOL is the dominant line ending, given to every line an edit adds.
func (t *Text) EOL() string { return t.x().eol }

// HasBOM reports whether the text starts with a UTF-8 BOM.
func (t *Text) HasBOM() bool { return strings.HasPrefix(t.raw, bom) }

// FinalNewline reports whether the last line has an ending.
func (t *Text) FinalNewline() bool { return t.x().final }

// Normalized returns the text without BOM and with LF endings; trailing
// whitespace stays. It is what the snapshot store keeps.
func (t *Text) Normalized() string {
	x := t.x()
	if !x.bom && !x.hasCR {
		return t.raw
	}
	var b strings.Builder
	b.Grow(len(t.raw))
	for i := 0; i < t.Len(); i++ {
		b.WriteString(t.raw[x.at(i):x.contentEnd(t.raw, i)])
		if i+1 < t.Len() || x.final {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// normalizedIs reports whether t.Normalized() == s, without building it.
func (t *Text) normalizedIs(s string) bool {
	x := t.x()
	if !x.bom && !x.hasCR {
		return t.raw == s
	}
	pos, n := 0, t.Len()
	for i := 0; i < n; i++ {
		line := t.raw[x.at(i):x.contentEnd(t.raw, i)]
		if len(s)-pos < len(line) || s[pos:pos+len(line)] != line {
			return false
		}
		pos += len(line)
		if i+1 < n || x.final {
			if pos == len(s) || s[pos] != '\n' {
				return false
			}
			pos++
		}
	}
	return pos == len(s)
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
	x := t.x()
	n := t.Len()
	out := make([]ByteEdit, 0, len(hunks))
	for _, h := range hunks {
		e := ByteEdit{Start: x.at(h.Start), End: x.at(h.End)}
		tailOpen := h.End == n && n > 0 && !x.final
		switch {
		case !tailOpen:
			e.New = joinTerminated(h.Lines, x.eol)
		case len(h.Lines) == 0 && h.Start == 0:
			// Everything goes; BOM stays.
		case len(h.Lines) == 0:
			// The line before the deleted tail becomes the last one and
			// gives up its ending, so the file still ends without one;
			// an empty line cannot, or it would stop being a line.
			if ce := t.contentEnd(h.Start - 1); ce > x.at(h.Start-1) {
				e.Start = ce
			}
		case h.Start == h.End:
			e.New = x.eol + strings.Join(h.Lines, x.eol)
		default:
			e.New = strings.Join(h.Lines, x.eol)
		}
		if tailOpen && len(h.Lines) > 0 && h.Lines[len(h.Lines)-1] == "" {
			// An empty last line exists only through its ending.
			e.New += x.eol
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
	if !t.x().hasCR {
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

// Apply returns the text edits, sorted and apart, make of t: its bytes
// assembled in one allocation, and, where neither t nor the edits hold a
// CR, its index made from t's and the edits' own lines rather than by a
// scan of the whole.
func (t *Text) Apply(edits []ByteEdit) *Text {
	return t.derive(ApplyEdits(t.raw, edits), edits)
}

// Derive is raw, said to be t's bytes with edits (sorted, apart) applied,
// as a Text indexed and hashed as Apply's is, from what t has computed.
// What it is said is checked, by a compare: else raw is a text of its own,
// indexed and hashed from scratch.
func (t *Text) Derive(raw string, edits []ByteEdit) *Text {
	if len(edits) == 0 || !appliedIs(t.raw, edits, raw) {
		return NewLazyText(raw)
	}
	return t.derive(raw, edits)
}

// appliedIs reports whether raw is old with edits applied.
func appliedIs(old string, edits []ByteEdit, raw string) bool {
	pos, at := 0, 0
	for _, e := range edits {
		keep := e.Start - pos
		if at+keep+len(e.New) > len(raw) || raw[at:at+keep] != old[pos:e.Start] || raw[at+keep:at+keep+len(e.New)] != e.New {
			return false
		}
		at, pos = at+keep+len(e.New), e.End
	}
	return raw[at:] == old[pos:]
}

// derive is Derive of edits known to be right.
func (t *Text) derive(raw string, edits []ByteEdit) *Text {
	out := NewLazyText(raw)
	x := t.x()
	if x.hasCR {
		return out
	}
	for _, e := range edits {
		if strings.IndexByte(e.New, '\r') >= 0 {
			return out
		}
	}
	y := x.shifted(raw, edits)
	y.clean = x.clean
	for _, e := range edits {
		y.clean = y.clean && cleanAround(t.raw, e)
	}
	out.index.Store(y)
	if st := t.digest.Load(); y.clean && st != nil && len(st.marks) > 0 && len(edits) > 0 {
		out.from.Store(t)
		out.same = edits[0].Start
	}
	return out
}

// cleanAround reports whether edit e of old, an LF text with no trailing
// [ \t] on any line, leaves none either: no blank right before an LF it
// writes or keeps beside it, or at the end of the text.
func cleanAround(old string, e ByteEdit) bool {
	var prev byte
	if e.Start > 0 {
		prev = old[e.Start-1]
	}
	for i := 0; i < len(e.New); i++ {
		if e.New[i] == '\n' && isBlank(prev) {
			return false
		}
		prev = e.New[i]
	}
	if e.End < len(old) {
		return old[e.End] != '\n' || !isBlank(prev)
	}
	return !isBlank(prev)
}

// shifted is the index of raw, an LF text made of x's text by edits: the
// starts before and after each edit are x's, moved by what the edits
// before changed in length, and within it they are looked for in raw. Whether
// a line starts at o depends only on the byte before o, and on o being short
// of the end.
func (x *lines) shifted(raw string, edits []ByteEdit) *lines {
	body := x.at(0)
	out := &lines{eol: "\n", bom: x.bom, final: len(raw) > body && raw[len(raw)-1] == '\n'}
	old := x.starts[:len(x.starts)-1]
	room := len(x.starts) + 1
	for _, e := range edits {
		room += strings.Count(e.New, "\n") + 1
	}
	starts := make([]int32, 0, room)
	add := func(o int) {
		if o < len(raw) && (o == body || raw[o-1] == '\n') && (len(starts) == 0 || int(starts[len(starts)-1]) < o) {
			starts = append(starts, int32(o))
		}
	}
	oi, delta := 0, 0
	for _, e := range edits {
		from := oi
		for oi < len(old) && int(old[oi]) < e.Start {
			oi++
		}
		starts = appendShifted(starts, old[from:oi], delta)
		for oi < len(old) && int(old[oi]) <= e.End {
			oi++
		}
		at := e.Start + delta
		add(at)
		for i := 0; ; {
			j := strings.IndexByte(e.New[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			add(at + i)
		}
		add(at + len(e.New))
		delta += len(e.New) - (e.End - e.Start)
	}
	starts = appendShifted(starts, old[oi:], delta)
	out.starts = append(starts, int32(len(raw)))
	return out
}

// appendShifted appends the starts, each moved by delta.
func appendShifted(dst, starts []int32, delta int) []int32 {
	n := len(dst)
	dst = append(dst, starts...)
	if delta != 0 {
		moved := dst[n:]
		for i := range moved {
			moved[i] += int32(delta)
		}
	}
	return dst
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

package hashline_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

func lineSet(ranges ...[2]int) *hashline.LineSet {
	s := &hashline.LineSet{}
	for _, r := range ranges {
		s.AddRange(r[0], r[1])
	}
	return s
}

// sized returns an LF text whose normalized length is exactly n bytes.
func sized(n int, fill byte) string {
	if n == 0 {
		return ""
	}
	return strings.Repeat(string(fill), n-1) + "\n"
}

// collidingTexts finds two different texts with one tag. About 300 tries are
// expected (the birthday bound of 65,536 values); the cap only stops a
// broken tag function from looping forever.
func collidingTexts(t *testing.T) (string, string) {
	t.Helper()
	seen := map[hashline.Tag]string{}
	for i := 0; i < 1<<17; i++ {
		raw := fmt.Sprintf("x%d\n", i)
		tag := hashline.TagOf(raw)
		if prev, ok := seen[tag]; ok {
			return prev, raw
		}
		seen[tag] = raw
	}
	t.Fatal("no two texts of the form x<N> share a tag in 131072 tries")
	return "", ""
}

func TestStoreReadFusion(t *testing.T) {
	t.Parallel()
	s := hashline.NewSession()
	tx := hashline.NewText("1\n2\n3\n4\n5\n6\n")
	first := s.Read("p", "p", tx, 1, 2)
	second := s.Read("p", "p", tx, 4, 2)
	if first.Seen.String() != "1-2" || second.Seen.String() != "4-5" {
		t.Fatalf("window seen = %q and %q, want 1-2 and 4-5", first.Seen, second.Seen)
	}
	snaps := s.Snapshots("p")
	if len(snaps) != 1 {
		t.Fatalf("two reads of one text made %d snapshots, want 1", len(snaps))
	}
	if got := snaps[0].Seen.String(); got != "1-2,4-5" {
		t.Fatalf("fused Seen = %q, want %q", got, "1-2,4-5")
	}
	s.Read("p", "p", tx, 3, 1)
	if got := s.Snapshots("p")[0].Seen.String(); got != "1-5" {
		t.Fatalf("Seen after reading line 3 = %q, want %q", got, "1-5")
	}
	if snaps[0].Tag != tx.Tag() || snaps[0].Text != tx.Normalized() || snaps[0].Lines != 6 || !snaps[0].Retained {
		t.Fatalf("snapshot = {Tag %s Text %q Lines %d Retained %v}, want {%s %q 6 true}",
			snaps[0].Tag, snaps[0].Text, snaps[0].Lines, snaps[0].Retained, tx.Tag(), tx.Normalized())
	}
}

func TestStoreCollisionKeepsTwoSnapshots(t *testing.T) {
	t.Parallel()
	a, b := collidingTexts(t)
	ta, tb := hashline.NewText(a), hashline.NewText(b)
	if ta.Tag() != tb.Tag() || a == b {
		t.Fatalf("collidingTexts returned %q (%s) and %q (%s)", a, ta.Tag(), b, tb.Tag())
	}
	st := hashline.NewStore()
	sa := st.Record("p", ta, lineSet([2]int{1, 1}))
	sb := st.Record("p", tb, &hashline.LineSet{})
	if sa == sb {
		t.Fatal("two texts sharing a tag were fused into one snapshot")
	}
	got := st.Lookup("p", ta.Tag())
	if len(got) != 2 || got[0].Text != b || got[1].Text != a {
		t.Fatalf("Lookup = %d snapshots, want [%q, %q] newest first", len(got), b, a)
	}
	// The seen lines of one text must never leak onto the other (docs/contract.md §3.4).
	if got[0].Seen.Len() != 0 || got[1].Seen.String() != "1" {
		t.Fatalf("Seen = %q and %q, want \"\" and \"1\"", got[0].Seen, got[1].Seen)
	}
	// Recording a again promotes it: lookup returns the most recent first.
	st.Record("p", ta, nil)
	got = st.Lookup("p", ta.Tag())
	if len(got) != 2 || got[0].Text != a || got[1].Text != b {
		t.Fatalf("after re-recording %q, Lookup = %q, %q; want it first", a, got[0].Text, got[1].Text)
	}
	if st.Bytes() != len(a)+len(b) {
		t.Fatalf("Bytes() = %d, want %d", st.Bytes(), len(a)+len(b))
	}
}

// Trailing whitespace is what a trimmed display hides, so it does not make a
// new version; the snapshot keeps the bytes the file holds now.
func TestStoreTrailingWhitespaceIsOneVersion(t *testing.T) {
	t.Parallel()
	st := hashline.NewStore()
	st.Record("p", hashline.NewText("a\nb\n"), lineSet([2]int{1, 1}))
	snap := st.Record("p", hashline.NewText("a  \r\nb\t\r\n"), lineSet([2]int{2, 2}))
	vs := st.Versions("p")
	if len(vs) != 1 || vs[0] != snap {
		t.Fatalf("Versions = %d, want the one snapshot", len(vs))
	}
	if snap.Text != "a  \nb\t\n" || snap.Seen.String() != "1-2" {
		t.Fatalf("snapshot Text %q Seen %q, want %q and 1-2", snap.Text, snap.Seen, "a  \nb\t\n")
	}
	if st.Bytes() != len("a  \nb\t\n") {
		t.Fatalf("Bytes() = %d, want %d", st.Bytes(), len("a  \nb\t\n"))
	}
}

func TestStorePathBound(t *testing.T) {
	t.Parallel()
	st := hashline.NewStore()
	path := func(i int) string { return fmt.Sprintf("p%02d", i) }
	for i := 0; i < hashline.MaxPathsPerSession; i++ {
		st.Record(path(i), hashline.NewText(fmt.Sprintf("%d\n", i)), nil)
	}
	if st.Len() != 64 {
		t.Fatalf("Len() at the limit = %d, want 64", st.Len())
	}
	// p00 is the oldest, but touched again it becomes the warmest; p01 is
	// then the coldest and goes first.
	st.Record(path(0), hashline.NewText("0\n"), nil)
	st.Record(path(64), hashline.NewText("64\n"), nil)
	if st.Len() != 64 {
		t.Fatalf("Len() past the limit = %d, want 64", st.Len())
	}
	for _, c := range []struct {
		p    string
		want bool
	}{{path(0), true}, {path(1), false}, {path(2), true}, {path(64), true}} {
		if st.Has(c.p) != c.want {
			t.Errorf("Has(%s) = %v, want %v", c.p, st.Has(c.p), c.want)
		}
	}
	want := 0
	for i := 0; i <= 64; i++ {
		if i != 1 {
			want += len(fmt.Sprintf("%d\n", i))
		}
	}
	if st.Bytes() != want {
		t.Fatalf("Bytes() = %d, want %d", st.Bytes(), want)
	}
}

func TestStoreVersionBound(t *testing.T) {
	t.Parallel()
	st := hashline.NewStore()
	n := hashline.MaxVersionsPerPath
	for i := 1; i <= n; i++ {
		st.Record("p", hashline.NewText(fmt.Sprintf("v%d\n", i)), nil)
	}
	if got := len(st.Versions("p")); got != n {
		t.Fatalf("versions at the limit = %d, want %d", got, n)
	}
	st.Record("p", hashline.NewText(fmt.Sprintf("v%d\n", n+1)), nil)
	vs := st.Versions("p")
	if len(vs) != n || vs[0].Text != fmt.Sprintf("v%d\n", n+1) || vs[n-1].Text != "v2\n" {
		t.Fatalf("versions = %d, newest %q, oldest %q: want %d, v%d, v2", len(vs), vs[0].Text, vs[len(vs)-1].Text, n, n+1)
	}
	if st.Lookup("p", hashline.TagOf("v1\n")) != nil || !st.AgedOut("p", hashline.TagOf("v1\n")) {
		t.Fatal("the oldest version is still found by its tag, or not known as aged out")
	}
}

// Large versions are kept by bytes, but never fewer than the minimum.
func TestStorePathTextBound(t *testing.T) {
	t.Parallel()
	st := hashline.NewStore()
	size := hashline.MaxPathTextBytes / (hashline.MinVersionsPerPath + 2)
	for i := 0; i < hashline.MinVersionsPerPath+6; i++ {
		st.Record("p", hashline.NewText(sized(size, byte('a'+i))), nil)
	}
	want := hashline.MinVersionsPerPath + 2
	if got := len(st.Versions("p")); got != want || st.Bytes() != want*size {
		t.Fatalf("versions = %d, bytes %d: want %d of %d bytes", got, st.Bytes(), want, size)
	}
	big := hashline.NewStore()
	for i := 0; i < hashline.MinVersionsPerPath+2; i++ {
		big.Record("p", hashline.NewText(sized(hashline.MaxPathTextBytes/2, byte('a'+i))), nil)
	}
	if got := len(big.Versions("p")); got != hashline.MinVersionsPerPath {
		t.Fatalf("versions of large texts = %d, want the minimum %d", got, hashline.MinVersionsPerPath)
	}
}

func TestStoreSessionTextBound(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	big := func(fill byte) *hashline.Text { return hashline.NewText(sized(2*mib, fill)) }

	t.Run("at the limit everything is kept", func(t *testing.T) {
		t.Parallel()
		st := hashline.NewStore()
		for i, c := range "abcd" {
			st.Record(fmt.Sprint(i), big(byte(c)), nil)
		}
		if st.Bytes() != 8*mib || st.Len() != 4 {
			t.Fatalf("Bytes() = %d Len() = %d, want %d and 4", st.Bytes(), st.Len(), 8*mib)
		}
	})
	t.Run("one byte over evicts the coldest path", func(t *testing.T) {
		t.Parallel()
		st := hashline.NewStore()
		for i, c := range "abcd" {
			st.Record(fmt.Sprint(i), big(byte(c)), nil)
		}
		st.Record("small", hashline.NewText("x"), nil)
		if st.Has("0") || !st.Has("1") || !st.Has("small") {
			t.Fatalf("Has(0)=%v Has(1)=%v Has(small)=%v, want false true true", st.Has("0"), st.Has("1"), st.Has("small"))
		}
		if st.Bytes() != 6*mib+1 {
			t.Fatalf("Bytes() = %d, want %d", st.Bytes(), 6*mib+1)
		}
	})
	t.Run("a recently touched path survives", func(t *testing.T) {
		t.Parallel()
		st := hashline.NewStore()
		for i, c := range "abcd" {
			st.Record(fmt.Sprint(i), big(byte(c)), nil)
		}
		st.Record("0", big('a'), lineSet([2]int{1, 1}))
		st.Record("4", big('e'), nil)
		if !st.Has("0") || st.Has("1") || !st.Has("4") {
			t.Fatalf("Has(0)=%v Has(1)=%v Has(4)=%v, want true false true", st.Has("0"), st.Has("1"), st.Has("4"))
		}
		if st.Bytes() != 8*mib {
			t.Fatalf("Bytes() = %d, want %d", st.Bytes(), 8*mib)
		}
	})
	t.Run("eviction goes on until under", func(t *testing.T) {
		t.Parallel()
		st := hashline.NewStore()
		for i := 0; i < 8; i++ {
			st.Record(fmt.Sprint(i), hashline.NewText(sized(mib, byte('a'+i))), nil)
		}
		if st.Bytes() != 8*mib {
			t.Fatalf("Bytes() before = %d, want %d", st.Bytes(), 8*mib)
		}
		st.Record("new", big('z'), nil)
		if st.Has("0") || st.Has("1") || !st.Has("2") || !st.Has("new") {
			t.Fatalf("Has(0)=%v Has(1)=%v Has(2)=%v Has(new)=%v, want false false true true",
				st.Has("0"), st.Has("1"), st.Has("2"), st.Has("new"))
		}
		if st.Bytes() != 8*mib || st.Len() != 7 {
			t.Fatalf("Bytes() = %d Len() = %d, want %d and 7", st.Bytes(), st.Len(), 8*mib)
		}
	})
	t.Run("Forget and version drops give their bytes back", func(t *testing.T) {
		t.Parallel()
		st := hashline.NewStore()
		st.Record("a", hashline.NewText("12345\n"), nil)
		st.Record("b", hashline.NewText("1\n"), nil)
		st.Record("b", hashline.NewText("22\n"), nil)
		if st.Bytes() != 6+2+3 {
			t.Fatalf("Bytes() = %d, want 11", st.Bytes())
		}
		st.Forget("a")
		st.Forget("missing")
		if st.Bytes() != 5 || st.Len() != 1 {
			t.Fatalf("after Forget: Bytes() = %d Len() = %d, want 5 and 1", st.Bytes(), st.Len())
		}
	})
}

func TestStoreSingleFileBound(t *testing.T) {
	t.Parallel()
	const limit = hashline.MaxRetainedFileBytes
	cases := []struct {
		name     string
		raw      string
		retained bool
	}{
		{"at the limit", sized(limit, 'a'), true},
		{"one byte over", sized(limit+1, 'a'), false},
		// The bound is on the normalized text, which is what is kept: CRLF
		// endings that normalize away do not count.
		{"CRLF file whose normalized text is at the limit", strings.Repeat("a\r\n", limit/2), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := hashline.NewStore()
			tx := hashline.NewText(c.raw)
			snap := st.Record("p", tx, lineSet([2]int{1, 3}))
			if snap.Retained != c.retained {
				t.Fatalf("Retained = %v, want %v", snap.Retained, c.retained)
			}
			wantText, wantBytes := "", 0
			if c.retained {
				wantText, wantBytes = tx.Normalized(), len(tx.Normalized())
			}
			if snap.Text != wantText || st.Bytes() != wantBytes {
				t.Fatalf("len(Text) = %d Bytes() = %d, want %d and %d", len(snap.Text), st.Bytes(), len(wantText), wantBytes)
			}
			if snap.Tag != tx.Tag() || snap.Digest != tx.Digest() || snap.Lines != tx.Len() || snap.Seen.String() != "1-3" {
				t.Fatalf("snapshot Tag %s Lines %d Seen %q, want %s, %d, 1-3 and the text's digest",
					snap.Tag, snap.Lines, snap.Seen, tx.Tag(), tx.Len())
			}
		})
	}
}

// A file too large to retain still gets version and provenance checks.
func TestUnretainedFileKeepsProvenance(t *testing.T) {
	t.Parallel()
	raw := "head\n" + sized(hashline.MaxRetainedFileBytes, 'z')
	live := hashline.NewText(raw)
	s := hashline.NewSession()
	s.Record("big", live, lineSet([2]int{1, 1}))
	if s.Snapshots("big")[0].Retained {
		t.Fatal("fixture: the file was retained")
	}
	p, err := s.Plan(hashline.EditRequest{Path: "big", Display: "big", Tag: string(live.Tag()), Ops: "PUT 1.=1:\n+HEAD"}, live)
	if err != nil {
		t.Fatalf("edit of a seen line: %v", err)
	}
	if !strings.HasPrefix(p.New.Raw(), "HEAD\nzzz") || p.New.Size() != live.Size() {
		t.Fatalf("new text starts %q (size %d), want HEAD\\nzzz… (size %d)", p.New.Raw()[:8], p.New.Size(), live.Size())
	}
	_, err = s.Plan(hashline.EditRequest{Path: "big", Display: "big", Tag: string(live.Tag()), Ops: "PUT >2:\n+tail"}, live)
	he := wantCode(t, err, hashline.CodeLinesUnseen)
	if fmt.Sprint(he.Details.Lines) != "[2]" || he.Details.Merged {
		t.Fatalf("Details.Lines = %v Merged = %v, want [2] and false (line 2 is too wide to reveal)", he.Details.Lines, he.Details.Merged)
	}
}

// nil and empty seen sets mean different things (docs/contract.md §5.3): no record at all
// degrades to a version check, while a record that displayed nothing
// refuses every anchor.
func TestSeenNilVersusEmpty(t *testing.T) {
	t.Parallel()
	const raw = "a\nb\nc\n"
	ops := "PUT 1.=1:\n+A\nPUT 3.=3:\n+C"
	t.Run("tag never recorded, caller remembers nothing: version check only", func(t *testing.T) {
		t.Parallel()
		s := hashline.NewSession()
		live := hashline.NewText(raw)
		p, err := s.Plan(hashline.EditRequest{Path: "p", Display: "p", Tag: string(live.Tag()), Ops: ops, Stateless: true}, live)
		wantNew(t, p, err, "A\nb\nC\n")
	})
	// A session must read before it edits (docs/contract.md §12.2): a tag it never recorded
	// is unknown, even when it names the live text. The refusal shows the
	// lines around the anchors, so the same call then succeeds.
	t.Run("tag never recorded by this session: unknown, then the retry applies", func(t *testing.T) {
		t.Parallel()
		s := hashline.NewSession()
		live := hashline.NewText(raw)
		req := hashline.EditRequest{Path: "p", Display: "p", Tag: string(live.Tag()), Ops: ops}
		_, err := s.Plan(req, live)
		he := wantCode(t, err, hashline.CodeTagUnknown)
		if he.Details.LiveTag != string(live.Tag()) || !strings.Contains(he.Details.Content, "1:a\n") {
			t.Fatalf("details = %+v", he.Details)
		}
		p, err := s.Plan(req, live)
		if err != nil || p.New.Raw() != "A\nb\nC\n" {
			t.Fatalf("retry: %v %v", p, err)
		}
	})
	// A tag the bounds pushed out degrades to a version check (docs/contract.md §6.5).
	t.Run("aged-out tag: version check only", func(t *testing.T) {
		t.Parallel()
		s := hashline.NewSession()
		live := hashline.NewText(raw)
		s.Record("p", live, &hashline.LineSet{})
		for i := 0; i < hashline.MaxPathsPerSession; i++ {
			s.Record(fmt.Sprintf("other%d", i), hashline.NewText("x\n"), nil)
		}
		if len(s.Snapshots("p")) != 0 {
			t.Fatal("p was not evicted")
		}
		p, err := s.Plan(hashline.EditRequest{Path: "p", Display: "p", Tag: string(live.Tag()), Ops: ops}, live)
		if err != nil || p.New.Raw() != "A\nb\nC\n" {
			t.Fatalf("aged-out tag: %v %v", p, err)
		}
	})
	for _, c := range []struct {
		name string
		seen *hashline.LineSet
	}{{"grep showed nothing (empty set)", &hashline.LineSet{}}, {"recorded with nil seen", nil}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := hashline.NewSession()
			live := hashline.NewText(raw)
			s.Record("p", live, c.seen)
			_, err := s.Plan(hashline.EditRequest{Path: "p", Display: "p", Tag: string(live.Tag()), Ops: ops}, live)
			he := wantCode(t, err, hashline.CodeLinesUnseen)
			if fmt.Sprint(he.Details.Lines) != "[1 3]" {
				t.Fatalf("Details.Lines = %v, want [1 3]", he.Details.Lines)
			}
			// Head and tail gaps anchor on no line, so they need nothing seen.
			p, err := s.Plan(hashline.EditRequest{Path: "p", Display: "p", Tag: string(live.Tag()), Ops: "PUT <1:\n+top\nPUT >$:\n+end"}, live)
			wantNew(t, p, err, "top\na\nb\nc\nend\n")
		})
	}
}

// wantNew asserts that the plan p, err succeeded with the new text want.
func wantNew(t *testing.T, p *hashline.Plan, err error, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if p.New.Raw() != want {
		t.Fatalf("new text %q, want %q", p.New.Raw(), want)
	}
}

// wantCode asserts that err is an *Error of code and returns it.
func wantCode(t *testing.T, err error, code hashline.Code) *hashline.Error {
	t.Helper()
	var he *hashline.Error
	if !errors.As(err, &he) {
		t.Fatalf("error = %v, want an *Error with code %s", err, code)
	}
	if he.Code != code {
		t.Fatalf("code = %s (%s), want %s", he.Code, he.Message, code)
	}
	return he
}

// A person typing makes every read a new version; a read from before a
// burst of them still places an edit of lines the typing left alone, and
// one pushed out of the store is called too old.
func TestReadOutlivesTypingBurst(t *testing.T) {
	t.Parallel()
	s := hashline.NewSession()
	text := "a = 1\nb = 2\nc = 3\n"
	first := hashline.NewText(text)
	s.Read("f", "f", first, 1, first.Len()+1)
	for i := 0; i < hashline.MaxVersionsPerPath-1; i++ {
		text += fmt.Sprintf("typed %d\n", i)
		now := hashline.NewText(text)
		s.Read("f", "f", now, 1, now.Len()+1)
	}
	live := hashline.NewText("x\n" + text)
	req := hashline.EditRequest{Path: "f", Display: "f", Names: []string{"f"}, Tag: string(first.Tag()), Ops: "PUT 2.=2:\n+b = 20"}
	p, err := s.Plan(req, live)
	if err != nil || !strings.Contains(p.New.Raw(), "\nb = 20\n") {
		t.Fatalf("plan with the first read's tag after %d more reads: %v", hashline.MaxVersionsPerPath-1, err)
	}
	// One more version pushes the first read out.
	more := hashline.NewText(text + "one more\n")
	s.Read("f", "f", more, 1, more.Len()+1)
	_, err = s.Plan(req, live)
	if he := hashline.AsError(err); he == nil || he.Code != hashline.CodeTagUnknown || !strings.Contains(he.Message, "is too old") {
		t.Fatalf("plan with a read pushed out: %v, want EDIT_TAG_UNKNOWN saying the read is too old", err)
	}
}

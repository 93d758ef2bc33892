package hashline_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// rowsOf renders lines lo..hi of raw the way a reveal shows them.
func rowsOf(tx *hashline.Text, display string, lo, hi int) string {
	var b strings.Builder
	b.WriteString(hashline.Header(display, tx.Tag()) + "\n")
	for n := lo; n <= hi; n++ {
		fmt.Fprintf(&b, "%d:%s\n", n, tx.Line(n))
	}
	return b.String()
}

// otherTag returns a well-formed tag that is not tag.
func otherTag(tag hashline.Tag) string {
	if tag == "0000" {
		return "FFFF"
	}
	return "0000"
}

func TestBranchADirect(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.txt", "a\nb\nc\n")
	p := f.mustPlan("PUT 2.=2:\n+B")
	if p.New.Raw() != "a\nB\nc\n" || len(p.Warnings) != 0 || p.Summary != "PUT 2.=2:" || p.Path != "f.txt" {
		t.Fatalf("plan: new %q warnings %v summary %q path %q", p.New.Raw(), p.Warnings, p.Summary, p.Path)
	}
	// A lowercase tag names the same version.
	if _, err := f.s.Plan(f.req(strings.ToLower(string(f.live.Tag())), "PUT 2.=2:\n+B"), f.live); err != nil {
		t.Fatalf("lowercase tag: %v", err)
	}
	// Trailing whitespace changed outside the session keeps the tag by
	// design (docs/contract.md §3.2) and moves no line: the edit applies, and the untouched
	// line keeps the whitespace the file has now.
	f.change("a  \nb\nc\t\n")
	p, err := f.s.Plan(f.req(string(hashline.TagOf("a\nb\nc\n")), "PUT 2.=2:\n+B"), f.live)
	wantNew(t, p, err, "a  \nB\nc\t\n")
}

func TestProvenanceGate(t *testing.T) {
	t.Parallel()
	const msgMerged = "line(s) %s were never shown to you; their content is below and now counts as shown: check that your ops fit it, then send the same call again"
	long := func(n int, r string) string { return strings.Repeat(r, n) }
	cases := []struct {
		name      string
		raw       string
		readFirst int
		readLimit int
		ops       string
		unseen    []int
		merged    bool
		content   func(tx *hashline.Text) string
		msg       string
	}{
		{name: "unseen range is revealed and merged", raw: numberedFile(20), readFirst: 1, readLimit: 5,
			ops: "PUT 10.=12:\n+x", unseen: []int{10, 11, 12}, merged: true,
			content: func(tx *hashline.Text) string { return rowsOf(tx, "f.txt", 10, 12) },
			msg:     fmt.Sprintf(msgMerged, "10-12")},
		{name: "only the unseen part of a range", raw: numberedFile(20), readFirst: 1, readLimit: 5,
			ops: "PUT 4.=7:\n+x", unseen: []int{6, 7}, merged: true,
			content: func(tx *hashline.Text) string { return rowsOf(tx, "f.txt", 6, 7) },
			msg:     fmt.Sprintf(msgMerged, "6-7")},
		{name: "gap anchors: >N on N, <N on N", raw: numberedFile(20), readFirst: 1, readLimit: 5,
			ops: "PUT >7:\n+x\nPUT <15:\n+y", unseen: []int{7, 15}, merged: true,
			content: func(tx *hashline.Text) string {
				return hashline.Header("f.txt", tx.Tag()) + "\n7:line 7\n15:line 15\n"
			},
			msg: fmt.Sprintf(msgMerged, "7, 15")},
		{name: "40 unseen lines at full width merge", raw: numberedFile(60), readFirst: 1, readLimit: 10,
			ops: "PUT 11.=50:\n+x", unseen: seq(11, 50), merged: true,
			content: func(tx *hashline.Text) string { return rowsOf(tx, "f.txt", 11, 50) },
			msg:     fmt.Sprintf(msgMerged, "11-50")},
		{name: "41 unseen lines merge nothing", raw: numberedFile(60), readFirst: 1, readLimit: 10,
			ops: "PUT 11.=51:\n+x", unseen: seq(11, 51), merged: false,
			content: func(tx *hashline.Text) string { return rowsOf(tx, "f.txt", 11, 50) },
			msg:     "line(s) 11-51 were never shown to you (41 lines; at most 40 are revealed here, rows clipped at 512 characters, so none counts as shown): read them with offset 11 and limit 41, then retry"},
		{name: "a line of 512 characters merges", raw: "a\n" + long(512, "é") + "\n", readFirst: 1, readLimit: 1,
			ops: "PUT 2.=2:\n+x", unseen: []int{2}, merged: true,
			content: func(tx *hashline.Text) string { return rowsOf(tx, "f.txt", 2, 2) },
			msg:     fmt.Sprintf(msgMerged, "2")},
		{name: "a line of 513 characters merges nothing", raw: "a\n" + long(513, "é") + "\n", readFirst: 1, readLimit: 1,
			ops: "PUT 2.=2:\n+x", unseen: []int{2}, merged: false,
			content: func(tx *hashline.Text) string {
				return hashline.Header("f.txt", tx.Tag()) + "\n2:" + long(512, "é") + " … [line 2 clipped: 512 of 513 characters shown]\n"
			},
			msg: "line(s) 2 were never shown to you (1 line; at most 40 are revealed here, rows clipped at 512 characters, so none counts as shown): read them with offset 2 and limit 1, then retry"},
		{name: "a wide line spoils the whole reveal", raw: "a\nb\n" + long(600, "x") + "\n", readFirst: 1, readLimit: 1,
			ops: "PUT 2.=3:\n+x", unseen: []int{2, 3}, merged: false,
			content: func(tx *hashline.Text) string {
				return hashline.Header("f.txt", tx.Tag()) + "\n2:b\n3:" + long(512, "x") + " … [line 3 clipped: 512 of 600 characters shown]\n"
			},
			msg: "line(s) 2-3 were never shown to you (2 lines; at most 40 are revealed here, rows clipped at 512 characters, so none counts as shown): read them with offset 2 and limit 2, then retry"},
		// A line clipped by the read itself was never seen either.
		{name: "a line clipped by the read is unseen", raw: "a\n" + long(hashline.MaxLineChars+1, "y") + "\n", readFirst: 1, readLimit: 2,
			ops: "PUT >2:\n+x", unseen: []int{2}, merged: false,
			content: func(tx *hashline.Text) string {
				return hashline.Header("f.txt", tx.Tag()) + "\n2:" + long(512, "y") + " … [line 2 clipped: 512 of 16385 characters shown]\n"
			},
			msg: "line(s) 2 were never shown to you, and no read can show line(s) 2 in full (over 16384 characters, or not valid UTF-8), so no edit can anchor there: anchor on other lines, or rewrite the file with hashline_write"},
		// Nor is a line that is not UTF-8: no read would show it, so
		// none is asked for.
		{name: "a line that is not UTF-8 is unseen", raw: "a\nb\xffc\nd\n", readFirst: 1, readLimit: 3,
			ops: "PUT 1.=2:\n+x", unseen: []int{2}, merged: false,
			content: func(tx *hashline.Text) string {
				return hashline.Header("f.txt", tx.Tag()) + "\n2:b\ufffdc … [line 2 is not valid UTF-8: shown with U+FFFD, so it cannot be edited by line]\n"
			},
			msg: "line(s) 2 were never shown to you, and no read can show line(s) 2 in full (over 16384 characters, or not valid UTF-8), so no edit can anchor there: anchor on other lines, or rewrite the file with hashline_write"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := hashline.NewSession()
			live := hashline.NewText(c.raw)
			s.Read("f.txt", "f.txt", live, c.readFirst, c.readLimit)
			req := hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(live.Tag()), Ops: c.ops}
			_, err := s.Plan(req, live)
			he := wantCode(t, err, hashline.CodeLinesUnseen)
			if !reflect.DeepEqual(he.Details.Lines, c.unseen) || he.Details.Merged != c.merged || he.Details.LiveTag != string(live.Tag()) {
				t.Fatalf("Lines %v Merged %v LiveTag %s, want %v %v %s", he.Details.Lines, he.Details.Merged, he.Details.LiveTag, c.unseen, c.merged, live.Tag())
			}
			if he.Message != c.msg {
				t.Fatalf("message =\n%s\nwant\n%s", he.Message, c.msg)
			}
			if want := c.content(live); he.Details.Content != want {
				t.Fatalf("content =\n%.300s\nwant\n%.300s", he.Details.Content, want)
			}
			// The same call again: it applies when the reveal merged, and
			// fails the same way when it did not.
			p, err := s.Plan(req, live)
			if c.merged {
				if err != nil {
					t.Fatalf("retry after a complete reveal: %v", err)
				}
				if p.New.Raw() == live.Raw() {
					t.Fatal("retry planned no change")
				}
				return
			}
			again := wantCode(t, err, hashline.CodeLinesUnseen)
			if again.Message != c.msg || again.Details.Merged {
				t.Fatalf("retry after a partial reveal: %s (merged %v)", again.Message, again.Details.Merged)
			}
		})
	}
}

func seq(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

func TestBranchBPositionStable(t *testing.T) {
	t.Parallel()
	const old = "a\nb\nc\n"
	const now = "a\nB changed\nc\nd\n"
	oldTag, nowTag := hashline.TagOf(old), hashline.TagOf(now)
	drift := fmt.Sprintf("f.txt changed since tag %s (it is %s now); the ops touch only the head or end of the file, so they were applied to the current text", oldTag, nowTag)
	cases := []struct {
		name string
		ops  string
		want string
	}{
		{"append", "PUT >$:\n+e", now + "e\n"},
		{"head", "PUT <1:\n+top", "top\n" + now},
		{"head and end", "PUT <1:\n+top\nPUT >$:\n+e", "top\n" + now + "e\n"},
		{"named paste at the end", "PUT >$ @keep", now + "kept\n"},
		// A rename names no line, so drift cannot misplace it.
		{"move alone", "MV g.txt", now},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, "f.txt", "kept\n")
			f.commit(f.mustPlan("CUT 1.=1 @keep\nPUT >$:\n+x"))
			f.s.Read("f.txt", "f.txt", hashline.NewText(old), 1, 10)
			f.change(now)
			p, err := f.s.Plan(f.req(string(oldTag), c.ops), f.live)
			wantNew(t, p, err, c.want)
			if len(p.Warnings) != 1 || p.Warnings[0] != (hashline.Warning{Kind: hashline.WarnDrift, Message: drift}) {
				t.Fatalf("warnings %+v, want one drift warning %q", p.Warnings, drift)
			}
		})
	}
	// One anchored op takes the call out of branch B, to recovery, which
	// refuses it here: the line it names is the one that changed.
	f := readFixture(t, "f.txt", old)
	f.change(now)
	_, err := f.s.Plan(f.req(string(oldTag), "PUT >$:\n+e\nPUT 2.=2:\n+x"), f.live)
	wantCode(t, err, hashline.CodeTagMismatch)
	// An anonymous paste at the end needs a CUT, which is anchored: it is
	// recovered (line 1 is unchanged, unique, and still at the head), not
	// applied as branch B.
	f = readFixture(t, "f.txt", old)
	f.change(now)
	p, err := f.s.Plan(f.req(string(oldTag), "CUT 1.=1\nPUT >$"), f.live)
	if err != nil {
		t.Fatalf("CUT 1.=1 and PUT >$ on a stale tag: %v", err)
	}
	external := fmt.Sprintf("external change: f.txt changed outside this session since your read (tag %s, now %s); the lines you edit were unchanged, so the edit was applied to the current text", oldTag, nowTag)
	if p.New.Raw() != "B changed\nc\nd\na\n" || len(p.Warnings) != 1 || p.Warnings[0] != (hashline.Warning{Kind: hashline.WarnRecovered, Message: external}) {
		t.Fatalf("new text %q warnings %+v, want %q and one warning %q", p.New.Raw(), p.Warnings, "B changed\nc\nd\na\n", external)
	}
}

func TestBranchDReject(t *testing.T) {
	t.Parallel()
	// The anchor line itself changed: no recovery may place the edit.
	old := numberedFile(12)
	f := readFixture(t, "f.txt", old)
	oldTag := f.live.Tag()
	now := strings.Replace(old, "line 8\n", "line eight\n", 1)
	f.change(now)
	liveTag := f.live.Tag()
	ops := "PUT 8.=8:\n+eight\nPUT >11:\n+x"
	_, err := f.s.Plan(f.req(string(oldTag), ops), f.live)
	he := wantCode(t, err, hashline.CodeTagMismatch)
	want := fmt.Sprintf("f.txt changed since your read: tag %s no longer matches (the file's tag is %s now), and the edit could not be placed safely: line 8 (\"line 8\") changed or was removed since your read. The lines around your anchors as they are now are below (lines 6-12, rows marked >>> changed since your read) and count as read: rebuild the ops against tag %s and these line numbers, or read the file again", oldTag, liveTag, liveTag)
	if he.Message != want {
		t.Fatalf("message =\n%s\nwant\n%s", he.Message, want)
	}
	if he.Details.LiveTag != string(liveTag) || !reflect.DeepEqual(he.Details.Lines, []int{8, 11}) {
		t.Fatalf("LiveTag %s Lines %v, want %s [8 11]", he.Details.LiveTag, he.Details.Lines, liveTag)
	}
	wantContent := strings.Replace(rowsOf(f.live, "f.txt", 6, 12), "\n8:", "\n>>>8:", 1)
	if he.Details.Content != wantContent {
		t.Fatalf("content =\n%s\nwant\n%s", he.Details.Content, wantContent)
	}
	if !he.Code.Retriable() {
		t.Fatal("EDIT_TAG_MISMATCH is not retriable")
	}

	// The honest retry: the live tag and the shown lines.
	p, err := f.s.Plan(f.req(he.Details.LiveTag, ops), f.live)
	if err != nil {
		t.Fatalf("retry with the live tag: %v", err)
	}
	if p.New.Line(8) != "eight" || p.New.Line(2) != "line 2" || p.New.Line(12) != "x" {
		t.Fatalf("retry produced %q", p.New.Raw())
	}
	// Lines the error did not show are not seen under the live tag.
	_, err = f.s.Plan(f.req(he.Details.LiveTag, "PUT 2.=2:\n+2"), f.live)
	unseen := wantCode(t, err, hashline.CodeLinesUnseen)
	if !reflect.DeepEqual(unseen.Details.Lines, []int{2}) {
		t.Fatalf("unseen %v, want [2]", unseen.Details.Lines)
	}
}

func TestTagUnknown(t *testing.T) {
	t.Parallel()
	s := hashline.NewSession()
	live := hashline.NewText(numberedFile(4))
	stale := otherTag(live.Tag())
	req := hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: stale, Ops: "CUT 1.=1"}
	_, err := s.Plan(req, live)
	he := wantCode(t, err, hashline.CodeTagUnknown)
	want := fmt.Sprintf("this session has no read of f.txt under tag %s (the file's tag is %s): the lines around your anchors are below (lines 1-3) and count as read; rebuild the ops against tag %s and these line numbers, or read the file first", stale, live.Tag(), live.Tag())
	if he.Message != want {
		t.Fatalf("message =\n%s\nwant\n%s", he.Message, want)
	}
	if he.Details.LiveTag != string(live.Tag()) || he.Details.Content != rowsOf(live, "f.txt", 1, 3) || !reflect.DeepEqual(he.Details.Lines, []int{1}) {
		t.Fatalf("details %+v", he.Details)
	}
	req.Tag = he.Details.LiveTag
	p, err := s.Plan(req, live)
	if err != nil {
		t.Fatalf("retry with the live tag: %v", err)
	}
	if p.New.Raw() != "line 2\nline 3\nline 4\n" {
		t.Fatalf("new text %q", p.New.Raw())
	}
	// A stale tag for a path the session knows, but under another tag, is
	// unknown too: the session never read that version.
	f := readFixture(t, "g.txt", "a\n")
	f.change("b\n")
	_, err = f.s.Plan(f.req(otherTag(f.live.Tag()), "PUT 1.=1:\n+c"), f.live)
	wantCode(t, err, hashline.CodeTagUnknown)
}

// docs/contract.md §3.4: a live tag equal to the supplied one does not prove the text is
// the one read; when the session holds a different text under that tag, the
// match is a collision and nothing is applied.
func TestTagCollisionIsNotUnchanged(t *testing.T) {
	t.Parallel()
	a, b := collidingTexts(t)
	f := readFixture(t, "f.txt", a)
	tag := f.live.Tag()
	f.change(b)
	if f.live.Tag() != tag {
		t.Fatal("fixture: the texts do not collide")
	}
	// The match goes to recovery (branch C), which refuses: the one line
	// the op names is the line that differs.
	req := f.req(string(tag), "PUT 1.=1:\n+y")
	_, err := f.s.Plan(req, f.live)
	he := wantCode(t, err, hashline.CodeTagMismatch)
	want := fmt.Sprintf("f.txt changed since your read: its tag is still %s, but the text is not the text you read under that tag, and the edit could not be placed safely: line 1 (%q) changed or was removed since your read. The lines around your anchors as they are now are below (lines 1, rows marked >>> changed since your read) and count as read: rebuild the ops against tag %s and these line numbers, or read the file again", tag, strings.TrimSuffix(a, "\n"), tag)
	if he.Message != want {
		t.Fatalf("message =\n%s\nwant\n%s", he.Message, want)
	}
	if wantContent := hashline.Header("f.txt", tag) + "\n>>>1:" + strings.TrimSuffix(b, "\n") + "\n"; he.Details.LiveTag != string(tag) || he.Details.Content != wantContent {
		t.Fatalf("details %+v, want content %q", he.Details, wantContent)
	}
	// Once the live text has been shown, the same tag names it too, and
	// the retry applies to what was shown.
	p, err := f.s.Plan(req, f.live)
	wantNew(t, p, err, "y\n")
}

func TestTagRequired(t *testing.T) {
	t.Parallel()
	cases := []struct{ tag, msg string }{
		{"", "tag is missing: pass the 4-hex tag from the [path#TAG] header of your latest read of this file, or read it first"},
		{"ABC", `tag "ABC" is not 4 hex digits: pass the tag exactly as the [path#TAG] header shows it, for example A1B2`},
		{"A1B2C", `tag "A1B2C" is not 4 hex digits: pass the tag exactly as the [path#TAG] header shows it, for example A1B2`},
		{"GHIJ", `tag "GHIJ" is not 4 hex digits: pass the tag exactly as the [path#TAG] header shows it, for example A1B2`},
		{"#A1B", `tag "#A1B" is not 4 hex digits: pass the tag exactly as the [path#TAG] header shows it, for example A1B2`},
		{" A1B", `tag " A1B" is not 4 hex digits: pass the tag exactly as the [path#TAG] header shows it, for example A1B2`},
	}
	for _, c := range cases {
		t.Run(c.tag, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, "f.txt", "a\n")
			_, err := f.s.Plan(f.req(c.tag, "PUT 1.=1:\n+b"), f.live)
			he := wantCode(t, err, hashline.CodeTagRequired)
			if he.Message != c.msg {
				t.Fatalf("message = %s", he.Message)
			}
		})
	}
	for in, want := range map[string]hashline.Tag{"a1b2": "A1B2", "A1b2": "A1B2", "0000": "0000", "FFFF": "FFFF"} {
		if got, err := hashline.ParseTag(in); err != nil || got != want {
			t.Errorf("ParseTag(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestOpsHeaderMustAgree(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "src/f.txt", "a\n")
	f.display = "src/f.txt"
	tag := string(f.live.Tag())
	other := otherTag(f.live.Tag())
	cases := []struct {
		name, ops, msg string
	}{
		{"other path", "[src/g.txt#" + tag + "]\nPUT 1.=1:\n+b",
			"ops begins with [src/g.txt#" + tag + "] but the call names [src/f.txt#" + tag + "]: the header and the arguments must agree; drop the header line, or fix path and tag to the file you mean"},
		{"other tag", "[src/f.txt#" + other + "]\nPUT 1.=1:\n+b",
			"ops begins with [src/f.txt#" + other + "] but the call names [src/f.txt#" + tag + "]: the header and the arguments must agree; drop the header line, or fix path and tag to the file you mean"},
	}
	for _, c := range cases {
		_, err := f.plan(c.ops)
		he := wantCode(t, err, hashline.CodeInvalidArgument)
		if he.Message != c.msg || he.Details.Field != "ops" {
			t.Errorf("%s: message %q field %q", c.name, he.Message, he.Details.Field)
		}
	}
	for _, ops := range []string{
		"[src/f.txt#" + tag + "]\nPUT 1.=1:\n+b",
		"[./src/f.txt#" + strings.ToLower(tag) + "]\nPUT 1.=1:\n+b",
	} {
		p, err := f.plan(ops)
		if err != nil {
			t.Fatalf("agreeing header %q: %v", ops, err)
		}
		if p.New.Raw() != "b\n" {
			t.Fatalf("new text %q", p.New.Raw())
		}
	}
}

func TestRemAndMovePlans(t *testing.T) {
	t.Parallel()
	t.Run("REM", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f.txt", "a\nb\n")
		p := f.mustPlan("REM")
		if !p.Remove || p.Move != "" || len(p.Hunks) != 0 || len(p.Edits) != 0 || p.Summary != "REM" {
			t.Fatalf("plan %+v", p)
		}
		f.s.Commit(p, "f.txt", nil)
		if len(f.s.Snapshots("f.txt")) != 0 {
			t.Fatal("a removed file still has snapshots")
		}
	})
	t.Run("REM with a stale tag is refused", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f.txt", "a\n")
		old := f.live.Tag()
		f.change("b\n")
		_, err := f.s.Plan(f.req(string(old), "REM"), f.live)
		wantCode(t, err, hashline.CodeTagMismatch)
	})
	t.Run("MV alone", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f.txt", "a\n")
		p := f.mustPlan("MV \"new dir/g.txt\"")
		if p.Move != "new dir/g.txt" || p.Remove || len(p.Hunks) != 0 || p.New.Raw() != "a\n" || p.Summary != `MV "new dir/g.txt"` {
			t.Fatalf("plan: move %q hunks %v new %q summary %q", p.Move, p.Hunks, p.New.Raw(), p.Summary)
		}
	})
	t.Run("MV after the other ops", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f.txt", "a\nb\n")
		p := f.mustPlan("MV g.txt\nPUT 1.=1:\n+A")
		if p.Move != "g.txt" || p.New.Raw() != "A\nb\n" || p.Summary != "MV g.txt; PUT 1.=1:" {
			t.Fatalf("plan: move %q new %q summary %q", p.Move, p.New.Raw(), p.Summary)
		}
		// The landed file lives at the destination, with every line seen.
		f.s.Commit(p, "g.txt", p.New)
		if len(f.s.Snapshots("f.txt")) != 0 {
			t.Fatal("the source path still has snapshots")
		}
		snaps := f.s.Snapshots("g.txt")
		if len(snaps) != 1 || snaps[0].Seen.String() != "1-2" || snaps[0].Tag != p.New.Tag() {
			t.Fatalf("destination snapshots %+v", snaps)
		}
	})
}

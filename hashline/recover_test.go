package hashline_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// The unit tests of drift recovery (docs/contract.md §13) and path recovery (docs/contract.md §14). The
// torture test in torture_test.go covers the same ground at random; these
// pin each rule to one case and its exact words. The cases that are data
// are golden files, run by recover_golden_test.go.

// recoverText is a file whose lines are all distinct, so every anchor's
// text is unique unless a case makes it otherwise.
const recoverText = "package p\n\nfunc a() {\n\tone()\n\ttwo()\n\tthree()\n}\n\nfunc b() {\n\tfour()\n}\n"

func externalChange(display string, old, now hashline.Tag) hashline.Warning {
	return hashline.Warning{Kind: hashline.WarnRecovered, Message: fmt.Sprintf(
		"external change: %s changed outside this session since your read (tag %s, now %s); the lines you edit were unchanged, so the edit was applied to the current text", display, old, now)}
}

func sessionChain(display string, old hashline.Tag) hashline.Warning {
	return hashline.Warning{Kind: hashline.WarnRecovered, Message: fmt.Sprintf(
		"session chain: tag %s names an older version of %s than your latest read or edit; the lines you edit were unchanged, so the edit was applied to the current text: use the tag each result returns", old, display)}
}

func lineRemap(off int) hashline.Warning {
	where := "lower in the file"
	if off < 0 {
		where = "higher in the file"
	}
	return hashline.Warning{Kind: hashline.WarnRecovered, Message: fmt.Sprintf(
		"line remap: lines were added or removed above your anchors, so the edit landed %s (by %+d); use the line numbers of the new tag from here on", where, off)}
}

// A refusal of recovery gives its reason between these.
const (
	reasonBefore = ", and the edit could not be placed safely: "
	reasonAfter  = ". The lines around your anchors"
)

// declined checks a refusal of recovery: EDIT_TAG_MISMATCH, the live tag,
// and the reason in the message.
func declined(t *testing.T, err error, live *hashline.Text, reason string) *hashline.Error {
	t.Helper()
	he := wantCode(t, err, hashline.CodeTagMismatch)
	if he.Details.LiveTag != string(live.Tag()) {
		t.Fatalf("LiveTag %s, want %s", he.Details.LiveTag, live.Tag())
	}
	if !strings.Contains(he.Message, reasonBefore+reason+reasonAfter) {
		t.Fatalf("message =\n%s\nwant the reason %q", he.Message, reason)
	}
	return he
}

// docs/contract.md §13.2's warnings table, one row at a time.
func TestRecoveryWarnings(t *testing.T) {
	t.Parallel()
	replace := func(old, new string) func(live string) string {
		return func(live string) string { return strings.Replace(live, old, new, 1) }
	}
	cases := []struct {
		name string
		// drift makes a version newer than the read, whose tag the ops
		// then name.
		drift    func(f *editFixture)
		ops      string
		want     func(live string) string
		warnings func(old, now hashline.Tag) []hashline.Warning
	}{
		{name: "external change",
			// Another writer changes a line far from the anchor: nothing moves.
			drift: func(f *editFixture) { f.change(strings.Replace(recoverText, "\tfour()", "\tfour(4)", 1)) },
			ops:   "PUT 5.=5:\n+\tTWO()", want: replace("\ttwo()", "\tTWO()"),
			warnings: func(old, now hashline.Tag) []hashline.Warning {
				return []hashline.Warning{externalChange("f.go", old, now)}
			}},
		{name: "session chain",
			// The session's own edit makes a newer version; the model then
			// uses the tag of the older one for a line the edit left alone.
			drift: func(f *editFixture) { f.commit(f.mustPlan("PUT 10.=10:\n+\tfour(4)")) },
			ops:   "PUT 5.=5:\n+\tTWO()", want: replace("\ttwo()", "\tTWO()"),
			warnings: func(old, _ hashline.Tag) []hashline.Warning {
				return []hashline.Warning{sessionChain("f.go", old)}
			}},
		{name: "line remap",
			// Two imports added above: every line below moved down by 2.
			drift: func(f *editFixture) {
				f.change("package p\nimport \"os\"\nimport \"io\"\n" + strings.TrimPrefix(recoverText, "package p\n"))
			},
			ops: "PUT 5.=5:\n+\tTWO()\nPUT >10:\n+\tfive()",
			want: func(string) string {
				return "package p\nimport \"os\"\nimport \"io\"\n\nfunc a() {\n\tone()\n\tTWO()\n\tthree()\n}\n\nfunc b() {\n\tfour()\n\tfive()\n}\n"
			},
			warnings: func(old, now hashline.Tag) []hashline.Warning {
				return []hashline.Warning{externalChange("f.go", old, now), lineRemap(2)}
			}},
		{name: "line remap up",
			// Lines removed above move the edit up.
			drift: func(f *editFixture) { f.change(strings.TrimPrefix(recoverText, "package p\n\n")) },
			ops:   "PUT 5.=5:\n+\tTWO()", want: replace("\ttwo()", "\tTWO()"),
			warnings: func(old, now hashline.Tag) []hashline.Warning {
				return []hashline.Warning{externalChange("f.go", old, now), lineRemap(-2)}
			}},
		{name: "session chain with a line remap",
			drift: func(f *editFixture) { f.commit(f.mustPlan("PUT <1:\n+// Package p.\n+// It is small.")) },
			ops:   "CUT 10.=10", want: replace("\tfour()\n", ""),
			warnings: func(old, _ hashline.Tag) []hashline.Warning {
				return []hashline.Warning{sessionChain("f.go", old), lineRemap(2)}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, "f.go", recoverText)
			old := f.live.Tag()
			c.drift(f)
			p, err := f.s.Plan(f.req(string(old), c.ops), f.live)
			wantNew(t, p, err, c.want(f.live.Raw()))
			if w := c.warnings(old, f.live.Tag()); !reflect.DeepEqual(p.Warnings, w) {
				t.Fatalf("warnings %+v, want %+v", p.Warnings, w)
			}
		})
	}
}

// Resolved block spans name lines of the snapshot, so after a remap they
// would name the wrong lines: recovery does not echo them.
func TestRecoveryDoesNotEchoSpans(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.go", recoverText)
	blocks := &fakeBlocks{spans: map[int][2]int{9: {9, 11}}}
	f.blocks = blocks
	old := f.live.Tag()
	p := f.mustPlan("PUT >9*:\n+\n+func c() {}")
	if len(p.Resolved) != 1 || p.Resolved[0] != (hashline.Resolved{AnchorLine: 9, Start: 9, End: 11, Op: "PUT >9*:"}) {
		t.Fatalf("branch A resolved %+v", p.Resolved)
	}
	f.change("// Package p.\n" + recoverText)
	p, err := f.s.Plan(f.req(string(old), "PUT >9*:\n+\n+func c() {}"), f.live)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if p.Resolved != nil || p.New.Raw() != "// Package p.\n"+recoverText+"\nfunc c() {}\n" {
		t.Fatalf("resolved %+v, new text %q", p.Resolved, p.New.Raw())
	}
	// The block was resolved on the text the tag names, not the live one.
	if blocks.text != recoverText {
		t.Fatalf("the resolver saw %q, want the snapshot", blocks.text)
	}
	if w := []hashline.Warning{externalChange("f.go", old, f.live.Tag()), lineRemap(1)}; !reflect.DeepEqual(p.Warnings, w) {
		t.Fatalf("warnings %+v, want %+v", p.Warnings, w)
	}
}

// A block copied right after itself could as well have been copied right
// before: the lines of either copy cannot be told apart.
func TestRecoveryCopiedBlock(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.go", recoverText)
	old := f.live.Tag()
	f.change(strings.Replace(recoverText, "func b() {\n\tfour()\n}\n", "func b() {\n\tfour()\n}\nfunc b() {\n\tfour()\n}\n", 1))
	_, err := f.s.Plan(f.req(string(old), "PUT 10.=10:\n+\tFOUR()"), f.live)
	declined(t, err, f.live, `line 10 ("\tfour()") sits among repeated lines next to a change, so which copy of it you meant cannot be told`)
	// A line far from the copy is still found.
	p, err := f.s.Plan(f.req(string(old), "PUT 4.=4:\n+\tONE()"), f.live)
	if err != nil {
		t.Fatalf("Plan away from the copy: %v", err)
	}
	if p.New.Line(4) != "\tONE()" || p.New.Len() != f.live.Len() {
		t.Fatalf("new text %q", p.New.Raw())
	}
}

// The refusal shows the live text around each anchor, where it is now,
// with the rows that changed since the read marked, under the live tag;
// the rows count as read, so the honest retry needs no read.
func TestRecoveryRefusalContent(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.go", recoverText)
	old := f.live.Tag()
	// Three lines added above, and the anchor line itself changed: the
	// rows shown are where that line is now, not where it was.
	f.change("// a\n// b\n// c\n" + strings.Replace(recoverText, "\tfour()", "\tfour(4)", 1))
	live := f.live.Tag()
	_, err := f.s.Plan(f.req(string(old), "PUT 10.=10:\n+\tFOUR()"), f.live)
	he := declined(t, err, f.live, `line 10 ("\tfour()") changed or was removed since your read`)
	want := fmt.Sprintf("f.go changed since your read: tag %s no longer matches (the file's tag is %s now), and the edit could not be placed safely: line 10 (\"\\tfour()\") changed or was removed since your read. The lines around your anchors as they are now are below (lines 11-14, rows marked >>> changed since your read) and count as read: rebuild the ops against tag %s and these line numbers, or read the file again", old, live, live)
	if he.Message != want {
		t.Fatalf("message =\n%s\nwant\n%s", he.Message, want)
	}
	content := fmt.Sprintf("[f.go#%s]\n11:\n12:func b() {\n>>>13:\tfour(4)\n14:}\n", live)
	if he.Details.Content != content || !reflect.DeepEqual(he.Details.Lines, []int{10}) {
		t.Fatalf("content =\n%s\nwant\n%s\nlines %v", he.Details.Content, content, he.Details.Lines)
	}
	p, err := f.s.Plan(f.req(string(live), "PUT 13.=13:\n+\tFOUR()"), f.live)
	if err != nil {
		t.Fatalf("the retry with the live tag: %v", err)
	}
	if p.New.Line(13) != "\tFOUR()" || len(p.Warnings) != 0 {
		t.Fatalf("retry: new text %q warnings %+v", p.New.Raw(), p.Warnings)
	}
}

// docs/contract.md §6.5: a snapshot evicted by the store's bounds is gone; a stale tag
// naming it fails closed, as unknown.
func TestRecoveryEvictedSnapshot(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.go", recoverText)
	old := f.live.Tag()
	for i := 0; i < hashline.MaxPathsPerSession; i++ {
		other := hashline.NewText(fmt.Sprintf("file %d\n", i))
		f.s.Read(fmt.Sprintf("other%d.txt", i), fmt.Sprintf("other%d.txt", i), other, 1, 1)
	}
	if len(f.s.Snapshots("f.go")) != 0 {
		t.Fatal("f.go was not evicted")
	}
	// The same drift TestRecoveryWarnings recovers from.
	f.change(strings.Replace(recoverText, "\tfour()", "\tfour(4)", 1))
	_, err := f.s.Plan(f.req(string(old), "PUT 5.=5:\n+\tTWO()"), f.live)
	he := wantCode(t, err, hashline.CodeTagUnknown)
	if he.Details.LiveTag != string(f.live.Tag()) {
		t.Fatalf("LiveTag %s, want %s", he.Details.LiveTag, f.live.Tag())
	}
}

// docs/contract.md §6.3: a file over 2 MiB is tagged but its text is not kept, so its drift
// cannot be traced.
func TestRecoveryUnretainedSnapshot(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; b.Len() <= hashline.MaxRetainedFileBytes; i++ {
		fmt.Fprintf(&b, "line %07d of a large file\n", i)
	}
	raw := b.String()
	f := readFixture(t, "big.txt", raw)
	old := f.live.Tag()
	if s := f.s.Snapshots("big.txt"); len(s) != 1 || s[0].Retained {
		t.Fatalf("snapshots %+v, want one, not retained", s)
	}
	f.change(strings.Replace(raw, "line 0050000 of", "line 50000 of", 1))
	_, err := f.s.Plan(f.req(string(old), "PUT 2.=2:\n+second"), f.live)
	he := declined(t, err, f.live, "the file is over 2 MiB, so the text you read was not kept and the change cannot be traced")
	if strings.Contains(he.Message, ">>>") || strings.Contains(he.Details.Content, ">>>") {
		t.Fatalf("nothing can be marked as changed without the text read: %s", he.Details.Content)
	}
}

// sharedTag finds two distinct texts made by form that share a tag.
func sharedTag(t *testing.T, form string) (string, string) {
	t.Helper()
	seen := map[hashline.Tag]string{}
	for i := 0; i < 1<<17; i++ {
		raw := fmt.Sprintf(form, i)
		tag := hashline.TagOf(raw)
		if prev, ok := seen[tag]; ok {
			return prev, raw
		}
		seen[tag] = raw
	}
	t.Fatalf("no two texts of the form %q share a tag", form)
	return "", ""
}

// docs/contract.md §3.4: a tag names an index, not a text. With two texts under one tag,
// the store keeps both, and recovery must agree on every one it tries.
func TestRecoveryTagCollisions(t *testing.T) {
	t.Parallel()
	t.Run("the live text collides with the one read", func(t *testing.T) {
		t.Parallel()
		a, b := sharedTag(t, "keep\nx%d\n")
		f := readFixture(t, "f.txt", a)
		tag := f.live.Tag()
		f.change(b)
		if f.live.Tag() != tag {
			t.Fatal("fixture: the texts do not collide")
		}
		// Line 1 is unchanged and confirmed by the file's head: placed.
		p, err := f.s.Plan(f.req(string(tag), "PUT >1:\n+y"), f.live)
		wantNew(t, p, err, "keep\ny\n"+strings.TrimPrefix(b, "keep\n"))
		if w := []hashline.Warning{externalChange("f.txt", tag, tag)}; !reflect.DeepEqual(p.Warnings, w) {
			t.Fatalf("warnings %+v, want %+v", p.Warnings, w)
		}
		// Ops at the head and the end need no line: branch B.
		p, err = f.s.Plan(f.req(string(tag), "PUT >$:\n+z"), f.live)
		if err != nil {
			t.Fatalf("Plan at the end: %v", err)
		}
		drift := hashline.Warning{Kind: hashline.WarnDrift, Message: fmt.Sprintf("f.txt changed since tag %s (it is %s now); the ops touch only the head or end of the file, so they were applied to the current text", tag, tag)}
		if p.New.Raw() != b+"z\n" || !reflect.DeepEqual(p.Warnings, []hashline.Warning{drift}) {
			t.Fatalf("new text %q warnings %+v", p.New.Raw(), p.Warnings)
		}
		// Line 2 is the line that differs: refused, never applied as if
		// the tag proved the text.
		_, err = f.s.Plan(f.req(string(tag), "PUT 2.=2:\n+y"), f.live)
		declined(t, err, f.live, fmt.Sprintf("line 2 (%q) changed or was removed since your read", strings.Split(a, "\n")[1]))
	})
	t.Run("two texts read under one tag", func(t *testing.T) {
		t.Parallel()
		a, b := sharedTag(t, "p\nx%d\n")
		f := readFixture(t, "f.txt", a)
		tag := f.live.Tag()
		f.s.Read("f.txt", "f.txt", hashline.NewText(b), 1, 2)
		if len(f.s.Snapshots("f.txt")) != 2 {
			t.Fatalf("%d snapshots, want two texts under one tag", len(f.s.Snapshots("f.txt")))
		}
		xa, xb := strings.Split(a, "\n")[1], strings.Split(b, "\n")[1]
		f.change("p\n" + xa + "\nq\n" + xb + "\n")
		if f.live.Tag() == tag {
			t.Fatal("fixture: the live text collides too")
		}
		// Line 2 of each text is in the live text, each at its own place:
		// the edit would land differently, so it lands nowhere.
		_, err := f.s.Plan(f.req(string(tag), "PUT >2:\n+y"), f.live)
		declined(t, err, f.live, "the tag names two texts this session read, and the edit lands differently on each")
		// Where both agree, it lands.
		p, err := f.s.Plan(f.req(string(tag), "PUT <1:\n+top\nPUT 1.=1:\n+P"), f.live)
		wantNew(t, p, err, "top\nP\n"+xa+"\nq\n"+xb+"\n")
	})
}

// Ops that do not fit the text the tag names are most likely written
// against a newer text: the stale tag is the mistake, and the refusal says
// how they fail. A register failure once the anchors hold is the ops'
// own (docs/contract.md §13.1 step 8).
func TestRecoveryOpsErrors(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.go", recoverText)
	old := f.live.Tag()
	f.change(recoverText + "\nfunc c() {\n\tfive()\n}\n")
	_, err := f.s.Plan(f.req(string(old), "PUT 14.=14:\n+\tFIVE()"), f.live)
	declined(t, err, f.live, "op 1 (PUT 14.=14:): line 14 is past the end of the file (11 lines): to add lines after the last one use PUT >$:")
	_, err = f.s.Plan(f.req(string(old), "PUT >4 @nothing"), f.live)
	he := wantCode(t, err, hashline.CodeRegisterEmpty)
	if he.Message != "op 1 (PUT >4 @nothing): register @nothing is empty in this session: capture into it first with CUT N.=M @nothing (in this call or an earlier one)" {
		t.Fatalf("message %q", he.Message)
	}
}

// A line the session was never shown cannot anchor a recovery either.
func TestRecoveryUnseenAnchor(t *testing.T) {
	t.Parallel()
	s := hashline.NewSession()
	read := hashline.NewText(recoverText)
	s.Read("f.go", "f.go", read, 1, 5)
	live := hashline.NewText("// header\n" + recoverText)
	_, err := s.Plan(hashline.EditRequest{Path: "f.go", Display: "f.go", Tag: string(read.Tag()), Ops: "PUT 10.=10:\n+\tFOUR()"}, live)
	declined(t, err, live, "line 10 was never shown to you")
}

// docs/contract.md §14: a path that names no file is rebound to the one file this session
// recorded with the same base name and a version under the same tag.
func TestRecoverPath(t *testing.T) {
	t.Parallel()
	a := hashline.NewText("package a\n")
	b := hashline.NewText("package b\n")
	s := hashline.NewSession()
	s.Read("/w/src/a/util.go", "src/a/util.go", a, 1, 1)
	s.Read("/w/src/b/util.go", "src/b/util.go", b, 1, 1)
	s.Read("/w/src/c/other.go", "src/c/other.go", a, 1, 1)

	for _, c := range []struct {
		name, base string
		tag        hashline.Tag
		authored   string
		want       string
	}{
		{"basename and tag match one file", "util.go", a.Tag(), "/w/util.go", "/w/src/a/util.go"},
		{"the other file of that name", "util.go", b.Tag(), "/w/util.go", "/w/src/b/util.go"},
		{"the tag matches no file of that name", "util.go", otherTagOf(a.Tag(), b.Tag()), "/w/util.go", ""},
		{"the name matches no file", "main.go", a.Tag(), "/w/main.go", ""},
		{"the authored path's own history is excluded", "util.go", a.Tag(), "/w/src/a/util.go", ""},
	} {
		got, ok := s.RecoverPath(c.base, c.tag, c.authored)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: RecoverPath = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
	// A tie declines: a second util.go read under a's tag.
	s.Read("/w/src/d/util.go", "src/d/util.go", a, 1, 1)
	if got, ok := s.RecoverPath("util.go", a.Tag(), "/w/util.go"); ok || got != "" {
		t.Fatalf("a tie found %q", got)
	}
	// An older version counts: the tag names what the session read then.
	s.Record("/w/src/b/util.go", hashline.NewText("package b // changed\n"), nil)
	if got, ok := s.RecoverPath("util.go", b.Tag(), "/w/util.go"); !ok || got != "/w/src/b/util.go" {
		t.Fatalf("an older version: %q, %v", got, ok)
	}
}

func otherTagOf(tags ...hashline.Tag) hashline.Tag {
	for i := 0; ; i++ {
		t := hashline.Tag(fmt.Sprintf("%04X", i))
		if !containsTag(tags, t) {
			return t
		}
	}
}

func containsTag(tags []hashline.Tag, t hashline.Tag) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

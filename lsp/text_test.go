package lsp_test

import (
	"fmt"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// The user types between the read and the edit: an edit of the typed line
// is refused with the live text around its anchors, and the fresh tag
// works; an edit elsewhere is carried over to the typed text (branch C),
// and an append at the end survives the typing (branch B). Each says so.
func TestUserTypingBetweenReadAndEdit(t *testing.T) {
	e := vscodeHolding(t, "t.txt", "a\nb\nc\nd\ne\n")
	r := e.Read("t.txt")
	e.Type("t.txt", "c", "c typed")
	typed := "a\nb\nc typed\nd\ne\n"

	res := e.Fail(commands.CmdEdit, map[string]any{"path": "t.txt", "tag": r.Tag, "ops": "PUT 3.=3:\n+C"}, hashline.CodeTagMismatch)
	if res.Error.Details.LiveTag != tagOf(typed) {
		t.Fatalf("live tag = %s, want %s", res.Error.Details.LiveTag, tagOf(typed))
	}
	if !strings.Contains(res.Error.Details.Content, "3:c typed\n") || !strings.HasPrefix(res.Error.Details.Content, "[t.txt#"+tagOf(typed)+"]") {
		t.Fatalf("content = %q, want the typed line under the live header", res.Error.Details.Content)
	}
	if got := e.BufferText("t.txt"); got != typed {
		t.Fatalf("buffer = %q, want the user's text", got)
	}
	if n := len(e.Applies()); n != 0 {
		t.Fatalf("a refused edit reached the editor %d times", n)
	}

	res = e.Edit("t.txt", res.Error.Details.LiveTag, "PUT 3.=3:\n+c typed, then edited")
	want := "a\nb\nc typed, then edited\nd\ne\n"
	if got := e.BufferText("t.txt"); got != want || res.Tag != tagOf(want) || len(res.Warnings) != 0 {
		t.Fatalf("edit with the fresh tag: buffer %q result %s, want %q", got, res.Raw, want)
	}

	// The first read's tag again, on a line the typing did not touch.
	res = e.Edit("t.txt", r.Tag, "PUT 4.=4:\n+D")
	want = "a\nb\nc typed, then edited\nD\ne\n"
	if got := e.BufferText("t.txt"); got != want || res.Tag != tagOf(want) || !res.HasWarning(hashline.WarnRecovered) {
		t.Fatalf("edit elsewhere with the stale tag: buffer %q result %s, want %q with a recovered warning", got, res.Raw, want)
	}

	res = e.Edit("t.txt", r.Tag, "PUT >$:\n+f")
	want += "f\n"
	if got := e.BufferText("t.txt"); got != want || res.Tag != tagOf(want) || !res.HasWarning(hashline.WarnDrift) {
		t.Fatalf("append with the stale tag: buffer %q result %s, want %q with a drift warning", got, res.Raw, want)
	}
}

// CRLF and BOM survive every path: an open CRLF buffer, and a BOM + CRLF
// file on disk that the editor opens (the BOM is not a character of its
// buffer) or edits on disk.
func TestCRLFAndBOM(t *testing.T) {
	t.Run("open CRLF buffer", func(t *testing.T) {
		e := vscodeHolding(t, "w.txt", "one\r\ntwo\r\nthree\r\n")
		e.Type("w.txt", "three", "three!")
		r := e.Read("w.txt")
		res := e.Edit("w.txt", r.Tag, "PUT 2.=2:\n+TWO\n\nPUT >$:\n+four")
		want := "one\r\nTWO\r\nthree!\r\nfour\r\n"
		if got := e.BufferText("w.txt"); got != want || res.Tag != tagOf(want) || len(res.Warnings) != 0 {
			t.Fatalf("buffer %q result %s, want %q without warnings", got, res.Raw, want)
		}
		edits := e.Applies()[0].Edit.DocumentChanges[0].Edits
		got := fmt.Sprint(edits[0].Range, edits[0].NewText, edits[1].Range, edits[1].NewText)
		if wantEdits := fmt.Sprint(span(pos(1, 0), pos(1, 3)), "TWO", span(pos(3, 0), pos(3, 0)), "four\r\n"); got != wantEdits {
			t.Fatalf("text edits = %s, want %s", got, wantEdits)
		}
		if got := e.DiskText("w.txt"); got != "one\r\ntwo\r\nthree\r\n" {
			t.Fatalf("disk = %q, want it untouched", got)
		}
	})
	t.Run("BOM CRLF file the editor opens", func(t *testing.T) {
		e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})
		e.WriteFile("bom.txt", utf8BOM+"alpha\r\nbeta\r\ngamma\r\n")
		r := e.Read("bom.txt")
		res := e.Edit("bom.txt", r.Tag, "PUT 1.=1:\n+ALPHA")
		want := "ALPHA\r\nbeta\r\ngamma\r\n"
		if got := e.BufferText("bom.txt"); got != want {
			t.Fatalf("buffer = %q, want %q", got, want)
		}
		if got := e.DiskText("bom.txt"); got != utf8BOM+want {
			t.Fatalf("disk = %q, want %q", got, utf8BOM+want)
		}
		if res.Tag != tagOf(want) || len(res.Warnings) != 0 {
			t.Fatalf("result = %s, want tag %s and no warning (the editor keeps the BOM outside its text)", res.Raw, tagOf(want))
		}
		te := e.Applies()[0].Edit.DocumentChanges[0].Edits[0]
		if te.Range != span(pos(0, 0), pos(0, 5)) || te.NewText != "ALPHA" {
			t.Fatalf("text edit = %+v %q, want line 1 counted from after the BOM", te.Range, te.NewText)
		}
		// Now the editor holds it; the next edit goes through the buffer.
		res = e.Edit("bom.txt", res.Tag, "PUT 3.=3:\n+GAMMA")
		want = "ALPHA\r\nbeta\r\nGAMMA\r\n"
		if got := e.DiskText("bom.txt"); got != utf8BOM+want || res.Tag != tagOf(want) {
			t.Fatalf("disk %q result %s, want %q", got, res.Raw, utf8BOM+want)
		}
	})
	t.Run("BOM CRLF file the editor edits on disk", func(t *testing.T) {
		e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldDisk})
		e.WriteFile("bom.txt", utf8BOM+"alpha\r\nbeta  \r\ngamma\r\ndelta")
		r := e.Read("bom.txt")
		res := e.Edit("bom.txt", r.Tag, "PUT 1.=1:\n+A\n\nPUT 3.=3:\n+C\n\nPUT >$:\n+epsilon")
		want := utf8BOM + "A\r\nbeta  \r\nC\r\ndelta\r\nepsilon"
		if got := e.DiskText("bom.txt"); got != want {
			t.Fatalf("disk = %q, want %q", got, want)
		}
		if res.Tag != tagOf(want) || len(res.Warnings) != 0 {
			t.Fatalf("result = %s, want tag %s without warnings", res.Raw, tagOf(want))
		}
	})
}

// width is the length of s in the position encoding enc.
func width(enc, s string) uint32 {
	if enc == "utf-8" {
		return uint32(len(s))
	}
	n := uint32(0)
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// Emoji (two UTF-16 units, four UTF-8 bytes) and CJK (one unit, three
// bytes) under each position encoding: typing after them, and the server's
// edits at columns after them.
func TestUnicodePositions(t *testing.T) {
	for _, enc := range []string{"utf-16", "utf-8"} {
		t.Run(enc, func(t *testing.T) {
			opts := lsptest.VSCode()
			opts.Encodings = []string{enc}
			if enc == "utf-8" {
				opts.Encodings = []string{"utf-8", "utf-16"}
			}
			e := lsptest.New(t, opts)
			e.WriteFile("u.txt", "α😀 one\n漢字 two\n🎉三 three")
			e.Open("u.txt", 0)

			// The user types right after the emoji, then replaces a span
			// that covers it.
			e.TypeAt("u.txt", len("α😀"), len("α😀"), "X", false)
			e.TypeAt("u.txt", len("α"), len("α😀X"), "🙂", false)
			e.TypeAt("u.txt", len("α🙂 one\n漢字"), len("α🙂 one\n漢字"), "語", false)
			typed := "α🙂 one\n漢字語 two\n🎉三 three"
			r := e.Read("u.txt")
			if r.Tag != tagOf(typed) || !strings.Contains(r.Content, "1:α🙂 one\n2:漢字語 two\n3:🎉三 three") {
				t.Fatalf("read = %s, want the typed text %q", r.Raw, typed)
			}

			// Append to a file without a final newline: the edit starts at
			// the end of the last line, after the emoji and the CJK.
			res := e.Edit("u.txt", r.Tag, "PUT >$:\n+end 🎯")
			want := typed + "\nend 🎯"
			if got := e.BufferText("u.txt"); got != want || res.Tag != tagOf(want) {
				t.Fatalf("append: buffer %q result %s, want %q", got, res.Raw, want)
			}
			te := lastEdits(t, e)[0]
			end3 := pos(2, width(enc, "🎉三 three"))
			if te.Range != span(end3, end3) || te.NewText != "\nend 🎯" {
				t.Fatalf("append edit = %+v %q, want an insert at %+v", te.Range, te.NewText, end3)
			}

			// Delete that last line: the edit starts at the end of the line
			// before it, after its emoji.
			res = e.Edit("u.txt", res.Tag, "CUT 4.=4")
			if got := e.BufferText("u.txt"); got != typed || res.Tag != tagOf(typed) {
				t.Fatalf("cut: buffer %q result %s, want %q", got, res.Raw, typed)
			}
			te = lastEdits(t, e)[0]
			if te.Range != span(end3, pos(3, width(enc, "end 🎯"))) || te.NewText != "" {
				t.Fatalf("cut edit = %+v %q, want %+v to the end", te.Range, te.NewText, end3)
			}

			// A hunk of several lines with emoji in them, and the user
			// typing after the emoji of a line the edit wrote.
			res = e.Edit("u.txt", res.Tag, "PUT 1.=2:\n+α😀 ONE\n+漢字 TWO 🎉")
			want = "α😀 ONE\n漢字 TWO 🎉\n🎉三 three"
			if got := e.BufferText("u.txt"); got != want || res.Tag != tagOf(want) {
				t.Fatalf("hunk: buffer %q result %s, want %q", got, res.Raw, want)
			}
			e.TypeAt("u.txt", len("α😀 ONE\n漢字 TWO 🎉"), len("α😀 ONE\n漢字 TWO 🎉"), "!", false)
			e.TypeAt("u.txt", len("α😀 ONE\n漢字 TWO 🎉!\n🎉三"), len("α😀 ONE\n漢字 TWO 🎉!\n🎉三 "), "", false)
			want = "α😀 ONE\n漢字 TWO 🎉!\n🎉三three"
			r = e.Read("u.txt")
			if r.Tag != tagOf(want) || e.BufferText("u.txt") != want {
				t.Fatalf("after typing: read %s buffer %q, want %q", r.Raw, e.BufferText("u.txt"), want)
			}
			res = e.Edit("u.txt", r.Tag, "PUT 3.=3:\n+🎉三 3")
			want = "α😀 ONE\n漢字 TWO 🎉!\n🎉三 3"
			if got := e.BufferText("u.txt"); got != want || res.Tag != tagOf(want) {
				t.Fatalf("last line: buffer %q result %s, want %q", got, res.Raw, want)
			}
		})
	}
}

// lastEdits are the text edits of the last applyEdit the editor received.
func lastEdits(t *testing.T, e *lsptest.Editor) []lsptest.TextEdit {
	t.Helper()
	applies := e.Applies()
	if len(applies) == 0 || len(applies[len(applies)-1].Edit.DocumentChanges) == 0 {
		t.Fatalf("no text edits received")
	}
	return applies[len(applies)-1].Edit.DocumentChanges[0].Edits
}

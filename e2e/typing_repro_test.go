package e2e

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests in this file are the four ways a person typing in Neovim while
// a terminal agent edits the same file went wrong, each made deterministic:
// a long debounce holds the person's change back exactly as Neovim's
// default one does for 150 ms, and text typed "at once" after an edit is
// typed inside the same event (testdata/nvim_typing.lua).

// TestTypingEditNeverLandsOnTheWrongLine: the person types in a buffer
// whose change Neovim still holds back, and the agent edits with the tag it
// read before. The edit must land on the line it names in the text the
// person sees, and the person's lines must all survive.
func TestTypingEditNeverLandsOnTheWrongLine(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(20)}, open: []string{"app.py"}, debounce: 1000})
		res, got, want := editAfterTypingAbove(e)
		if res.isErr || !slices.Equal(got.lines, want) {
			e.fatal("the edit answered (error %v):\n%s\nthe buffer holds:\n%s\nwant:\n%s", res.isErr, res.text, got.text(), strings.Join(want, "\n"))
		}
		e.checkServerSees("app.py")
	})
}

// TestTypingMisplacedEditIsUndone is the first test with Neovim's own LSP
// client and handlers alone, without the plugin: nothing checks version 0
// and nothing flushes the held change, so Neovim applies the edit at the
// wrong line. The server finds it there, undoes it exactly, plans it again
// against the typed text, and says so; the person's lines all survive.
func TestTypingMisplacedEditIsUndone(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(20)}, open: []string{"app.py"}, debounce: 300, noPlugin: true})
		res, got, want := editAfterTypingAbove(e)
		if res.isErr || !slices.Equal(got.lines, want) || !strings.Contains(res.text, "that was undone") {
			e.fatal("the edit answered (error %v):\n%s\nthe buffer holds:\n%s\nwant:\n%s", res.isErr, res.text, got.text(), strings.Join(want, "\n"))
		}
		e.checkServerSees("app.py")
	})
}

// editAfterTypingAbove reads app.py, types a line "new" below line 1,
// and edits line 8 with the tag read before. It returns the edit's answer,
// the buffer after it, and the lines the person must see: theirs, and
// the edit on the line it named.
func editAfterTypingAbove(e *typingEditor) (res call, got buffer, want []string) {
	r := e.read("app.py")
	e.typeKeys("2GOnew<Esc>")
	res = e.edit("app.py", r.tag(), "PUT 8.=8:\n+line_8 = 'agent'\n")
	want = strings.Split(strings.TrimSuffix(numbered(20), "\n"), "\n")
	want = slices.Insert(want, 1, "new")
	want[8] = "line_8 = 'agent'"
	return res, e.buffer("app.py"), want
}

// TestTypingSaveKeepsUnsavedTyping: the buffer is clean, the person is in
// insert mode, the agent's edit lands and the person types on at once. The
// bridge saves only what the edit left: typing the person has not saved
// never reaches the disk.
func TestTypingSaveKeepsUnsavedTyping(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(20)}, open: []string{"app.py"}, typeAfterEdit: "half"})
		r := e.read("app.py")
		e.typeKeys("3GA")
		res := e.edit("app.py", r.tag(), "PUT 10.=10:\n+line_10 = 'agent'\n")
		e.typeKeys("<Esc>")
		got := e.buffer("app.py")
		if res.isErr || !strings.Contains(got.text(), "line_3 = 3half\n") || !strings.Contains(got.text(), "line_10 = 'agent'\n") {
			e.fatal("the edit answered (error %v):\n%s\nthe buffer holds:\n%s", res.isErr, res.text, got.text())
		}
		disk := e.disk("app.py")
		if strings.Contains(disk, "half") || !got.modified {
			e.fatal("the disk holds typing the person never saved (buffer modified: %v):\n%s\nthe edit answered:\n%s", got.modified, disk, res.text)
		}
		if !strings.Contains(res.text, "is not saved") {
			e.fatal("the agent was not told the file is not saved:\n%s", res.text)
		}
	})
}

// TestTypingEditOfAnUntouchedLineLands: the person types two keys; Neovim
// has sent the first and holds the second back when the agent edits a line
// the person never touched. The edit lands at once, never waiting out the
// landing timeout for an edit Neovim skipped.
func TestTypingEditOfAnUntouchedLineLands(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(20)}, open: []string{"app.py"}, debounce: 1000})
		r := e.read("app.py")
		e.typeKeys("3GAa")
		// The first key reaches the server, as a debounce that ran out
		// would send it; the second is held back.
		e.lua(`local c = require("hashline").client()
			if vim.fn.has("nvim-0.11") == 1 then c:notify("$/hashline/flush", vim.empty_dict()) else c.notify("$/hashline/flush", vim.empty_dict()) end`)
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(e.read("app.py").text, "3:line_3 = 3a\n"); {
			if time.Now().After(deadline) {
				e.fatal("the server never got the first key")
			}
			time.Sleep(20 * time.Millisecond)
		}
		e.typeKeys("b<Esc>")
		res := e.edit("app.py", r.tag(), "PUT 8.=8:\n+line_8 = 'agent'\n")
		got := e.buffer("app.py")
		if res.isErr || !strings.Contains(got.text(), "line_3 = 3ab\n") || !strings.Contains(got.text(), "line_8 = 'agent'\n") {
			e.fatal("the edit answered (error %v) after %s:\n%s\nthe buffer holds:\n%s", res.isErr, res.took, res.text, got.text())
		}
		e.checkServerSees("app.py")
	})
}

// TestTypingServerCopyMatchesAfterBufferDelete: the person closes and
// reopens the file, closes it again, and the agent inserts a line (Neovim
// loads the closed file to apply it) and edits another. The server's copy
// of the buffer must stay the buffer's text, byte for byte.
func TestTypingServerCopyMatchesAfterBufferDelete(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(20)}, open: []string{"app.py"}})
		e.do("bdelete")
		e.do("edit app.py")
		e.waitAttached("app.py")
		e.do("bdelete")
		r := e.read("app.py")
		ins := e.edit("app.py", r.tag(), "PUT >3:\n+agent 1\n")
		if ins.isErr {
			e.fatal("the insert answered:\n%s", ins.text)
		}
		res := e.edit("app.py", ins.tag(), "PUT 15.=15:\n+line_15 = 'agent 2'\n")
		if res.isErr {
			e.fatal("the edit answered:\n%s", res.text)
		}
		got := e.buffer("app.py")
		if !strings.Contains(got.text(), "line_3 = 3\nagent 1\nline_4 = 4\n") || !strings.Contains(got.text(), "line_13 = 13\nline_15 = 'agent 2'\nline_15 = 15\n") {
			e.fatal("the buffer holds:\n%s\nthe edit answered:\n%s", got.text(), res.text)
		}
		e.checkServerSees("app.py")
	})
}

// TestTypingKeystrokeBeforeTheEdit: a keystroke reaches Neovim after the
// server flushed and planned, just before the edit is applied. The plugin
// refuses the edit as made for an older version, and the server plans it
// again against the typed text.
func TestTypingKeystrokeBeforeTheEdit(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(20)}, open: []string{"app.py"}, typeBeforeEdit: "new\n"})
		r := e.read("app.py")
		res := e.edit("app.py", r.tag(), "PUT 8.=8:\n+line_8 = 'agent'\n")
		got := e.buffer("app.py")
		if res.isErr || !strings.HasPrefix(got.text(), "new\nline_1 = 1\n") || !strings.Contains(got.text(), "line_7 = 7\nline_8 = 'agent'\nline_9 = 9\n") {
			e.fatal("the edit answered (error %v):\n%s\nthe buffer holds:\n%s", res.isErr, res.text, got.text())
		}
		if !strings.Contains(res.text, "changed outside this session since your read") {
			e.fatal("the edit landed without saying the file moved under it:\n%s", res.text)
		}
		if log, _ := os.ReadFile(e.serverLog); !strings.Contains(string(log), "changed after hashline-ls checked the edit") {
			e.fatal("the plugin did not refuse the edit made for the older version")
		}
		e.checkServerSees("app.py")
	})
}

// TestTypingHealthFindsAStaleCopy: :checkhealth hashline compares the
// server's copy of each buffer with the buffer, and says when they differ.
func TestTypingHealthFindsAStaleCopy(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(5)}, open: []string{"app.py"}})
		report := e.health()
		if !strings.Contains(report, "the server holds the buffer's text") || strings.Contains(report, "differs") {
			e.fatal(":checkhealth hashline, in step:\n%s", report)
		}
		// A change the server gets that the buffer never made.
		e.lua(`local c = require("hashline").client()
			local p = { textDocument = { uri = vim.uri_from_bufnr(0), version = 1000 },
				contentChanges = { { range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } }, text = "stale" } } }
			if vim.fn.has("nvim-0.11") == 1 then c:notify("textDocument/didChange", p) else c.notify("textDocument/didChange", p) end`)
		report = e.health()
		if !strings.Contains(report, "the server's copy differs from the buffer") {
			e.fatal(":checkhealth hashline, out of step:\n%s", report)
		}
	})
}

// health runs :checkhealth hashline and returns its report.
func (e *typingEditor) health() string {
	e.t.Helper()
	v := e.lua(`local cur = vim.api.nvim_get_current_buf()
		vim.cmd("checkhealth hashline")
		local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
		vim.cmd("bwipeout")
		vim.api.nvim_set_current_buf(cur)
		return text`)
	s, _ := v.(string)
	return s
}

// checkServerSees reads name through the agent and fails unless the read
// shows exactly what the editor's buffer holds.
func (e *typingEditor) checkServerSees(name string) {
	e.t.Helper()
	r := e.read(name)
	got := e.buffer(name)
	if shown := readLines(r.text); !slices.Equal(shown, got.lines) {
		e.fatal("the server's copy of %s is not the buffer:\nread:\n%s\nbuffer:\n%s", name, r.text, got.text())
	}
}

package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
	"hashline-ls/internal/testenv"
)

const outlineSample = `package shop

import "fmt"

// Cart holds what a customer buys.
type Cart struct {
	items []string
}

const Max = 10

// Add puts an item in the cart.
func (c *Cart) Add(item string) error {
	if len(c.items) == Max {
		return fmt.Errorf("full")
	}
	c.items = append(c.items, item)
	return nil
}

func init() {}

func init() {
	_ = Max
}
`

func outlineServer(t testing.TB, files map[string]string) (*Server, string) {
	t.Helper()
	s, dir := newServer(t, files)
	s.Blocks = blocks.New()
	return s, dir
}

func TestReadOutline(t *testing.T) {
	s, dir := outlineServer(t, map[string]string{"shop/cart.go": outlineSample})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "shop/cart.go", "view": "outline"}))
	tag := hashline.NewText(outlineSample).Tag()
	want := "[shop/cart.go#" + string(tag) + "]\n" +
		"5-8 struct  6:type Cart struct {\n" +
		"10 const  10:const Max = 10\n" +
		"12-19 method Cart.Add  13:func (c *Cart) Add(item string) error {\n" +
		"21 func  21:func init() {}\n" +
		"23-25 func  23:func init() {\n" +
		`note: 5 declarations, each Start-End kind name, then its own line N:text; read one with symbol, e.g. "Cart": its lines then count as shown, and PUT 5*: replaces lines 5-8` + "\n"
	if r.Text != want {
		t.Fatalf("text =\n%s\nwant\n%s", r.Text, want)
	}
	if r.Tag != string(tag) || r.TotalLines != 25 || len(r.Symbols) != 5 || r.Truncated {
		t.Fatalf("result %+v", r)
	}
	if got := r.Symbols[2]; got != (OutlineSymbol{Name: "Add", Qualified: "Cart.Add", Kind: "method", Start: 12, End: 19, Line: 13, Block: true}) {
		t.Fatalf("symbol %+v", got)
	}
	// The declarations' own lines count as shown: one can be edited at
	// once, and PUT >N*: after it needs no more. A body line cannot.
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "shop/cart.go", "tag": r.Tag, "ops": "PUT 17.=17:\n+\tc.items = nil", "session": "other"}), hashline.CodeTagUnknown)
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "shop/cart.go", "tag": r.Tag, "ops": "PUT 17.=17:\n+\tc.items = nil"}), hashline.CodeLinesUnseen)
	// PUT >13*: needs the block's last line too, which the outline did
	// not show: the refusal shows it, and the same call then lands.
	ops := "PUT 10.=10:\n+const Max = 20\n\nPUT >13*:\n+\n+func (c *Cart) Len() int { return len(c.items) }"
	unseen := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "shop/cart.go", "tag": r.Tag, "ops": ops}), hashline.CodeLinesUnseen)
	if len(unseen.Error.Details.Lines) != 1 || unseen.Error.Details.Lines[0] != 19 || !unseen.Error.Details.Merged {
		t.Fatalf("unseen: %+v", unseen.Error.Details)
	}
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "shop/cart.go", "tag": r.Tag, "ops": ops}))
	got := readFile(t, filepath.Join(dir, "shop", "cart.go"))
	if !strings.Contains(got, "const Max = 20\n") || !strings.Contains(got, "\treturn nil\n}\n\nfunc (c *Cart) Len() int") || e.Tag == "" {
		t.Fatalf("edits after the outline:\n%s", got)
	}
}

func TestReadOutlineWindow(t *testing.T) {
	s, _ := outlineServer(t, map[string]string{"cart.go": outlineSample})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "view": "outline", "offset": 11, "limit": 11}))
	if len(r.Symbols) != 2 || r.Symbols[0].Name != "Add" || r.Symbols[1].Line != 21 || r.Offset != 11 {
		t.Fatalf("the outline of lines 11-21: %+v", r.Symbols)
	}
	mustFail(t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "view": "outline", "offset": 26}), hashline.CodeInvalidArgument)
}

func TestReadOutlineRowBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n")
	for i := range maxOutlineRows + 10 {
		fmt.Fprintf(&b, "const C%d = %d\n", i, i)
	}
	s, _ := outlineServer(t, map[string]string{"many.go": b.String()})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "many.go", "view": "outline"}))
	next := maxOutlineRows + 2
	if len(r.Symbols) != maxOutlineRows || !r.Truncated || !strings.Contains(r.Notice, fmt.Sprintf("read the outline with offset %d for the rest", next)) {
		t.Fatalf("%d rows, truncated %v, notice %q", len(r.Symbols), r.Truncated, r.Notice)
	}
	rest := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "many.go", "view": "outline", "offset": next}))
	if len(rest.Symbols) != 10 || rest.Truncated {
		t.Fatalf("the rest: %d rows, truncated %v", len(rest.Symbols), rest.Truncated)
	}
}

func TestReadSymbol(t *testing.T) {
	s, dir := outlineServer(t, map[string]string{"shop/cart.go": outlineSample})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "shop/cart.go", "symbol": "Cart.Add"}))
	tag := hashline.NewText(outlineSample).Tag()
	lines := strings.Split(outlineSample, "\n")
	var want strings.Builder
	want.WriteString("[shop/cart.go#" + string(tag) + "]\n")
	for n := 12; n <= 19; n++ {
		fmt.Fprintf(&want, "%d:%s\n", n, lines[n-1])
	}
	want.WriteString("note: method Cart.Add (lines 12-19) of 25 lines; these lines count as shown, and PUT 12*: replaces exactly them\n")
	if r.Text != want.String() {
		t.Fatalf("text =\n%s\nwant\n%s", r.Text, want.String())
	}
	if r.Symbol == nil || r.Symbol.Start != 12 || r.Symbol.End != 19 || r.Offset != 12 || r.LineCount != 8 {
		t.Fatalf("result %+v", r)
	}
	// The whole file's tag, and the lines count as shown: the block op
	// lands at once.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "shop/cart.go", "tag": r.Tag, "ops": "PUT 12*:\n+// Add is gone."}))
	got := readFile(t, filepath.Join(dir, "shop", "cart.go"))
	if want := strings.Join(lines[:11], "\n") + "\n// Add is gone.\n" + strings.Join(lines[19:], "\n"); got != want {
		t.Fatalf("after PUT 12*:\n%s\nwant\n%s", got, want)
	}
	// A one-line declaration: its line, and the plain range to name it.
	one := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "shop/cart.go", "symbol": "cart.Max"}))
	if !strings.Contains(one.Text, "10:const Max = 10\n") || !strings.Contains(one.Notice, "no block opens here, so name the lines with PUT 10.=10:") {
		t.Fatalf("one-line symbol:\n%s", one.Text)
	}
}

func TestReadSymbolRefusals(t *testing.T) {
	s, _ := outlineServer(t, map[string]string{"cart.go": outlineSample, "notes.txt": "Cart\n", "bad.go": "package p\nfunc (\n"})
	cases := []struct {
		args  map[string]any
		field string
		want  string
	}{
		{map[string]any{"symbol": "Cart", "offset": 3}, "symbol", "symbol reads exactly the lines of one declaration, so offset and limit do not apply"},
		{map[string]any{"symbol": "Cart", "limit": 3}, "symbol", "offset and limit do not apply"},
		{map[string]any{"symbol": "Cart", "view": "outline"}, "symbol", `view "outline" lists every declaration and symbol reads one`},
		{map[string]any{"symbol": "Cart.Ad"}, "symbol", `cart.go declares nothing named "Cart.Ad"; the closest names: Cart.Add (method, line 13)`},
		{map[string]any{"symbol": "init"}, "symbol", `"init" names 2 declarations in cart.go: func init (line 21), func init (lines 23-25); read one by its lines instead, e.g. offset 21 and limit 1`},
		{map[string]any{"path": "notes.txt", "view": "outline"}, "view", "there is no outline of notes.txt: there is no outline for .txt files (no grammar for this file type): read it by lines"},
		{map[string]any{"path": "bad.go", "symbol": "x"}, "symbol", "there is no outline of bad.go: the file does not parse cleanly as go (first syntax error at line 2): read it by lines"},
		{map[string]any{"view": "columns"}, "view", "value must be one of"},
		{map[string]any{"symbol": ""}, "symbol", "minLength"},
	}
	for _, c := range cases {
		if c.args["path"] == nil {
			c.args["path"] = "cart.go"
		}
		e := mustFail(t, call(t, s, CmdRead, c.args), hashline.CodeInvalidArgument)
		if e.Error.Details.Field != c.field || !strings.Contains(e.Error.Message, c.want) {
			t.Errorf("%v: field %q, message %q; want %q containing %q", c.args, e.Error.Details.Field, e.Error.Message, c.field, c.want)
		}
	}
}

// TestReadOutlineLimits: files past the parse limit, one of them a single
// 10 MB line, answer with the limit error at once; a deeply nested file
// within it answers with its outline.
func TestReadOutlineLimits(t *testing.T) {
	big := strings.Repeat("var x = 1;\n", 40<<20/11)
	line := strings.Repeat("a", 10<<20) + "\n"
	var deep strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&deep, "namespace N%d {\n", i)
	}
	deep.WriteString(strings.Repeat("}\n", 1000))
	s, _ := outlineServer(t, map[string]string{"big.js": big, "line.js": line, "deep.ts": deep.String(), "deep.json": strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)})
	for _, c := range []struct{ path, arg string }{{"big.js", "symbol"}, {"big.js", "view"}, {"line.js", "symbol"}} {
		args := map[string]any{"path": c.path, "symbol": "x"}
		if c.arg == "view" {
			args = map[string]any{"path": c.path, "view": "outline"}
		}
		e := mustFail(t, call(t, s, CmdRead, args), hashline.CodeInvalidArgument)
		if e.Error.Details.Limit != hashline.MaxBlockParse || !strings.Contains(e.Error.Message, "over the 4 MiB limit for outlines and symbol reads: read it by lines with offset and limit") {
			t.Errorf("%s %s: %+v", c.path, c.arg, e.Error)
		}
	}
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "deep.ts", "symbol": "N0.N1.N2"}))
	if r.Symbol == nil || r.Symbol.Start != 3 || r.Symbol.End != 2000-2 {
		t.Fatalf("deep.ts N0.N1.N2: %+v", r.Symbol)
	}
	o := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "deep.ts", "view": "outline"}))
	if len(o.Symbols) == 0 || len(o.Symbols) > 20 {
		t.Fatalf("deep.ts outline: %d rows", len(o.Symbols))
	}
	// Past the nesting limit, the parser is not asked at all: its time
	// grows faster than the text there.
	j := mustFail(t, call(t, s, CmdRead, map[string]any{"path": "deep.json", "view": "outline"}), hashline.CodeInvalidArgument)
	if !strings.Contains(j.Error.Message, "the file nests brackets 1048576 deep, over the limit of 1024 for parsing: read it by lines") {
		t.Fatalf("deep.json outline: %s", j.Error.Message)
	}
}

// outlineFiles are the files of the outline goldens: the real ones and
// the samples.
func outlineFiles(t *testing.T) map[string]string {
	files := map[string]string{}
	for lang, r := range testenv.Outlined {
		files[lang+"/"+filepath.Base(r.Path)] = r.Read(t)
	}
	samples, err := filepath.Glob(filepath.Join("..", "hashline", "blocks", "testdata", "outline", "samples", "*"))
	if err != nil || len(samples) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	for _, p := range samples {
		files["samples/"+filepath.Base(p)] = readFile(t, p)
	}
	return files
}

// TestOutlineProperty: for every symbol the outline of every golden file
// lists, the symbol read shows exactly the outline's lines, and PUT N*:
// on its first line (PUT N.=M: for one that opens no block) replaces
// exactly those lines, byte for byte.
func TestOutlineProperty(t *testing.T) {
	files := outlineFiles(t)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	total := 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			text := files[name]
			s, dir := outlineServer(t, map[string]string{name: text})
			abs := filepath.Join(dir, filepath.FromSlash(name))
			lines := strings.SplitAfter(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
			outline := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": name, "view": "outline"}))
			var blocks, ones, ambiguous int
			for i, sym := range outline.Symbols {
				if sym.Qualified == "" {
					continue // a group: it has no name to read it by
				}
				session := fmt.Sprintf("s%d", i)
				read := call(t, s, CmdRead, map[string]any{"path": name, "symbol": sym.Qualified, "session": session})
				var tag string
				if e, failed := read.(*ErrorResult); failed {
					// Two declarations of one name: the refusal names this
					// one's lines, and a read of those lines stands in.
					if !strings.Contains(e.Error.Message, " names ") || !strings.Contains(e.Error.Message, rangeWords(sym)) {
						t.Fatalf("%s: %s", sym.Qualified, e.Error.Message)
					}
					ambiguous++
					r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": name, "offset": sym.Start, "limit": sym.End - sym.Start + 1, "session": session}))
					tag = r.Tag
				} else {
					r := mustOK[*ReadResult](t, read)
					if r.Symbol == nil || r.Symbol.Start != sym.Start || r.Symbol.End != sym.End {
						t.Fatalf("%s: read %+v, outline %+v", sym.Qualified, r.Symbol, sym)
					}
					if got, want := rowsOf(t, r.Content), window(lines, sym.Start, sym.End); got != want {
						t.Fatalf("%s: the read shows\n%s\nnot lines %d-%d:\n%s", sym.Qualified, got, sym.Start, sym.End, want)
					}
					tag = r.Tag
				}
				const marker = "HASHLINE OUTLINE PROPERTY"
				op := fmt.Sprintf("PUT %d*:\n+%s", sym.Start, marker)
				if sym.Block {
					blocks++
				} else {
					ones++
					mustFail(t, call(t, s, CmdEdit, map[string]any{"path": name, "tag": tag, "ops": op, "session": session}), hashline.CodeBlockUnresolved)
					op = fmt.Sprintf("PUT %d.=%d:\n+%s", sym.Start, sym.End, marker)
				}
				mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": name, "tag": tag, "ops": op, "session": session}))
				want := strings.Join(lines[:sym.Start-1], "") + marker + "\n" + strings.Join(lines[sym.End:], "")
				if got := readFile(t, abs); got != want {
					t.Fatalf("%s: %s did not replace exactly lines %d-%d", sym.Qualified, strings.SplitN(op, "\n", 2)[0], sym.Start, sym.End)
				}
				if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			total += blocks + ones
			t.Logf("%s: %d symbols: %d blocks replaced by PUT N*:, %d one-line or unblocked replaced by PUT N.=M:, %d read by lines for a name two declare",
				name, len(outline.Symbols), blocks, ones, ambiguous)
		})
	}
	t.Logf("%d symbols checked in %d files", total, len(files))
}

func rangeWords(s OutlineSymbol) string {
	if s.Start == s.End {
		return fmt.Sprintf("(line %d)", s.Start)
	}
	return fmt.Sprintf("(lines %d-%d)", s.Start, s.End)
}

// rowsOf turns a read's rows back into the lines they show.
func rowsOf(t *testing.T, content string) string {
	t.Helper()
	var b strings.Builder
	for _, row := range strings.SplitAfter(content, "\n")[1:] {
		if row == "" {
			continue
		}
		n, text, ok := strings.Cut(row, ":")
		if _, err := strconv.Atoi(n); !ok || err != nil {
			t.Fatalf("row %q", row)
		}
		b.WriteString(n + ":" + text)
	}
	return b.String()
}

func window(lines []string, start, end int) string {
	var b strings.Builder
	for n := start; n <= end; n++ {
		b.WriteString(strconv.Itoa(n) + ":" + strings.TrimSuffix(lines[n-1], "\n") + "\n")
	}
	return b.String()
}

// countingOutliner counts the outlines it is asked for.
type countingOutliner struct {
	*blocks.Resolver
	calls int
}

func (c *countingOutliner) Outline(path, text string, keep func(hashline.Symbol) bool) ([]hashline.Symbol, error) {
	c.calls++
	return c.Resolver.Outline(path, text, keep)
}

// The symbol reads that follow an outline parse nothing again, until the
// text changes.
func TestOutlineCache(t *testing.T) {
	s, _ := newServer(t, map[string]string{"cart.go": outlineSample})
	o := &countingOutliner{Resolver: blocks.New()}
	s.Blocks = o
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "view": "outline"}))
	for _, sym := range []string{"Cart", "Cart.Add", "Max"} {
		mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "symbol": sym}))
	}
	mustFail(t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "symbol": "Nope"}), hashline.CodeInvalidArgument)
	if o.calls != 1 {
		t.Fatalf("%d outlines made for one text, want 1", o.calls)
	}
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "cart.go", "tag": r.Tag, "ops": "PUT 10.=10:\n+const Max = 11"}))
	one := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "symbol": "Max"}))
	if o.calls != 2 || !strings.Contains(one.Content, "10:const Max = 11\n") {
		t.Fatalf("after the edit: %d outlines, read %q", o.calls, one.Content)
	}
}

const guideSample = `# Guide

Intro.

## Install

### From source

Build it.

### From a release

Download it.

## Use

Run it.
`

// TestReadOutlineDepth: a document's outline lists its top two levels by
// default, each row counting what it folds, and a symbol read finds a
// folded heading as it finds any other; depth lists more, and code is
// listed in full.
func TestReadOutlineDepth(t *testing.T) {
	s, dir := outlineServer(t, map[string]string{"guide.md": guideSample, "cart.go": outlineSample})
	o := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "guide.md", "view": "outline"}))
	tag := hashline.NewText(guideSample).Tag()
	want := "[guide.md#" + string(tag) + "]\n1-17 h1  1:# Guide\n  5-13 h2 +2  5:## Install\n  15-17 h2  15:## Use\n"
	if o.Content != want || o.Symbols[1].Folded != 2 {
		t.Fatalf("outline:\n%s\nwant\n%s", o.Content, want)
	}
	if !strings.Contains(o.Notice, "listed to depth 2: a row marked +N holds N more declarations, 2 in all; read the outline with depth 3 for the next level") {
		t.Fatalf("notice: %s", o.Notice)
	}
	all := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "guide.md", "view": "outline", "depth": 3}))
	if len(all.Symbols) != 5 || strings.Contains(all.Content, "+") || strings.Contains(all.Notice, "depth") {
		t.Fatalf("depth 3:\n%s\n%s", all.Content, all.Notice)
	}
	top := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "guide.md", "view": "outline", "depth": 1}))
	if len(top.Symbols) != 1 || top.Symbols[0].Folded != 4 {
		t.Fatalf("depth 1: %+v", top.Symbols)
	}
	// A folded heading reads, and PUT N*: replaces exactly its lines.
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "guide.md", "symbol": "Install > From a release"}))
	if r.Symbol == nil || r.Symbol.Start != 11 || r.Symbol.End != 13 || !strings.Contains(r.Content, "11:### From a release\n") {
		t.Fatalf("folded heading: %+v\n%s", r.Symbol, r.Content)
	}
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "guide.md", "tag": r.Tag, "ops": "PUT 11*:\n+### From a package\n+\n+Install it.\n"}))
	if got, want := readFile(t, filepath.Join(dir, "guide.md")), strings.Replace(guideSample, "### From a release\n\nDownload it.\n", "### From a package\n\nInstall it.\n", 1); got != want {
		t.Fatalf("after PUT 11*:\n%s", got)
	}
	// Code is listed to every level, unless a depth is asked for.
	code := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "view": "outline"}))
	if len(code.Symbols) != 5 || strings.Contains(code.Notice, "depth") {
		t.Fatalf("code outline: %+v", code.Symbols)
	}
	e := mustFail(t, call(t, s, CmdRead, map[string]any{"path": "cart.go", "depth": 2}), hashline.CodeInvalidArgument)
	if e.Error.Details.Field != "depth" || !strings.Contains(e.Error.Message, `send it with view "outline"`) {
		t.Fatalf("depth without the outline: %s", e.Error.Message)
	}
	mustFail(t, call(t, s, CmdRead, map[string]any{"path": "guide.md", "view": "outline", "depth": 0}), hashline.CodeInvalidArgument)
}

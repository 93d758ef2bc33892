package commands

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

var symbolFiles = map[string]string{
	".gitignore":       "gen/\n",
	"srv/server.go":    "package srv\n\ntype Server struct{}\n\n// handle answers one request.\nfunc (s *Server) handle() {\n}\n\nfunc use() { new(Server).handle() }\n",
	"srv/client.py":    "class Client:\n    def handle(self):\n        return 1\n",
	"web/app.ts":       "export function handler() {}\nexport const handle = () => 1;\n",
	"web/calls.ts":     "handle();\nhandle();\n",
	"docs/guide.md":    "# Guide\n\n## handle\n\nWhat handle does.\n",
	"notes.txt":        "func handle() {}\n",
	"broken/bad.go":    "package bad\nfunc handle( {\n",
	"broken/uses.go":   "package bad\nfunc use( { x.handle()\n",
	"gen/generated.go": "package gen\nfunc handle() {}\n",
}

func TestGrepSymbols(t *testing.T) {
	s, _ := outlineServer(t, symbolFiles)
	r := grepOK(t, s, map[string]any{"pattern": "^handle$", "mode": "symbols"})
	tag := func(p string) string { return string(hashline.TagOf(symbolFiles[p])) }
	want := "[docs/guide.md#" + tag("docs/guide.md") + "]\n" +
		"docs/guide.md:3-5 h2 Guide > handle\n" +
		"\n[srv/client.py#" + tag("srv/client.py") + "]\n" +
		"srv/client.py:2-3 method Client.handle\n" +
		"\n[srv/server.go#" + tag("srv/server.go") + "]\n" +
		"srv/server.go:5-7 method Server.handle\n" +
		"\n[web/app.ts#" + tag("web/app.ts") + "]\n" +
		"web/app.ts:2-2 function handle\n"
	if r.Content != want {
		t.Fatalf("content =\n%s\nwant\n%s", r.Content, want)
	}
	// A file that may hold the name but does not parse is told; one of a
	// type with no grammar (notes.txt) is no failure, nor an ignored one,
	// nor one that only uses the name (broken/uses.go: Go never declares a
	// name right after a '.'), which is not parsed at all.
	if !strings.Contains(r.Notice, "1 file(s) hold a line that may name a match but could not be outlined") || !strings.Contains(r.Notice, "broken/bad.go (the file does not parse cleanly as go") {
		t.Fatalf("notice %q", r.Notice)
	}
	if got := r.Symbols[2]; got != (GrepSymbol{Path: "srv/server.go", Name: "handle", Qualified: "Server.handle", Kind: "method", Start: 5, End: 7, Line: 6}) {
		t.Fatalf("symbol %+v", got)
	}
	if len(r.Matches) != 0 || r.Truncated || !reflect.DeepEqual(r.Tags, map[string]string{
		"docs/guide.md": tag("docs/guide.md"), "srv/client.py": tag("srv/client.py"), "srv/server.go": tag("srv/server.go"), "web/app.ts": tag("web/app.ts"),
	}) {
		t.Fatalf("result %+v", r)
	}
	// The tag is recorded, no line is: a symbol read goes on from here.
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "srv/server.go", "tag": tag("srv/server.go"), "ops": "PUT 5*:\n+x"}), hashline.CodeLinesUnseen)
	sym := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "srv/server.go", "symbol": r.Symbols[2].Qualified}))
	if sym.Tag != tag("srv/server.go") || sym.Symbol.Start != 5 {
		t.Fatalf("symbol read %+v", sym.Symbol)
	}
}

func TestGrepSymbolsArguments(t *testing.T) {
	s, _ := outlineServer(t, symbolFiles)
	// A loose pattern, a glob, a path, ignoreCase and maxResults, as grep
	// takes them.
	r := grepOK(t, s, map[string]any{"pattern": "handle", "mode": "symbols", "glob": "*.ts"})
	if got := symbolNames(r); !reflect.DeepEqual(got, []string{"web/app.ts:handler", "web/app.ts:handle"}) {
		t.Fatalf("glob *.ts: %v", got)
	}
	r = grepOK(t, s, map[string]any{"pattern": "^SERVER$", "mode": "symbols", "ignoreCase": true, "path": "srv"})
	if got := symbolNames(r); !reflect.DeepEqual(got, []string{"srv/server.go:Server"}) {
		t.Fatalf("ignoreCase in srv: %v", got)
	}
	r = grepOK(t, s, map[string]any{"pattern": "^handle", "mode": "symbols", "maxResults": 2})
	if len(r.Symbols) != 2 || !r.Truncated || !strings.Contains(r.Notice, "stopped at maxResults (2 declarations)") {
		t.Fatalf("maxResults: %d symbols, truncated %v, notice %q", len(r.Symbols), r.Truncated, r.Notice)
	}
	// The ignored file is searched when named, as grep searches it.
	r = grepOK(t, s, map[string]any{"pattern": "handle", "mode": "symbols", "path": "gen/generated.go"})
	if got := symbolNames(r); !reflect.DeepEqual(got, []string{"gen/generated.go:handle"}) {
		t.Fatalf("named ignored file: %v", got)
	}
	r = grepOK(t, s, map[string]any{"pattern": "^nothing$", "mode": "symbols"})
	if r.Text != "no matches\n" || len(r.Symbols) != 0 || r.Symbols == nil {
		t.Fatalf("no match: %q %v", r.Text, r.Symbols)
	}
}

// TestLoosen: a line holding a name the pattern matches matches the
// loosened pattern, whatever stands around the name.
func TestLoosen(t *testing.T) {
	cases := []struct{ expr, name, line string }{
		{`^handle$`, "handle", "func (s *Server) handle() {"},
		{`\bNew\w+\b`, "NewReader", "func NewReader(r io.Reader) *Reader {"},
		{`(?i)^(get|set)X$`, "setX", "  def setX(self):"},
		{`a|^b$`, "b", "let xb = 1"},
		{`\Bx$`, "ax", "let ax = 1"},
	}
	for _, c := range cases {
		loose, err := loosen(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(c.expr).MatchString(c.name) || !regexp.MustCompile(loose).MatchString(c.line) || strings.ContainsAny(loose, "^$") || strings.Contains(loose, `\b`) {
			t.Errorf("loosen(%q) = %q: does not match %q", c.expr, loose, c.line)
		}
	}
}

func symbolNames(r *GrepResult) []string {
	var out []string
	for _, s := range r.Symbols {
		out = append(out, s.Path+":"+s.Name)
	}
	return out
}

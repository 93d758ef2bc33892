package blocks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// MaxParseBytes is the largest text parsed for block resolution (docs/contract.md §19.1: 4 MiB).
const MaxParseBytes = 4 << 20

// parsed is one clean parse of a text, with the line index the resolver
// works in. Offsets are into src, the bytes the parser saw: the text itself,
// or for JSON the text wrapped in parentheses, so every offset on the first
// line is one byte past the text's own.
type parsed struct {
	lang *lang
	src  []byte
	tree *sitter.Tree
	root *sitter.Node
	// top is the node that stands for the whole file and is never a block:
	// the root, or for JSON the top-level value inside the wrapper.
	top *sitter.Node
	// starts[i] and ends[i] are the offsets of text line i+1 in src, ends
	// excluding the line's LF.
	starts, ends []int
	// headings caches the markdown headings, in document order.
	headings []heading
	// infos and kids keep what the parse was told of its nodes and their
	// children, and cursor is the tree cursor that lists them (nodes.go).
	grammar *sitter.Language
	table   *symbolTable
	infos   map[*sitter.Node]nodeInfo
	kids    map[*sitter.Node]*children
	cursor  *sitter.TreeCursor
	// kinds and contentEnds keep what classify and contentEnd found, which
	// the rules ask of the same lines and nodes again and again.
	kinds       []classified
	contentEnds map[*sitter.Node]int
	// delims says, per line, whether it holds a comment delimiter: 0 not
	// looked at, 1 no, 2 yes (resolve.go).
	delims []int8
	// lastDescend is the last chain descend found (nodes.go).
	lastDescend descent
}

// parseError says why a text has no clean parse.
type parseError struct {
	line int    // 1-based line of the first error, 0 when unknown
	what string // how the text was read, e.g. "rust", "JSON"
	why  string // optional detail
}

func (e *parseError) reason() string {
	return e.head() + ", so its blocks cannot be trusted; fix the syntax or name the lines with a plain range"
}

// head says how the text fails to parse, and where.
func (e *parseError) head() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the file does not parse cleanly as %s", e.what)
	switch {
	case e.line > 0 && e.why != "":
		fmt.Fprintf(&b, " (line %d: %s)", e.line, e.why)
	case e.line > 0:
		fmt.Fprintf(&b, " (first syntax error at line %d)", e.line)
	case e.why != "":
		fmt.Fprintf(&b, " (%s)", e.why)
	}
	return b.String()
}

// parse reads text in language l. The caller closes the result.
func parse(l *lang, text string) (*parsed, *parseError) {
	if l.json != notJSON {
		return parseJSON(l, text)
	}
	p, perr := parseWith(l, l.grammar, []byte(text), 0, 0)
	if perr == nil || !l.flow || !hasFlowPragma(text) {
		if perr != nil {
			perr.what = l.name
		}
		return p, perr
	}
	p, perr = parseWith(l, tsxGrammar, []byte(text), 0, 0)
	if perr != nil {
		perr.what = l.name + " with Flow types, read through the tsx grammar,"
	}
	return p, perr
}

// parseWith parses src with grammar g and checks the tree is clean. The text
// is src without prefix bytes at its start and suffix bytes at its end.
func parseWith(l *lang, g *sitter.Language, src []byte, prefix, suffix int) (*parsed, *parseError) {
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(g)
	tree, err := parser.ParseCtx(context.Background(), nil, src)
	if err != nil {
		return nil, &parseError{why: err.Error()}
	}
	root := tree.RootNode()
	if root.HasError() {
		line := 0
		if n := firstError(root); n != nil {
			line = int(n.StartPoint().Row) + 1
		}
		tree.Close()
		return nil, &parseError{line: line}
	}
	if n := firstErrorKind(root, errorKinds.of(g)); n != nil {
		perr := &parseError{line: int(n.StartPoint().Row) + 1, why: "the parser reports " + article(nodeName(n.Type())) + " " + nodeName(n.Type())}
		tree.Close()
		return nil, perr
	}
	p := &parsed{lang: l, grammar: g, src: src, tree: tree, root: root, top: root}
	p.starts, p.ends = lineIndex(src[:len(src)-suffix], prefix)
	return p, nil
}

func (p *parsed) close() {
	if p.cursor != nil {
		p.cursor.Close()
	}
	p.tree.Close()
}

// lineIndex finds where each line of src[prefix:] starts and ends. Lines are
// counted as the core counts them: a final LF ends the last line rather than
// starting an empty one.
func lineIndex(src []byte, prefix int) (starts, ends []int) {
	pos := prefix
	lines := bytes.Count(src[prefix:], []byte{'\n'}) + 1
	starts, ends = make([]int, 0, lines), make([]int, 0, lines)
	for pos < len(src) {
		i := bytes.IndexByte(src[pos:], '\n')
		starts = append(starts, pos)
		if i < 0 {
			ends = append(ends, len(src))
			break
		}
		ends = append(ends, pos+i)
		pos += i + 1
	}
	return starts, ends
}

// lineCount is the number of text lines.
func (p *parsed) lineCount() int { return len(p.starts) }

// lineOf is the 1-based text line holding offset off.
func (p *parsed) lineOf(off int) int {
	return sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > off })
}

// firstError finds the first ERROR or MISSING node in document order.
func firstError(n *sitter.Node) *sitter.Node {
	if n.IsError() || n.IsMissing() {
		return n
	}
	if !n.HasError() {
		return nil
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if e := firstError(n.Child(i)); e != nil {
			return e
		}
	}
	return n
}

// grammarQueries keeps one query per grammar, made from the grammar's
// symbols on its first parse, so a server that parses nothing never reads
// the grammars' tables; a query is immutable, so one serves every parse
// after. A grammar whose patterns are none has a nil query.
type grammarQueries struct {
	what     string // what the query finds, for the panic of one that does not compile
	patterns func(g *sitter.Language) []string

	mu sync.Mutex // guards m
	m  map[*sitter.Language]*sitter.Query
}

func (c *grammarQueries) of(g *sitter.Language) *sitter.Query {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q, done := c.m[g]; done {
		return q
	}
	var q *sitter.Query
	if ps := c.patterns(g); len(ps) > 0 {
		var err error
		q, err = sitter.NewQuery([]byte(strings.Join(slices.Compact(slices.Sorted(slices.Values(ps))), "\n")), g)
		if err != nil {
			panic(fmt.Sprintf("blocks: the %s of a grammar do not make a query: %v", c.what, err))
		}
	}
	if c.m == nil {
		c.m = map[*sitter.Language]*sitter.Query{}
	}
	c.m[g] = q
	return q
}

// errorKinds finds, per grammar, the node kinds besides ERROR and MISSING
// that it produces only for input it cannot read as written, such as
// tree-sitter-html's erroneous_end_tag for an end tag it could not match
// (it loses track of deep nests of long tag names). HasError does not see
// them; a tree holding one is no clean parse either. A kind is one when
// its name says error; kinds a tree never shows (hidden ones, such as the
// error-recovery tokens of external scanners) are left out.
var errorKinds = &grammarQueries{what: "error kinds", patterns: func(g *sitter.Language) []string {
	var patterns []string
	for sym := sitter.Symbol(0); uint32(sym) < g.SymbolCount(); sym++ {
		name := g.SymbolName(sym)
		lower := strings.ToLower(name)
		if !strings.Contains(lower, "error") && !strings.Contains(lower, "erroneous") {
			continue
		}
		switch g.SymbolType(sym) {
		case sitter.SymbolTypeRegular:
			patterns = append(patterns, "("+name+") @error")
		case sitter.SymbolTypeAnonymous:
			patterns = append(patterns, strconv.Quote(name)+" @error")
		}
	}
	return patterns
}}

// firstErrorKind finds the first node, in document order, that q matches.
func firstErrorKind(root *sitter.Node, q *sitter.Query) *sitter.Node {
	if q == nil {
		return nil
	}
	var first *sitter.Node
	eachCapture(q, root, func(n *sitter.Node) {
		if first == nil || n.StartByte() < first.StartByte() {
			first = n
		}
	})
	return first
}

// eachCapture calls f with every node q captures below n.
func eachCapture(q *sitter.Query, n *sitter.Node, f func(*sitter.Node)) {
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, n)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			return
		}
		for _, c := range m.Captures {
			f(c.Node)
		}
	}
}

// hasFlowPragma reports whether the comments before a script's first token
// carry @flow, which is where Flow looks for it.
func hasFlowPragma(text string) bool {
	s := text
	if strings.HasPrefix(s, "#!") {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		} else {
			return false
		}
	}
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		var comment string
		switch {
		case strings.HasPrefix(s, "//"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				i = len(s)
			}
			comment, s = s[:i], s[i:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return false
			}
			comment, s = s[:i], s[i+2:]
		default:
			return false
		}
		if hasFlowWord(comment) {
			return true
		}
	}
}

func hasFlowWord(comment string) bool {
	for i := 0; ; {
		j := strings.Index(comment[i:], "@flow")
		if j < 0 {
			return false
		}
		end := i + j + len("@flow")
		if end == len(comment) || !isIdentByte(comment[end]) {
			return true
		}
		i = end
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// jsonPrefix and jsonSuffix wrap a JSON text into one JavaScript expression.
// The newline keeps a trailing line comment from swallowing the parenthesis;
// the opening parenthesis shares the first line, so line numbers stay put.
const (
	jsonPrefix = "("
	jsonSuffix = "\n)"
)

// parseJSON reads JSON through the JavaScript grammar (docs/contract.md §10.4), accepting
// only a program whose one statement is the wrapped value, and only values
// built from JSON's own constructs.
func parseJSON(l *lang, text string) (*parsed, *parseError) {
	what := "JSON"
	if l.json == jsonLoose {
		what = "JSON with comments"
	}
	src := []byte(jsonPrefix + text + jsonSuffix)
	p, perr := parseWith(l, l.grammar, src, len(jsonPrefix), len(jsonSuffix))
	if perr != nil {
		perr.what = what
		return nil, perr
	}
	value := jsonValue(p)
	if value == nil {
		p.close()
		return nil, &parseError{what: what, why: "the text is not a single JSON value"}
	}
	// A text encoding/json accepts is built of JSON's constructs only; any
	// other is searched for the first construct JSON does not have, which
	// says where it goes wrong better than the decoder does.
	valid := l.json == jsonStrict && json.Valid([]byte(text))
	var bad *sitter.Node
	if !valid {
		bad = p.notJSON(value)
	}
	if bad != nil {
		// Read the node before the tree it belongs to is freed.
		perr := &parseError{what: what, line: p.lineOf(int(bad.StartByte())),
			why: fmt.Sprintf("%s is not JSON", nodeName(bad.Type()))}
		p.close()
		return nil, perr
	}
	if l.json == jsonStrict && !valid {
		err := strictJSON(text)
		p.close()
		perr := &parseError{what: what, why: err.Error()}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			perr.line = strings.Count(text[:min(int(se.Offset), len(text))], "\n") + 1
		}
		return nil, perr
	}
	p.top = value
	return p, nil
}

// strictJSON says why encoding/json rejects text: decoding it locates the
// error.
func strictJSON(text string) error {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return err
	}
	return errors.New("encoding/json rejects the text")
}

// jsonValue finds the value inside the wrapper: nil when the program is
// anything but the wrapped expression.
func jsonValue(p *parsed) (value *sitter.Node) {
	root := p.root
	if root.NamedChildCount() != 1 {
		return nil
	}
	stmt := root.NamedChild(0)
	if stmt.Type() != "expression_statement" || stmt.NamedChildCount() != 1 {
		return nil
	}
	paren := stmt.NamedChild(0)
	if paren.Type() != "parenthesized_expression" || paren.StartByte() != 0 || int(paren.EndByte()) != len(p.src) {
		return nil
	}
	for i := 0; i < int(paren.NamedChildCount()); i++ {
		c := paren.NamedChild(i)
		if p.lang.isComment(c.Type()) {
			continue
		}
		if value != nil {
			return nil
		}
		value = c
	}
	return value
}

// jsonTypes are the JavaScript node types a JSON value is made of.
var jsonTypes = setOf("object", "array", "pair", "string", "string_fragment", "escape_sequence",
	"number", "true", "false", "null")

// notJSON finds the first node of value, in document order, that JSON
// does not have. A query finds the candidates in C: a large JSON file has
// hundreds of thousands of nodes, and asking for each from Go costs calls
// into C that outweigh the parse.
func (p *parsed) notJSON(value *sitter.Node) *sitter.Node {
	var first *sitter.Node
	eachCapture(jsonQueries.of(p.grammar), value, func(n *sitter.Node) {
		switch p.typ(n) {
		case "unary_expression":
			// A negative number: "-" then a number, nothing else.
			if p.childCount(n) == 2 && p.typ(p.child(n, 0)) == "-" && p.typ(p.child(n, 1)) == "number" {
				return
			}
		case "string":
			return // a pair's key
		}
		// The first in document order: the outer of two that start
		// together.
		if first == nil || p.start(n) < p.start(first) || p.start(n) == p.start(first) && p.end(n) > p.end(first) {
			first = n
		}
	})
	return first
}

// jsonQueries finds, per grammar, the nodes of a JSON value that may not
// be JSON: every named node type JSON does not have, but comments;
// negative numbers; and the keys of pairs.
var jsonQueries = &grammarQueries{what: "JSON checks", patterns: func(g *sitter.Language) []string {
	patterns := []string{"(unary_expression) @node", "(pair key: (_) @node)"}
	for sym := sitter.Symbol(0); uint32(sym) < g.SymbolCount(); sym++ {
		name := g.SymbolName(sym)
		if g.SymbolType(sym) != sitter.SymbolTypeRegular || jsonTypes[name] || strings.Contains(name, "comment") || name == "unary_expression" {
			continue
		}
		patterns = append(patterns, "("+name+") @node")
	}
	return patterns
}}

// nodeName renders a node type for a message: "function_item" reads as
// "function item".
func nodeName(t string) string { return strings.ReplaceAll(t, "_", " ") }

package blocks

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"hashline-ls/internal/testenv"
)

// walkedOpener is a line that opens a multi-line construct, found by walking
// the whole tree rather than by resolving the line.
type walkedOpener struct {
	line, end  int    // the outermost construct's lines
	start, off int    // its text in bytes: [start, off)
	kind       string // its node type
	midLine    bool   // its last line goes on with something else
	// docEnd is, for the first line of an attached doc comment, the
	// comment's last line; 0 for every other opener.
	docEnd int
}

// leadingComment is a comment that begins its line and has nothing but
// space after it on its last line.
type leadingComment struct {
	line, last int
	start      int  // its first byte
	doc        bool // a doc comment by the language's convention
}

// walkOpeners lists every line where a named node starts (its text begins
// the line) and ends on a later line, and is neither the root, a comment,
// an ignored marker, nor a transparent container; and the first line of
// every attached doc comment. That is the package's definition of a block
// opener. It also counts the nodes that start a line and span lines but are
// left out by those exclusions.
//
// An attached doc comment is found here from the comment nodes, not from
// lines as the resolver finds it: a run of doc comments, each beginning
// the line after the one before ends, whose last line is directly followed
// by a walked opener that the language lets a doc comment document (by the
// types of the nodes that begin its line).
func walkOpeners(p *parsed) (openers map[int]*walkedOpener, excluded map[string]int) {
	openers = map[int]*walkedOpener{}
	excluded = map[string]int{}
	var comments []leadingComment
	multiLine := map[int]bool{} // the first lines of multi-line comments
	// starting lists, by line, the named nodes whose text begins the line,
	// and whether each is a child of the root.
	type node struct {
		kind string
		top  bool
	}
	starting := map[int][]node{}
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		for i := 0; i < int(n.NamedChildCount()); i++ {
			visit(n.NamedChild(i))
		}
		ts := p.textStart(n)
		if ts < 0 || p.same(n, p.root) {
			return
		}
		line := p.lineOf(ts)
		if firstNonSpace(p.src, p.starts[line-1], p.ends[line-1]) != ts {
			return
		}
		starting[line] = append(starting[line], node{p.typ(n), n.Parent() != nil && p.same(n.Parent(), p.root)})
		endOff := p.contentEnd(n)
		end := p.lineOf(endOff - 1)
		if p.lang.isComment(p.typ(n)) {
			last := p.end(n)
			for last > ts && isSpace(p.src[last-1]) {
				last--
			}
			end = p.lineOf(last - 1)
			outermost := !p.lang.isComment(n.Parent().Type())
			if p.lang.doc != nil && outermost && firstNonSpace(p.src, last, p.ends[end-1]) < 0 {
				comments = append(comments, leadingComment{line: line, last: end, start: ts,
					doc: p.lang.doc(string(p.src[ts:min(ts+8, len(p.src))]), ts == p.starts[0])})
			}
		}
		if end <= line {
			return
		}
		if p.lang.isComment(p.typ(n)) {
			multiLine[line] = true // counted once the doc comments are known
			return
		}
		if p.excluded(n) {
			kind := "transparent or ignored " + p.typ(n)
			if p.same(n, p.top) {
				kind = "top-level value"
			}
			excluded[kind]++
			return
		}
		o := openers[line]
		if o == nil || p.start(n) <= o.start && endOff >= o.off {
			_, clean := p.tail(endOff, end)
			openers[line] = &walkedOpener{line: line, end: end, start: ts, off: endOff, kind: p.typ(n), midLine: !clean}
		}
	}
	visit(p.root)

	sort.Slice(comments, func(i, j int) bool { return comments[i].start < comments[j].start })
	for i := 0; i < len(comments); {
		if !comments[i].doc {
			i++
			continue
		}
		j := i + 1
		for j < len(comments) && comments[j].doc && comments[j].line == comments[j-1].last+1 {
			j++
		}
		first, last := comments[i], comments[j-1]
		i = j
		decl := openers[last.last+1]
		if decl == nil || decl.midLine || decl.docEnd > 0 {
			continue
		}
		documents := p.lang.docTargets == nil
		for _, n := range starting[decl.line] {
			if p.lang.docTargets == nil && declaresNothing(n.kind) {
				documents = false
				break
			}
			if p.lang.docTargets[n.kind] && (!p.lang.docTopLevel || n.top) {
				documents = true
			}
		}
		if !documents {
			continue
		}
		openers[first.line] = &walkedOpener{line: first.line, end: decl.end, start: first.start, off: decl.off,
			kind: "doc comment and " + decl.kind, docEnd: last.last}
	}
	// A multi-line comment that begins an attached doc comment is an opener;
	// every other one (a later comment of such a run included) is never a
	// block.
	for line := range multiLine {
		if o := openers[line]; o == nil || o.docEnd == 0 {
			excluded["comment"]++
		}
	}
	return openers, excluded
}

// corpusTally is what one corpus file (or all of them) came to.
type corpusTally struct {
	lines, parsed, openers, resolved, midLine, cuts, cutsParse int
	// docOpeners counts the openers that are attached doc comments,
	// docCutsParse those whose CUT leaves a file that parses, and
	// docMiddles the later lines of those comments, each declined with the
	// comment's first line.
	docOpeners, docCutsParse, docMiddles           int
	unparsed, failures, defects, required, midList []string
	excluded                                       map[string]int
}

func (a *corpusTally) add(b *corpusTally) {
	a.lines += b.lines
	a.parsed += b.parsed
	a.openers += b.openers
	a.resolved += b.resolved
	a.midLine += b.midLine
	a.cuts += b.cuts
	a.cutsParse += b.cutsParse
	a.docOpeners += b.docOpeners
	a.docCutsParse += b.docCutsParse
	a.docMiddles += b.docMiddles
	a.unparsed = append(a.unparsed, b.unparsed...)
	a.failures = append(a.failures, b.failures...)
	a.defects = append(a.defects, b.defects...)
	a.required = append(a.required, b.required...)
	a.midList = append(a.midList, b.midList...)
	for k, v := range b.excluded {
		a.excluded[k] += v
	}
}

// TestCorpus resolves every opener line of every input file of the shared
// react-edit corpus, and checks that CUT N* of each leaves a file that
// still parses. Files run in parallel, which also puts one Resolver under
// concurrent use.
func TestCorpus(t *testing.T) {
	dir := testenv.Corpus(t, "react-edit")
	files, err := filepath.Glob(filepath.Join(dir, "*", "input", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no task under %s holds an input file", dir)
	}
	r := New()
	tallies := make([]*corpusTally, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				tallies[i] = corpusFile(t, r, dir, files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	all := &corpusTally{excluded: map[string]int{}}
	for _, c := range tallies {
		all.add(c)
	}
	t.Logf("corpus: %d files, %d lines; %d parse cleanly", len(files), all.lines, all.parsed)
	for _, u := range all.unparsed {
		t.Logf("  not parsed (every block op on it declines): %s", u)
	}
	t.Logf("opener lines: %d, resolved to exactly the walked span: %d", all.openers, all.resolved)
	t.Logf("of those, attached doc comments: %d; their later lines, declined with the first: %d", all.docOpeners, all.docMiddles)
	t.Logf("multi-line constructs whose last line goes on with other code (declined, not openers): %d", all.midLine)
	for _, m := range all.midList {
		t.Logf("  %s", m)
	}
	for k, v := range all.excluded {
		t.Logf("multi-line nodes starting a line but never blocks: %s: %d", k, v)
	}
	t.Logf("CUT N*: %d cuts, %d leave a file that parses (%d of %d doc comment cuts); %d remove a construct its parent requires; %d span defects",
		all.cuts, all.cutsParse, all.docCutsParse, all.docOpeners, len(all.required), len(all.defects))
	for _, s := range all.required {
		t.Logf("  %s", s)
	}
	for _, f := range all.failures {
		t.Errorf("opener not resolved as walked: %s", f)
	}
	for _, d := range all.defects {
		t.Errorf("%s", d)
	}
}

// corpusFile checks one corpus file.
func corpusFile(t *testing.T, r *Resolver, dir, file string) *corpusTally {
	c := &corpusTally{excluded: map[string]int{}}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Error(err)
		return c
	}
	text := strings.ReplaceAll(strings.TrimPrefix(string(raw), "\uFEFF"), "\r\n", "\n")
	name, _ := filepath.Rel(dir, file)
	c.lines = countLines(text)
	l := lookup(file)
	if l == nil {
		c.unparsed = append(c.unparsed, name+": no grammar")
		return c
	}
	p, perr := parse(l, text)
	if perr != nil {
		c.unparsed = append(c.unparsed, name+": "+perr.reason())
		return c
	}
	c.parsed++
	found, excluded := walkOpeners(p)
	p.close()
	c.excluded = excluded
	keys := make([]int, 0, len(found))
	for line := range found {
		keys = append(keys, line)
	}
	sort.Ints(keys)
	textLines := strings.SplitAfter(text, "\n")
	for _, line := range keys {
		o := found[line]
		block, err := r.ResolveBlock(file, text, line)
		reason := reasonOf(err)
		if o.midLine {
			c.midLine++
			c.midList = append(c.midList, fmt.Sprintf("%s:%d %s: %s", name, line, o.kind, reason))
			if err == nil || !strings.Contains(reason, "ends inside line") {
				c.failures = append(c.failures, fmt.Sprintf("%s:%d %s ends mid-line but resolved %d-%d %q", name, line, o.kind, block.Start, block.End, reason))
			}
			continue
		}
		c.openers++
		if o.docEnd > 0 {
			c.docOpeners++
			for mid := line + 1; mid <= o.docEnd; mid++ {
				_, midErr := r.ResolveBlock(file, text, mid)
				if why := reasonOf(midErr); midErr == nil || !strings.Contains(why, fmt.Sprintf("inside the doc comment that starts on line %d:", line)) {
					c.failures = append(c.failures, fmt.Sprintf("%s:%d, a later line of the doc comment on line %d, gave ok=%v %q", name, mid, line, midErr == nil, why))
					continue
				}
				c.docMiddles++
			}
		}
		if err != nil {
			c.failures = append(c.failures, fmt.Sprintf("%s:%d %s (lines %d-%d) declined: %s", name, line, o.kind, o.line, o.end, reason))
			continue
		}
		if block.Start != line || block.End != o.end {
			c.failures = append(c.failures, fmt.Sprintf("%s:%d %s is lines %d-%d but resolved to %d-%d", name, line, o.kind, o.line, o.end, block.Start, block.End))
			continue
		}
		c.resolved++
		c.cuts++
		cut := strings.Join(textLines[:block.Start-1], "") + strings.Join(textLines[block.End:], "")
		if clean, _ := r.Parses(file, cut); clean {
			c.cutsParse++
			if o.docEnd > 0 {
				c.docCutsParse++
			}
			continue
		}
		// Removing only the construct's own text tells a construct its
		// parent requires (the value after "x =", the JSX a return holds)
		// from a span that took too much or too little.
		if clean, _ := r.Parses(file, text[:o.start]+text[o.off:]); clean {
			c.defects = append(c.defects, fmt.Sprintf("%s: CUT %d* (%s, lines %d-%d) breaks the file, though removing the construct's own text does not", name, line, o.kind, block.Start, block.End))
			continue
		}
		c.required = append(c.required, fmt.Sprintf("%s: CUT %d* removes a %s that its parent requires (lines %d-%d)", name, line, o.kind, block.Start, block.End))
	}
	return c
}

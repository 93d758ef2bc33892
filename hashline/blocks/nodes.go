package blocks

import (
	"sort"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// What the resolver asks of the tree's nodes. Every question is a call
// into C, which costs as much as dozens of map lookups, and resolution
// asks the same few of the same nodes many times over (an outline resolves
// a line for every declaration); so a parse keeps what it was told of each
// node it looked at, and a node's type is read from its grammar's symbol
// table, one call for what would be three.
//
// A walk down the tree to an offset asks, at each node, for the child that
// holds it. Asking the C tree for each sibling in turn costs a call per
// sibling, and a file's root has as many children as the file has
// declarations, a function's body as many as it has statements; so the
// children of a node are looked at lazily, by index, and listed in full,
// once per parse, only for a node that is searched again and again.

// nodeInfo is what a parse was told of one node. It is kept by value: a
// parse looks at thousands of nodes, and one allocation for each costs
// more than the copies.
type nodeInfo struct {
	start, end uint32
	symbol     sitter.Symbol
	ranged     bool // start and end are set
	typed      bool // symbol is set
}

// info is what the parse knows of n. A tree hands out one *sitter.Node for
// each of its nodes, however it was reached, so the node itself keys it.
func (p *parsed) info(n *sitter.Node) nodeInfo { return p.infos[n] }

func (p *parsed) keep(n *sitter.Node, i nodeInfo) {
	if p.infos == nil {
		p.infos = make(map[*sitter.Node]nodeInfo, len(p.starts)/2)
	}
	p.infos[n] = i
}

func (p *parsed) ranged(n *sitter.Node) nodeInfo {
	i := p.info(n)
	if !i.ranged {
		i.start, i.end, i.ranged = n.StartByte(), n.EndByte(), true
		p.keep(n, i)
	}
	return i
}

func (p *parsed) symbolOf(n *sitter.Node) sitter.Symbol {
	i := p.info(n)
	if !i.typed {
		i.symbol, i.typed = n.Symbol(), true
		p.keep(n, i)
	}
	return i.symbol
}

func (p *parsed) start(n *sitter.Node) int { return int(p.ranged(n).start) }
func (p *parsed) end(n *sitter.Node) int   { return int(p.ranged(n).end) }

// typ is n's type, as Node.Type names it.
func (p *parsed) typ(n *sitter.Node) string {
	if t, s := p.symbols(), p.symbolOf(n); int(s) < len(t.names) {
		return t.names[s]
	}
	return n.Type() // ERROR, which no table lists
}

// named reports whether n is a named node, as Node.IsNamed does.
func (p *parsed) named(n *sitter.Node) bool {
	if t, s := p.symbols(), p.symbolOf(n); int(s) < len(t.named) {
		return t.named[s]
	}
	return n.IsNamed()
}

func (p *parsed) symbols() *symbolTable {
	if p.table == nil {
		p.table = symbolsOf(p.grammar)
	}
	return p.table
}

// same reports whether a and b are one node.
func (p *parsed) same(a, b *sitter.Node) bool {
	return a == b || p.start(a) == p.start(b) && p.end(a) == p.end(b) && p.symbolOf(a) == p.symbolOf(b)
}

// symbolTable is one grammar's symbols: their names, and which are named.
type symbolTable struct {
	names []string
	named []bool
}

var symbolTables = struct {
	mu sync.Mutex // guards m
	m  map[*sitter.Language]*symbolTable
}{m: map[*sitter.Language]*symbolTable{}}

// symbolsOf is g's symbol table, read from the grammar on first use and
// never changed after, like the grammar itself.
func symbolsOf(g *sitter.Language) *symbolTable {
	symbolTables.mu.Lock()
	defer symbolTables.mu.Unlock()
	if t, ok := symbolTables.m[g]; ok {
		return t
	}
	n := int(g.SymbolCount())
	t := &symbolTable{names: make([]string, n), named: make([]bool, n)}
	for s := range n {
		t.names[s] = g.SymbolName(sitter.Symbol(s))
		t.named[s] = g.SymbolType(sitter.Symbol(s)) == sitter.SymbolTypeRegular
	}
	symbolTables.m[g] = t
	return t
}

func (p *parsed) childCount(n *sitter.Node) int { return p.childrenOf(n).count }

// child is n's child i.
func (p *parsed) child(n *sitter.Node, i int) *sitter.Node { return p.childrenOf(n).child(i) }

// children are what a parse knows of one node's children: child i is
// nodes[i] once it has been looked at, nil before.
type children struct {
	n        *sitter.Node
	count    int
	nodes    []*sitter.Node
	full     bool // every child has been looked at
	searches int
	// starts and ends hold every child's byte range once a full list is
	// searched: a search then reads no map.
	starts, ends []int
}

// listAfter is how many searches of one node's children are made by
// index before they are listed in full.
const listAfter = 2

func (p *parsed) childrenOf(n *sitter.Node) *children {
	if c, ok := p.kids[n]; ok {
		return c
	}
	count := int(n.ChildCount())
	c := &children{n: n, count: count, nodes: make([]*sitter.Node, count)}
	if p.kids == nil {
		p.kids = make(map[*sitter.Node]*children, len(p.starts))
	}
	p.kids[n] = c
	return c
}

// child looks at child i.
func (c *children) child(i int) *sitter.Node {
	if c.nodes[i] == nil {
		c.nodes[i] = c.n.Child(i)
	}
	return c.nodes[i]
}

// list looks at every child, walking them with the parse's cursor.
func (c *children) list(p *parsed) {
	cur := p.cursorAt(c.n)
	i := 0
	for ok := cur.GoToFirstChild(); ok && i < c.count; ok = cur.GoToNextSibling() {
		if c.nodes[i] == nil {
			c.nodes[i] = cur.CurrentNode()
		}
		i++
	}
	c.full = true
}

// all lists the children in order.
func (c *children) all(p *parsed) []*sitter.Node {
	if !c.full {
		c.list(p)
	}
	return c.nodes
}

// at is the first child, in order, that holds offset off; nil when none
// does. Siblings do not overlap and come in order, so their ends do not
// decrease: the first that ends after off is the only one that may hold
// it.
func (c *children) at(p *parsed, off int) *sitter.Node {
	if c.count == 0 {
		return nil
	}
	c.searches++
	if !c.full && c.searches > listAfter {
		c.list(p)
	}
	if c.full {
		return c.search(p, off)
	}
	// Offsets at a node's start and end are searched most (where a
	// construct opens and ends, what follows it): the nearer of its first
	// and last child first.
	lo, hi := 0, c.count-1
	for _, i := range c.ends2(p, off) {
		ch := c.child(i)
		switch {
		case i == 0 && p.end(ch) > off:
			if p.start(ch) <= off {
				return ch
			}
			return nil
		case i == 0:
			lo = 1
		case p.end(ch) <= off:
			return nil
		case p.start(ch) <= off:
			return ch
		default:
			hi = i
		}
	}
	if lo > hi {
		return nil
	}
	i := lo + sort.Search(hi-lo, func(i int) bool { return p.end(c.child(lo+i)) > off })
	if ch := c.child(i); p.end(ch) > off && p.start(ch) <= off {
		return ch
	}
	return nil
}

// ends2 orders the first and the last child by how near off is to each
// end of the node.
func (c *children) ends2(p *parsed, off int) []int {
	if c.count == 1 {
		return []int{0}
	}
	if off-p.start(c.n) <= p.end(c.n)-off {
		return []int{0, c.count - 1}
	}
	return []int{c.count - 1, 0}
}

// search is at for a full list.
func (c *children) search(p *parsed, off int) *sitter.Node {
	if c.ends == nil {
		c.starts, c.ends = make([]int, c.count), make([]int, c.count)
		for i, ch := range c.nodes {
			c.starts[i], c.ends[i] = p.start(ch), p.end(ch)
		}
	}
	i := sort.SearchInts(c.ends, off+1)
	if i < c.count && c.starts[i] <= off {
		return c.nodes[i]
	}
	return nil
}

// cursorAt is the parse's one tree cursor, reset to n: a cursor of its own
// for every node listed would cost more than the listing.
func (p *parsed) cursorAt(n *sitter.Node) *sitter.TreeCursor {
	if p.cursor == nil {
		p.cursor = sitter.NewTreeCursor(n)
	} else {
		p.cursor.Reset(n)
	}
	return p.cursor
}

// descend lists the nodes from n down to the deepest one holding offset
// off. It searches each node's children itself rather than asking a cursor
// to jump to the child for a byte: that jump misses children in this
// tree-sitter version (a markdown section's children after a zero-width
// node). The rules ask for the same chain several times in a row (what a
// line's first byte is, whether it is a comment, which comment), so the
// last one is kept; the caller must not modify it.
func (p *parsed) descend(n *sitter.Node, off int) []*sitter.Node {
	if last := &p.lastDescend; last.chain != nil && last.from == n && last.off == off {
		return last.chain
	}
	out := make([]*sitter.Node, 1, 16)
	out[0] = n
	for from := n; ; {
		c := p.childrenOf(n).at(p, off)
		if c == nil {
			p.lastDescend = descent{from, off, out}
			return out
		}
		out = append(out, c)
		n = c
	}
}

// descent is one chain descend found: from node from down to offset off.
type descent struct {
	from  *sitter.Node
	off   int
	chain []*sitter.Node
}

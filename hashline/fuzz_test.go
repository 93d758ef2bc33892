package hashline

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Seed corpora live in testdata/fuzz/<target>; every header form and the
// inputs that once broke something are there.

var knownCodes = map[Code]bool{
	CodeTagRequired: true, CodeTagMismatch: true, CodeTagUnknown: true, CodeLinesUnseen: true,
	CodeParseFailed: true, CodeRangeInvalid: true, CodeBlockUnresolved: true, CodeRegisterEmpty: true,
	CodeRegisterAmbiguous: true, CodeRepairAmbiguous: true, CodeNoChange: true, CodeAmplificationLimit: true,
	CodeInvalidArgument: true, CodePathOutsideWorkspace: true, CodeToolFailed: true,
}

func checkFailure(t *testing.T, err error) *Error {
	t.Helper()
	var he *Error
	if !errors.As(err, &he) {
		t.Fatalf("error %T %v is not an *Error", err, err)
	}
	if !knownCodes[he.Code] {
		t.Fatalf("unknown code %q: %v", he.Code, err)
	}
	if strings.TrimSpace(he.Message) == "" {
		t.Fatalf("%s with an empty message", he.Code)
	}
	return he
}

// canonicalOps spells a parsed patch the way the grammar does.
func canonicalOps(p *Patch) string {
	var b strings.Builder
	if p.HeaderPath != "" {
		b.WriteString(Header(p.HeaderPath, p.HeaderTag) + "\n")
	}
	for i := range p.Ops {
		b.WriteString(p.Ops[i].Canonical() + "\n")
		for _, row := range p.Ops[i].Body {
			b.WriteString("+" + row + "\n")
		}
	}
	return b.String()
}

type opShape struct {
	Kind     OpKind
	Loc      Locator
	Register string
	Body     []string
	Dest     string
}

func shapes(p *Patch) []opShape {
	out := make([]opShape, len(p.Ops))
	for i, o := range p.Ops {
		out[i] = opShape{o.Kind, o.Loc, o.Register, o.Body, o.Dest}
	}
	return out
}

func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, ops string) {
		p, err := Parse(ops)
		if err != nil {
			checkFailure(t, err)
			return
		}
		if len(p.Ops) == 0 {
			t.Fatalf("Parse(%q) succeeded with no ops", ops)
		}
		canon := canonicalOps(p)
		q, err := Parse(canon)
		if err != nil {
			t.Fatalf("canonical form of %q does not parse:\n%s\n%v", ops, canon, err)
		}
		if !slices.EqualFunc(shapes(p), shapes(q), func(a, b opShape) bool {
			return a.Kind == b.Kind && a.Loc == b.Loc && a.Register == b.Register && a.Dest == b.Dest && slices.Equal(a.Body, b.Body)
		}) || p.HeaderPath != q.HeaderPath || p.HeaderTag != q.HeaderTag {
			t.Fatalf("canonical form of %q parses differently:\n%s\n%+v\n%+v", ops, canon, shapes(p), shapes(q))
		}
		if len(q.Warnings) != 0 {
			t.Fatalf("canonical form %q draws warnings %+v", canon, q.Warnings)
		}
	})
}

// braceBlocks is a stand-in block resolver: a line ending in "{" opens a
// block that ends where its braces balance.
type braceBlocks struct{}

func (braceBlocks) ResolveBlock(_ string, text string, line int) (Span, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if line < 1 || line > len(lines) || !strings.HasSuffix(strings.TrimRight(lines[line-1], " \t"), "{") {
		return Span{}, errors.New("the line opens no block")
	}
	depth := 0
	for k := line - 1; k < len(lines); k++ {
		depth += strings.Count(lines[k], "{") - strings.Count(lines[k], "}")
		if depth <= 0 && k > line-1 {
			return Span{Start: line, End: k + 1}, nil
		}
	}
	return Span{}, errors.New("the block never closes")
}

// modelOps turns parsed ops into the model's, resolving blocks with the
// same stand-in resolver over the model's own reading of the text. ok is
// false for REM, which the model has no lines for.
func modelOps(ops []Op, raw string) (out []mop, ok bool) {
	_, ol := splitRaw(raw)
	var norm strings.Builder
	for _, l := range ol {
		norm.WriteString(l.content + "\n")
	}
	n := len(ol)
	for _, o := range ops {
		m := mop{reg: o.Register, body: o.Body}
		switch o.Kind {
		case OpPut:
			m.verb = mPut
		case OpPaste:
			m.verb = mPaste
		case OpCut:
			m.verb = mCut
		case OpMove:
			continue
		default:
			return nil, false
		}
		switch o.Loc.Kind {
		case LocRange:
			m.loc = mloc{'r', o.Loc.N, o.Loc.M}
		case LocBefore:
			m.loc = mloc{'<', o.Loc.N, 0}
		case LocAfter:
			m.loc = mloc{'>', o.Loc.N, 0}
		case LocEnd:
			m.loc = mloc{'$', 0, 0}
		case LocBlock, LocAfterBlock:
			block, err := braceBlocks{}.ResolveBlock("", norm.String(), o.Loc.N)
			if err != nil || o.Loc.N > n {
				return nil, false
			}
			m.loc = mloc{'r', block.Start, block.End}
			if o.Loc.Kind == LocAfterBlock {
				m.loc = mloc{'>', block.End, 0}
			}
		}
		out = append(out, m)
	}
	return out, true
}

// checkEditPlan holds for every plan, whatever the ops.
func checkEditPlan(t *testing.T, p *Plan, live *Text, ops string, session map[string][]string) mresult {
	t.Helper()
	old := live.Raw()
	pos, npos := 0, 0
	nw := p.New.Raw()
	for _, e := range p.Edits {
		if e.Start < pos || e.End < e.Start || e.End > len(old) {
			t.Fatalf("byte edits out of order or bounds: %+v", p.Edits)
		}
		keep := old[pos:e.Start]
		if !strings.HasPrefix(nw[npos:], keep) || !strings.HasPrefix(nw[npos+len(keep):], e.New) {
			t.Fatalf("bytes outside the edits changed: old %q new %q edits %+v", old, nw, p.Edits)
		}
		npos += len(keep) + len(e.New)
		pos = e.End
	}
	if nw[npos:] != old[pos:] {
		t.Fatalf("the tail outside the edits changed: old %q new %q", old, nw)
	}
	if got := ApplyEdits(old, p.Edits); got != nw {
		t.Fatalf("New.Raw() %q != ApplyEdits(old, Edits) %q", nw, got)
	}
	if p.Remove || p.Move != "" {
		return mresult{}
	}
	if p.New.Normalized() == live.Normalized() {
		t.Fatalf("a plan that changes nothing succeeded: %q", old)
	}
	patch, err := Parse(ops)
	if err != nil {
		t.Fatalf("planned ops do not parse: %v", err)
	}
	mops, ok := modelOps(patch.Ops, old)
	if !ok {
		return mresult{}
	}
	res := runModel(contents(mustSplit(old)), mops, session)
	if res.code != "" {
		t.Fatalf("the package planned ops the model rejects with %s", res.code)
	}
	if err := checkPlan(p, live, res); err != nil {
		t.Fatalf("plan differs from the model: %v\nold %q\nnew %q", err, old, nw)
	}
	return res
}

func mustSplit(raw string) []mline {
	_, l := splitRaw(raw)
	return l
}

// FuzzEdit drives arbitrary bytes and ops through Read and Plan. mode picks
// the tag (bits 0-1: live, live in lower case, another valid tag, the
// first four bytes of ops) and what the session read (bits 2-3: all of it,
// its first half, nothing, or a grep that showed no line).
func FuzzEdit(f *testing.F) {
	f.Fuzz(func(t *testing.T, file []byte, mode byte, ops string) {
		live := NewText(string(file))
		s := NewSession()
		switch mode >> 2 & 3 {
		case 0:
			s.Read(propPath, propPath, live, 1, live.Len())
		case 1:
			s.Read(propPath, propPath, live, 1, live.Len()/2)
		case 3:
			s.Record(propPath, live, &LineSet{})
		}
		tag := string(live.Tag())
		switch mode & 3 {
		case 1:
			tag = strings.ToLower(tag)
		case 2:
			tag = tag[:3] + string("0123456789ABCDEF"[(strings.IndexByte(hexDigits, tag[3])+1)%16])
		case 3:
			tag = ops[:min(4, len(ops))]
		}
		req := request(tag, ops)
		req.Blocks = braceBlocks{}
		p, err := s.Plan(req, live)
		if err != nil {
			checkFailure(t, err)
			return
		}
		res := checkEditPlan(t, p, live, ops, nil)
		if p.Remove || p.Move != "" || p.Path != propPath {
			return
		}
		// The session authored what landed: the same ops against it,
		// under its tag, either plan or fail cleanly.
		s.Commit(p, propPath, p.New)
		req.Tag = string(p.New.Tag())
		p2, err := s.Plan(req, p.New)
		if err != nil {
			checkFailure(t, err)
			return
		}
		checkEditPlan(t, p2, p.New, ops, res.captures)
	})
}

package hashline

import (
	"fmt"
	"strconv"
	"strings"
)

// LocKind is the shape of a locator (docs/contract.md §8.1).
type LocKind int

const (
	LocRange      LocKind = iota + 1 // N.=M
	LocBlock                         // N*
	LocBefore                        // <N
	LocAfter                         // >N
	LocEnd                           // >$
	LocAfterBlock                    // >N*
)

// Locator names lines or a gap of the tagged snapshot.
type Locator struct {
	Kind LocKind
	N, M int // M is set for LocRange only
}

func (l Locator) String() string {
	switch l.Kind {
	case LocRange:
		return fmt.Sprintf("%d.=%d", l.N, l.M)
	case LocBlock:
		return fmt.Sprintf("%d*", l.N)
	case LocBefore:
		return fmt.Sprintf("<%d", l.N)
	case LocAfter:
		return fmt.Sprintf(">%d", l.N)
	case LocEnd:
		return ">$"
	case LocAfterBlock:
		return fmt.Sprintf(">%d*", l.N)
	}
	return "?"
}

// isGap reports whether the locator names a gap rather than lines.
func (l Locator) isGap() bool {
	return l.Kind == LocBefore || l.Kind == LocAfter || l.Kind == LocEnd || l.Kind == LocAfterBlock
}

// OpKind is the verb of an op.
type OpKind int

const (
	OpPut   OpKind = iota + 1 // PUT with a body: replace or insert
	OpPaste                   // PUT without a colon: paste a register
	OpCut                     // CUT: delete and capture
	OpRem                     // REM: delete the file
	OpMove                    // MV: rename after the other ops
)

// Op is one parsed operation.
type Op struct {
	Kind     OpKind
	Loc      Locator
	Register string   // "" is the anonymous register
	Body     []string // OpPut only: the final text of each row
	Dest     string   // OpMove only
	Index    int      // 1-based position in the call
	Line     int      // line of the header in the ops text
	Text     string   // the header as written
}

// Canonical spells the op's header the way the grammar does.
func (o *Op) Canonical() string {
	reg := ""
	if o.Register != "" {
		reg = " @" + o.Register
	}
	switch o.Kind {
	case OpPut:
		return "PUT " + o.Loc.String() + ":"
	case OpPaste:
		return "PUT " + o.Loc.String() + reg
	case OpCut:
		return "CUT " + o.Loc.String() + reg
	case OpRem:
		return "REM"
	case OpMove:
		// A destination that could not be read back bare is quoted, as
		// parseDest requires.
		if o.Dest == "" || o.Dest[0] == '"' || strings.ContainsAny(o.Dest, " \t\r\n") {
			return "MV " + strconv.Quote(o.Dest)
		}
		return "MV " + o.Dest
	}
	return o.Text
}

// Patch is a parsed ops argument.
type Patch struct {
	// HeaderPath and HeaderTag are set when ops began with [path#TAG].
	HeaderPath string
	HeaderTag  Tag
	Ops        []Op
	Warnings   []Warning
}

// Warning is a note about something the server did on the caller's behalf.
type Warning struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Warning kinds.
const (
	WarnSpelling  = "spelling"
	WarnDrift     = "drift"
	WarnRecovered = "recovered"
	WarnStripped  = "stripped"
	WarnLanded    = "landed"
	WarnPath      = "path"
	WarnRepaired  = "repaired"
	// WarnUnsaved: a bridged write is in the editor's buffer but not on
	// disk.
	WarnUnsaved = "unsaved"
	// WarnEditor: which editor serves a bridged call, or that it went away.
	WarnEditor = "editor"
)

// Parse reads the ops argument of an edit (docs/contract.md §8). It checks only the text: line
// numbers are checked against the file when the ops are lowered.
func Parse(ops string) (*Patch, error) {
	if len(ops) > MaxOpsBytes {
		return nil, &Error{Code: CodeInvalidArgument, Details: Details{Field: "ops", Limit: MaxOpsBytes},
			Message: fmt.Sprintf("ops is %d bytes, over the %d-byte limit: split the change into several edit calls, re-reading between them", len(ops), MaxOpsBytes)}
	}
	p := &parser{patch: &Patch{}}
	if err := p.parse(ops); err != nil {
		return nil, err
	}
	return p.patch, nil
}

type parser struct {
	patch *Patch
	cur   *Op // the PUT whose body rows are being read
	line  int
	ended bool // a blank line closed cur's body
}

func (p *parser) parse(src string) error {
	lines := splitLines(src)
	for i, l := range lines {
		p.line = i + 1
		if h := strings.TrimRight(l, " \t"); i == 0 && headerRe.MatchString(h) {
			j := strings.LastIndexByte(h, '#')
			p.patch.HeaderPath, p.patch.HeaderTag = h[1:j], Tag(strings.ToUpper(h[j+1:len(h)-1]))
			continue
		}
		if err := p.parseLine(l); err != nil {
			return err
		}
	}
	if err := p.closeBody(); err != nil {
		return err
	}
	ops := p.patch.Ops
	if len(ops) == 0 {
		return parseErr(0, "", "ops holds no operation: write at least one header such as PUT 3.=3: followed by +new text, or CUT 3.=4")
	}
	if len(ops) > MaxOpsPerCall {
		return &Error{Code: CodeInvalidArgument, Details: Details{Field: "ops", Limit: MaxOpsPerCall},
			Message: fmt.Sprintf("ops holds %d operations, over the limit of %d per call: split the change into several edit calls, re-reading between them", len(ops), MaxOpsPerCall)}
	}
	moves := 0
	for i := range ops {
		switch ops[i].Kind {
		case OpRem:
			if len(ops) > 1 {
				return parseErr(ops[i].Index, ops[i].Text, "REM deletes the whole file and stands alone in its call: send REM by itself, or drop it and keep the other ops")
			}
		case OpMove:
			moves++
			if moves > 1 {
				return parseErr(ops[i].Index, ops[i].Text, "a call may move the file once: keep one MV line")
			}
		}
	}
	return nil
}

func (p *parser) parseLine(l string) error {
	if strings.TrimSpace(l) == "" {
		if p.cur != nil {
			p.ended = true
		}
		return nil
	}
	switch l[0] {
	case '+':
		return p.bodyRow(l[1:])
	case '-':
		if p.cur != nil && !p.ended {
			return parseErr(p.cur.Index, p.cur.Text, fmt.Sprintf("line %d of ops is a -old row; there are none: the range of %s already removes the old lines, so list only the new text as + rows (a literal leading - is written +-)", p.line, p.cur.Canonical()))
		}
	case ' ', '\t':
		// Checked before the body closes, so a context row straight under
		// a header is not misread as an empty PUT and sent to CUT.
		if p.cur != nil && !p.ended {
			if msg := indentedRow(p.line, l); msg != "" {
				return parseErr(p.cur.Index, p.cur.Text, msg)
			}
		}
	}
	if err := p.closeBody(); err != nil {
		return err
	}
	op, warn, err := p.header(l)
	if err != nil {
		return err
	}
	if warn != "" {
		p.patch.Warnings = append(p.patch.Warnings, Warning{Kind: WarnSpelling, Message: warn})
	}
	p.patch.Ops = append(p.patch.Ops, op)
	if op.Kind == OpPut {
		p.cur = &p.patch.Ops[len(p.patch.Ops)-1]
		p.ended = false
	}
	return nil
}

func (p *parser) bodyRow(text string) error {
	if p.cur != nil && !p.ended {
		p.cur.Body = append(p.cur.Body, text)
		return nil
	}
	if len(p.patch.Ops) == 0 {
		return parseErr(0, "", fmt.Sprintf("line %d of ops is a + row before any header: start with a header such as PUT 3.=3: or PUT >3:, then the + rows", p.line))
	}
	last := &p.patch.Ops[len(p.patch.Ops)-1]
	switch {
	case p.cur != nil:
		return parseErr(p.cur.Index, p.cur.Text, fmt.Sprintf("line %d of ops is a + row after a blank line; blank lines end a body: remove the blank line, and write an empty line of content as a bare +", p.line))
	case last.Kind == OpPaste && last.Register != "":
		return &Error{Code: CodeInvalidArgument, Details: Details{Field: "ops", Op: last.Index, OpText: last.Text},
			Message: fmt.Sprintf("op %d (%s) pastes register @%s and takes no body rows: drop the + rows, or write PUT %s: with the rows to insert text instead", last.Index, last.Text, last.Register, last.Loc)}
	case last.Kind == OpPaste:
		return parseErr(last.Index, last.Text, missingColonHint(last.Loc))
	case last.Kind == OpCut:
		return parseErr(last.Index, last.Text, fmt.Sprintf("CUT takes no body rows: to replace lines write PUT %s: followed by the + rows", last.Loc))
	default:
		return parseErr(last.Index, last.Text, fmt.Sprintf("%s takes no body rows: drop the + rows", last.Canonical()))
	}
}

// closeBody ends the current PUT; a PUT with no rows is refused, because an
// empty PUT is never a delete.
func (p *parser) closeBody() error {
	if p.cur == nil {
		return nil
	}
	op := p.cur
	p.cur = nil
	if len(op.Body) > 0 {
		return nil
	}
	if op.Loc.isGap() {
		return parseErr(op.Index, op.Text, fmt.Sprintf("%s has no + rows: list the lines to insert under it, one +text per line", op.Canonical()))
	}
	return parseErr(op.Index, op.Text, fmt.Sprintf("%s has no + rows, and an empty PUT is never a delete: to delete the lines write CUT %s", op.Canonical(), op.Loc))
}

func missingColonHint(l Locator) string {
	return fmt.Sprintf("a PUT with body rows must end its header with :, for example PUT %s:", l)
}

func parseErr(index int, text, msg string) *Error {
	if index > 0 {
		msg = fmt.Sprintf("op %d (%s): %s", index, clip(text, 80), msg)
	}
	return &Error{Code: CodeParseFailed, Message: msg, Details: Details{Op: index, OpText: text}}
}

// header parses one header line.
func (p *parser) header(l string) (Op, string, error) {
	op := Op{Index: len(p.patch.Ops) + 1, Line: p.line, Text: l}
	s := strings.TrimRight(l, " \t")
	fail := func(msg string) (Op, string, error) { return op, "", parseErr(op.Index, l, msg) }

	if s[0] == ' ' || s[0] == '\t' {
		if msg := indentedRow(p.line, s); msg != "" {
			return fail(msg)
		}
		return fail(fmt.Sprintf("headers start in column 1: write %q", strings.TrimSpace(s)))
	}
	verb, rest, _ := strings.Cut(s, " ")
	switch verb {
	case "PUT":
		return p.put(op, rest, fail)
	case "CUT":
		o, err := scanOperand(rest)
		if err != nil {
			return fail(err.Error())
		}
		if o.colon {
			return fail(fmt.Sprintf("CUT takes no colon and no body: write CUT %s; to replace the lines write PUT %s: with + rows", o.loc, o.loc))
		}
		if o.loc.isGap() {
			return fail(fmt.Sprintf("CUT needs lines, not a gap: write CUT N.=M or CUT N*, not CUT %s", o.loc))
		}
		op.Kind, op.Loc, op.Register = OpCut, o.loc, o.reg
		return op, spellingWarning(op, o.alt), nil
	case "REM":
		if rest != "" || s != "REM" {
			return fail("REM takes nothing after it: write REM alone to delete the file")
		}
		op.Kind = OpRem
		return op, "", nil
	case "MV":
		dest, err := parseDest(rest)
		if err != nil {
			return fail(err.Error())
		}
		op.Kind, op.Dest = OpMove, dest
		return op, "", nil
	}
	// A locator with its colon but no verb can only be a PUT.
	if o, err := scanOperand(s); err == nil && o.colon && o.reg == "" {
		op.Kind, op.Loc = OpPut, o.loc
		return op, fmt.Sprintf("read %q as %s; write the PUT verb", s, op.Canonical()), nil
	}
	switch strings.ToUpper(verb) {
	case "PUT", "CUT", "REM", "MV":
		return fail(fmt.Sprintf("ops are upper case: write %s%s", strings.ToUpper(verb), strings.TrimPrefix(s, verb)))
	}
	if prefixRe.MatchString(s) {
		return fail("this looks like a read row (N:text); edits do not restate lines: name them in a header such as PUT 3.=3: and give the new text as + rows")
	}
	return fail(fmt.Sprintf("%q is not an op: use one of the headers PUT N.=M:, PUT <N:, PUT >N:, PUT >$:, CUT N.=M, REM, MV DEST, and write every new line as a + row under a PUT", clip(verb, 20)))
}

// indentedRow explains a row that starts with blanks and is not an indented
// header: a + row off column 1, or a diff's context row. It returns "" for
// an indented header.
func indentedRow(line int, l string) string {
	t := strings.TrimSpace(l)
	if t[0] == '+' {
		return fmt.Sprintf("line %d of ops is a + row that does not start in column 1: write %q", line, t)
	}
	verb, _, _ := strings.Cut(t, " ")
	switch strings.ToUpper(verb) {
	case "PUT", "CUT", "REM", "MV":
		return ""
	}
	if o, err := scanOperand(t); err == nil && o.colon {
		return ""
	}
	return fmt.Sprintf("line %d of ops is a context row; there are none: drop it, since the header already names the changed lines, and write every new line as a + row (text that starts with a blank is written + followed by it)", line)
}

func (p *parser) put(op Op, rest string, fail func(string) (Op, string, error)) (Op, string, error) {
	o, err := scanOperand(rest)
	if err != nil {
		if n, perr := strconv.Atoi(strings.TrimSuffix(rest, ":")); perr == nil && n > 0 && strings.HasSuffix(rest, ":") {
			return fail(fmt.Sprintf("PUT %d: names no range: write PUT %d.=%d: to replace line %d, or PUT <%d: / PUT >%d: to insert around it", n, n, n, n, n, n))
		}
		return fail(err.Error())
	}
	switch {
	case o.colon && o.reg != "":
		return fail(fmt.Sprintf("a register paste takes no colon: write PUT %s @%s", o.loc, o.reg))
	case o.colon:
		op.Kind, op.Loc = OpPut, o.loc
	case o.reg == "" && !o.loc.isGap():
		return fail(missingColonHint(o.loc) + fmt.Sprintf("; to paste a register over the lines write PUT %s @name", o.loc))
	default:
		op.Kind, op.Loc, op.Register = OpPaste, o.loc, o.reg
	}
	return op, spellingWarning(op, o.alt), nil
}

// spellingWarning names the canonical form when a locator used an accepted
// alternate spelling.
func spellingWarning(op Op, alt bool) string {
	if !alt {
		return ""
	}
	return fmt.Sprintf("read %q as %s; write ranges as N.=M", op.Text, op.Canonical())
}

// operand is what a header holds after its verb, as scanOperand reads it:
// a locator, then a colon that opens a body or a register.
type operand struct {
	loc   Locator
	reg   string // "" when no register follows
	colon bool
	alt   bool // the locator used an accepted alternate spelling
}

// scanOperand reads "locator[:]" or "locator @reg".
func scanOperand(s string) (operand, error) {
	var o operand
	body := s
	if at := strings.IndexByte(s, '@'); at >= 0 {
		if at == 0 || s[at-1] != ' ' {
			return operand{}, fmt.Errorf("put one space between the locator and the register, as in PUT >3 @name")
		}
		body, o.reg = s[:at-1], s[at+1:]
		if err := checkRegister(o.reg); err != nil {
			return operand{}, err
		}
	}
	if i := strings.Index(body, ": "); i >= 0 && o.reg == "" {
		if l, _, lerr := parseLocator(body[:i]); lerr == nil {
			return operand{}, fmt.Errorf("new text goes on + rows below the header, not after the colon: end the header at %s: and write each new line below it as +text", l)
		}
	}
	if i := strings.IndexAny(body, " \t"); i >= 0 && o.reg == "" && !strings.HasSuffix(body, ":") {
		if l, _, lerr := parseLocator(body[:i]); lerr == nil {
			return operand{}, fmt.Errorf("unexpected text %q after the locator %s: remove it; only a register may follow, as in %s @name", clip(strings.TrimSpace(body[i:]), 30), l, l)
		}
	}
	if strings.HasSuffix(body, ":") {
		o.colon = true
		body = body[:len(body)-1]
	}
	var err error
	o.loc, o.alt, err = parseLocator(body)
	switch {
	case err != nil:
		return operand{}, err
	case o.colon && o.reg == "" && strings.Contains(s, ": "):
		return operand{}, fmt.Errorf("put the new text on the rows below the header, each as +text")
	case !o.colon && o.reg == "" && strings.ContainsAny(body, " \t"):
		return operand{}, fmt.Errorf("unexpected text after the locator")
	}
	return o, nil
}

func checkRegister(r string) error {
	if len(r) == 0 || len(r) > 32 {
		return fmt.Errorf("name the register with 1 to 32 characters of A-Z a-z 0-9 _ -, as in @fn")
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("register @%s has a character outside A-Z a-z 0-9 _ -: rename it, as in @fn", clip(r, 40))
		}
	}
	return nil
}

// parseLocator parses one locator. Besides the grammar it accepts exactly
// the range spellings N-M and N..M (see alternates in describe).
func parseLocator(s string) (loc Locator, alt bool, err error) {
	if s == "" {
		return Locator{}, false, fmt.Errorf("a locator is missing: write N.=M (lines), <N or >N (gaps), >$ (end of file), or N* (a block)")
	}
	switch {
	case s == ">$":
		return Locator{Kind: LocEnd}, false, nil
	case s == "<$" || s == "$":
		return Locator{}, false, fmt.Errorf("$ only appears as >$, the end of the file: write >$ to add lines at the end, or use the last line's number from your read")
	case s[0] == '<' || s[0] == '>':
		block := strings.HasSuffix(s, "*")
		n, err := parseLineNumber(strings.TrimSuffix(s[1:], "*"))
		if err != nil {
			return Locator{}, false, err
		}
		switch {
		case s[0] == '<' && block:
			return Locator{}, false, fmt.Errorf("<N* is not a locator: write >N* to insert after the block at line N, or <%d to insert before line %d", n, n)
		case s[0] == '<':
			return Locator{Kind: LocBefore, N: n}, false, nil
		case block:
			return Locator{Kind: LocAfterBlock, N: n}, false, nil
		}
		return Locator{Kind: LocAfter, N: n}, false, nil
	case strings.HasSuffix(s, "*"):
		n, err := parseLineNumber(s[:len(s)-1])
		if err != nil {
			return Locator{}, false, err
		}
		return Locator{Kind: LocBlock, N: n}, false, nil
	}
	for _, sep := range []string{".=", "..", "-"} {
		a, b, ok := strings.Cut(s, sep)
		if !ok {
			continue
		}
		n, err := parseLineNumber(a)
		if err != nil {
			return Locator{}, false, err
		}
		if b == "$" {
			return Locator{}, false, fmt.Errorf("a range ends at a line number, not $: read the file's length from its last read row")
		}
		m, err := parseLineNumber(b)
		if err != nil {
			return Locator{}, false, err
		}
		return Locator{Kind: LocRange, N: n, M: m}, sep != ".=", nil
	}
	if _, err := parseLineNumber(s); err == nil {
		return Locator{}, false, fmt.Errorf("%s names no range: write %s.=%s for one line", s, s, s)
	}
	return Locator{}, false, fmt.Errorf("%q is not a locator: write N.=M (lines), <N or >N (gaps), >$ (end of file), or N* (a block)", clip(s, 30))
}

func parseLineNumber(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("a line number is missing: write the locator with its numbers, as in 3.=5, <3 or >3")
	}
	if s == "0" {
		return 0, fmt.Errorf("line numbers start at 1: use <1 for the file head")
	}
	if s[0] == '0' {
		return 0, fmt.Errorf("line number %q has a leading zero: write %s", s, strings.TrimLeft(s, "0"))
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%q is not a line number: write line numbers as digits, as in 3.=5", clip(s, 20))
		}
	}
	if len(s) > 9 {
		return 0, fmt.Errorf("line number %s is out of range: use the line numbers of your read", clip(s, 20))
	}
	return strconv.Atoi(s)
}

// parseDest reads MV's destination: a bare path without spaces, or a
// double-quoted Go string.
func parseDest(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("MV needs a destination: write MV new/path.ext")
	}
	if s[0] == '"' {
		d, err := strconv.Unquote(s)
		if err != nil || d == "" {
			return "", fmt.Errorf("MV's quoted destination is not a valid quoted string: write MV \"dir/name with spaces.ext\"")
		}
		return d, nil
	}
	if strings.ContainsAny(s, " \t") {
		return "", fmt.Errorf("a destination with spaces is quoted: write MV %q", s)
	}
	return s, nil
}

// splitLines splits ops text on LF, CRLF and CR, the same endings as Text,
// so no body row can smuggle a line break into the file.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	t := NewLazyText(s)
	out := make([]string, t.Len())
	for i := range out {
		out[i] = t.Line(i + 1)
	}
	return out
}

package hashline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The reference model below is deliberately naive: it splits raw bytes into
// lines itself, splices plain string slices, and never calls the package's
// lowering or application. Agreement between two unrelated implementations
// is what the property tests are worth.

var (
	propSeed  = flag.Uint64("hashline.seed", 0, "run the property test for this one seed only")
	propIters = flag.Int("hashline.iters", 0, "property test iterations (0: the default)")
)

const propPath = "f.txt"

// mline is one line as the model sees raw bytes: its content and its own
// ending ("" for a last line without one).
type mline struct{ content, ending string }

// splitRaw splits raw at LF, CRLF and lone CR after an optional BOM.
func splitRaw(raw string) (bom bool, lines []mline) {
	if strings.HasPrefix(raw, "\xef\xbb\xbf") {
		bom, raw = true, raw[3:]
	}
	start := 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '\n':
			lines = append(lines, mline{raw[start:i], "\n"})
			start = i + 1
		case '\r':
			if i+1 < len(raw) && raw[i+1] == '\n' {
				lines = append(lines, mline{raw[start:i], "\r\n"})
				i++
			} else {
				lines = append(lines, mline{raw[start:i], "\r"})
			}
			start = i + 1
		}
	}
	if start < len(raw) {
		lines = append(lines, mline{raw[start:], ""})
	}
	return bom, lines
}

func contents(lines []mline) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.content
	}
	return out
}

// dominantEOL is the most frequent ending; ties prefer LF, then CRLF.
func dominantEOL(lines []mline) string {
	count := map[string]int{}
	for _, l := range lines {
		count[l.ending]++
	}
	switch {
	case count["\n"] >= count["\r\n"] && count["\n"] >= count["\r"]:
		return "\n"
	case count["\r\n"] >= count["\r"]:
		return "\r\n"
	}
	return "\r"
}

// modelTag is docs/contract.md §3.3 over docs/contract.md §3.2's normalization, computed from scratch.
func modelTag(raw string) Tag {
	_, lines := splitRaw(raw)
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(strings.TrimRight(l.content, " \t"))
		if i+1 < len(lines) || l.ending != "" {
			b.WriteByte('\n')
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return Tag(strings.ToUpper(hex.EncodeToString(sum[30:])))
}

// Model ops. A locator kind is 'r' (N.=M), '<' (<N), '>' (>N) or '$' (>$).
type mverb int

const (
	mPut   mverb = iota // PUT with body rows
	mPaste              // PUT without colon: paste a register
	mCut                // CUT
)

type mloc struct {
	kind byte
	n, m int
}

type mop struct {
	verb mverb
	loc  mloc
	reg  string // "" is the anonymous register
	body []string
	// How the header is spelled; every spelling means the same op.
	spell int  // 0 canonical, 1 N-M, 2 N..M, 3 PUT dropped (PUT with body only)
	pad   bool // trailing blanks after the header
}

func (l mloc) String() string {
	switch l.kind {
	case 'r':
		return fmt.Sprintf("%d.=%d", l.n, l.m)
	case '<':
		return fmt.Sprintf("<%d", l.n)
	case '>':
		return fmt.Sprintf(">%d", l.n)
	}
	return ">$"
}

func (o mop) header() string {
	loc := o.loc.String()
	if o.loc.kind == 'r' {
		switch o.spell {
		case 1:
			loc = fmt.Sprintf("%d-%d", o.loc.n, o.loc.m)
		case 2:
			loc = fmt.Sprintf("%d..%d", o.loc.n, o.loc.m)
		}
	}
	var h string
	switch o.verb {
	case mPut:
		h = "PUT " + loc + ":"
		if o.spell == 3 {
			h = loc + ":"
		}
	case mPaste:
		h = "PUT " + loc
	case mCut:
		h = "CUT " + loc
	}
	if o.reg != "" {
		h += " @" + o.reg
	}
	if o.pad {
		h += " \t "
	}
	return h
}

func (o mop) String() string {
	var b strings.Builder
	b.WriteString(o.header())
	for _, r := range o.body {
		b.WriteString("\n+")
		b.WriteString(r)
	}
	return b.String()
}

// gap is where text inserted by o goes: after that many original lines.
func (l mloc) gap(n int) int {
	switch l.kind {
	case 'r', '<':
		return l.n - 1
	case '>':
		return l.n
	}
	return n
}

// claims are the original lines an op consumes or anchors on (docs/contract.md §8.4 rule 4);
// the head and the end of the file belong to no line.
func (l mloc) claims() []int {
	switch l.kind {
	case 'r':
		var out []int
		for k := l.n; k <= l.m; k++ {
			out = append(out, k)
		}
		return out
	case '<':
		if l.n > 1 {
			return []int{l.n}
		}
	case '>':
		return []int{l.n}
	}
	return nil
}

// claimsOf lists the lines ops consume or anchor on, op by op.
func claimsOf(ops []mop) []int {
	var out []int
	for _, o := range ops {
		out = append(out, o.loc.claims()...)
	}
	return out
}

// movedTo is ops with the lines they consume or anchor on moved to where
// pos says each line is now.
func movedTo(ops []mop, pos []int) []mop {
	moved := slices.Clone(ops)
	for i, o := range ops {
		switch {
		case o.loc.kind == 'r':
			moved[i].loc = mloc{'r', pos[o.loc.n], pos[o.loc.m]}
		case o.loc.kind == '>' || o.loc.kind == '<' && o.loc.n > 1:
			moved[i].loc = mloc{o.loc.kind, pos[o.loc.n], 0}
		}
	}
	return moved
}

// anchored reports whether an op names a position content drift can move
// (docs/contract.md §12.5 is for the others).
func (o mop) anchored() bool {
	if o.verb == mCut || o.verb == mPaste && o.reg == "" {
		return true
	}
	return !(o.loc.kind == '$' || o.loc.kind == '<' && o.loc.n == 1)
}

// oline is one output line of the model: kept from the original (orig is
// its 0-based index) or new (orig < 0).
type oline struct {
	text string
	orig int
}

type mresult struct {
	out      []oline
	captures map[string][]string
	consumed map[string][]int // content → original lines consumed with it
	code     Code             // the failure the call must end in, "" if none
	repaired int              // echo rows dropped, one warning each
}

// runModel splices ops into orig. session holds the named registers kept
// from earlier calls.
func runModel(orig []string, ops []mop, session map[string][]string) mresult {
	ops, repaired := modelEchoes(orig, ops)
	res := spliceModel(orig, ops, session)
	res.repaired = repaired
	return res
}

// saysSomething is the model's reading of "holds a letter or a digit".
var saysSomething = regexp.MustCompile(`[\pL\p{Nd}]`)

// modelEchoes applies the echo rule of docs/contract.md §11.1 to ops written against then:
// a PUT over a range whose body has two rows or more loses its first row
// when that row is exactly line N-1, and then, if two rows or more are
// still left, its last row when it is exactly line M+1, each only when that
// line is claimed by no op of the call and holds a letter or a digit. It
// returns new ops (the argument is not changed) and how many rows went.
// Ops that do not fit then are left for spliceModel to refuse.
func modelEchoes(then []string, ops []mop) ([]mop, int) {
	claimed := map[int]bool{}
	for _, o := range ops {
		for _, c := range o.loc.claims() {
			claimed[c] = true
		}
	}
	echo := func(row string, line int) bool {
		return line >= 1 && line <= len(then) && !claimed[line] && row == then[line-1] && saysSomething.MatchString(row)
	}
	out := slices.Clone(ops)
	dropped := 0
	for i, o := range out {
		l := o.loc
		if o.verb != mPut || l.kind != 'r' || l.n > l.m || l.m > len(then) {
			continue
		}
		body := o.body
		if len(body) >= 2 && echo(body[0], l.n-1) {
			body = body[1:]
			dropped++
		}
		if len(body) >= 2 && echo(body[len(body)-1], l.m+1) {
			body = body[:len(body)-1]
			dropped++
		}
		out[i].body = body
	}
	return out, dropped
}

// spliceModel splices ops into orig as written, echo rows and all.
func spliceModel(orig []string, ops []mop, session map[string][]string) mresult {
	n := len(orig)
	res := mresult{captures: map[string][]string{}, consumed: map[string][]int{}}
	for _, o := range ops {
		l := o.loc
		switch {
		case l.kind == 'r' && l.n > l.m,
			l.kind == 'r' && l.m > n,
			l.kind == '<' && l.n > n && !(l.n == 1 && n == 0),
			l.kind == '>' && l.n > n:
			res.code = CodeRangeInvalid
			return res
		}
	}
	owner := map[int]int{}
	for i, o := range ops {
		for _, c := range o.loc.claims() {
			if _, dup := owner[c]; dup {
				res.code = CodeRangeInvalid
				return res
			}
			owner[c] = i
		}
	}
	gaps := make([][]string, n+1)
	repl := map[int][]string{}
	consumed := make([]bool, n+2)
	var anon [][]string
	pasted := 0
	for i, o := range ops {
		l := o.loc
		var text []string
		switch o.verb {
		case mPut:
			text = o.body
		case mCut:
			lines := slices.Clone(orig[l.n-1 : l.m])
			if o.reg == "" {
				anon = append(anon, lines)
			} else {
				res.captures[o.reg] = lines
			}
		case mPaste:
			if o.reg != "" {
				got, ok := res.captures[o.reg]
				if !ok {
					for _, later := range ops[i+1:] {
						if later.verb == mCut && later.reg == o.reg {
							res.code = CodeRegisterEmpty
							return res
						}
					}
					got, ok = session[o.reg]
				}
				if !ok {
					res.code = CodeRegisterEmpty
					return res
				}
				text = got
				break
			}
			switch {
			case len(anon)-pasted > 1:
				res.code = CodeRegisterAmbiguous
				return res
			case len(anon) == 0:
				res.code = CodeRegisterEmpty
				return res
			}
			pasted = len(anon)
			text = anon[len(anon)-1]
		}
		if l.kind == 'r' {
			for k := l.n; k <= l.m; k++ {
				consumed[k] = true
				res.consumed[orig[k-1]] = append(res.consumed[orig[k-1]], k-1)
			}
			if o.verb != mCut {
				repl[l.n] = text
			}
			continue
		}
		g := l.gap(n)
		gaps[g] = append(gaps[g], text...)
	}
	for g := 0; g <= n; g++ {
		for _, t := range gaps[g] {
			res.out = append(res.out, oline{t, -1})
		}
		if g == n {
			break
		}
		for _, t := range repl[g+1] {
			res.out = append(res.out, oline{t, -1})
		}
		if !consumed[g+1] {
			res.out = append(res.out, oline{orig[g], g})
		}
	}
	return res
}

func (r mresult) texts() []string {
	out := make([]string, len(r.out))
	for i, l := range r.out {
		out[i] = l.text
	}
	return out
}

// checkRestored checks newRaw against the model's lines independently of
// the package: the BOM stays, kept lines keep their bytes and endings, new
// lines end with the dominant ending, and the final-newline state holds.
func checkRestored(oldRaw, newRaw string, res mresult) error {
	oldBOM, ol := splitRaw(oldRaw)
	newBOM, nl := splitRaw(newRaw)
	if oldBOM != newBOM {
		return fmt.Errorf("BOM %v became %v", oldBOM, newBOM)
	}
	if got, want := contents(nl), res.texts(); !slices.Equal(got, want) {
		return fmt.Errorf("lines of the new bytes:\n  got  %q\n  want %q", got, want)
	}
	eol := dominantEOL(ol)
	finalOld := len(ol) == 0 || ol[len(ol)-1].ending != ""
	for i, l := range nl {
		var want []string
		switch o := res.out[i]; {
		case i == len(nl)-1 && !finalOld && l.content != "":
			want = []string{""}
		case o.orig >= 0:
			want = []string{cmp(ol[o.orig].ending, eol)}
		default:
			// A new line equal to a line it replaces is that line kept.
			want = []string{eol}
			for _, k := range res.consumed[l.content] {
				want = append(want, cmp(ol[k].ending, eol))
			}
		}
		if slices.Contains(want, l.ending) {
			continue
		}
		// A lone CR before an LF would read as one CRLF and lose a line,
		// so CRLF stands in on the side that was written.
		if l.ending == "\r\n" && (slices.Contains(want, "\n") && l.content == "" && i > 0 && nl[i-1].ending == "\r" ||
			slices.Contains(want, "\r") && i+1 < len(nl) && nl[i+1].content == "" && nl[i+1].ending == "\n") {
			continue
		}
		return fmt.Errorf("new line %d %q ends with %q, want one of %q", i+1, l.content, l.ending, want)
	}
	return nil
}

func cmp(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// checkPlan compares a successful plan with the model.
func checkPlan(p *Plan, old *Text, res mresult) error {
	if p.Old != old {
		return fmt.Errorf("plan.Old is not the live text")
	}
	pos := 0
	for _, e := range p.Edits {
		if e.Start < pos || e.End < e.Start || e.End > old.Size() {
			return fmt.Errorf("byte edits out of order or bounds: %+v", p.Edits)
		}
		pos = e.End
	}
	if got := ApplyEdits(old.Raw(), p.Edits); got != p.New.Raw() {
		return fmt.Errorf("New.Raw() %q is not ApplyEdits(old, Edits) %q", p.New.Raw(), got)
	}
	if !reflect.DeepEqual(old.Edits(p.Hunks), p.Edits) {
		return fmt.Errorf("Edits do not follow from Hunks")
	}
	var got []string
	for k := 1; k <= p.New.Len(); k++ {
		got = append(got, p.New.Line(k))
	}
	if want := res.texts(); !slices.Equal(got, want) {
		return fmt.Errorf("plan.New lines:\n  got  %q\n  want %q", got, want)
	}
	if err := checkRestored(old.Raw(), p.New.Raw(), res); err != nil {
		return err
	}
	if got, want := p.New.Tag(), modelTag(p.New.Raw()); got != want {
		return fmt.Errorf("New.Tag() %s, model tag %s", got, want)
	}
	// Every echo row dropped is named in a warning of its own (docs/contract.md §11.1).
	repaired := 0
	for _, w := range p.Warnings {
		if w.Kind == WarnRepaired {
			repaired++
		}
	}
	if repaired != res.repaired {
		return fmt.Errorf("%d repair warnings, the model dropped %d echo rows: %+v", repaired, res.repaired, p.Warnings)
	}
	return nil
}

// Text generation: few distinct contents, so duplicates are common.
var linePool = []string{
	"", "", " ", "\t", "x := 1", "x := 1 ", "x := 1\t", "}", "{", "\treturn nil",
	"    return nil  ", "// héllo wörld 🎉", "日本語のテキスト", "PUT 1.=1:", "+plus", "-minus",
	"[f.txt#ABCD]", "12:looks like a row", "\u00a0", "\v\f", "a\x00b", "emoji 👩‍👩‍👧 ",
	"func main() {", "  if err != nil {", "\u2028sep", "@reg", "CUT 2.=3",
}

func genLine(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		const alpha = "abcxyz _(){};=+-*#\t"
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		return string(b)
	}
	return linePool[r.IntN(len(linePool))]
}

func genText(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(5) == 0 {
		b.WriteString(bom)
	}
	if r.IntN(20) == 0 {
		return b.String()
	}
	pool := make([]string, 1+r.IntN(7))
	for i := range pool {
		pool[i] = genLine(r)
	}
	n := r.IntN(12)
	if r.IntN(4) == 0 {
		n += r.IntN(30)
	}
	endings := []string{"\n", "\r\n", "\r"}
	mode := r.IntN(8) // 0-2: LF, 3-4: CRLF, 5: CR, 6-7: mixed
	final := r.IntN(2) == 0
	for i := 0; i < n; i++ {
		b.WriteString(pool[r.IntN(len(pool))])
		if i == n-1 && !final {
			break
		}
		switch {
		case mode <= 2:
			b.WriteString("\n")
		case mode <= 4:
			b.WriteString("\r\n")
		case mode == 5:
			b.WriteString("\r")
		default:
			b.WriteString(endings[r.IntN(3)])
		}
	}
	return b.String()
}

var regPool = []string{"a", "b", "fn", "X_1", "reg-with-dash_0123456789abcdefgh"}

// opGen builds one valid op set against n original lines.
type opGen struct {
	r       *rand.Rand
	orig    []string
	claimed map[int]bool
}

func (g *opGen) free(lo, hi int) bool {
	for k := lo; k <= hi; k++ {
		if g.claimed[k] {
			return false
		}
	}
	return true
}

func (g *opGen) claim(l mloc) {
	for _, c := range l.claims() {
		g.claimed[c] = true
	}
}

func (g *opGen) rangeLoc() (mloc, bool) {
	n := len(g.orig)
	for try := 0; try < 8 && n > 0; try++ {
		lo := 1 + g.r.IntN(n)
		hi := lo + g.r.IntN(min(4, n-lo+1))
		if g.free(lo, hi) {
			l := mloc{'r', lo, hi}
			g.claim(l)
			return l, true
		}
	}
	return mloc{}, false
}

func (g *opGen) gapLoc() mloc {
	n := len(g.orig)
	for try := 0; try < 8 && n > 0 && g.r.IntN(5) > 0; try++ {
		k := 1 + g.r.IntN(n)
		var l mloc
		switch {
		case g.r.IntN(2) == 0:
			l = mloc{'>', k, 0}
		case k > 1:
			l = mloc{'<', k, 0}
		default:
			continue
		}
		if g.free(k, k) {
			g.claim(l)
			return l
		}
	}
	if g.r.IntN(2) == 0 {
		return mloc{'<', 1, 0}
	}
	return mloc{'$', 0, 0}
}

func (g *opGen) body() []string {
	rows := make([]string, 1+g.r.IntN(3))
	for i := range rows {
		if len(g.orig) > 0 && g.r.IntN(4) == 0 {
			rows[i] = g.orig[g.r.IntN(len(g.orig))]
		} else {
			rows[i] = genLine(g.r)
		}
	}
	return rows
}

func (g *opGen) style(o mop) mop {
	if o.loc.kind == 'r' && g.r.IntN(10) == 0 {
		o.spell = 1 + g.r.IntN(2)
	}
	if o.verb == mPut && g.r.IntN(15) == 0 {
		o.spell = 3
	}
	o.pad = g.r.IntN(12) == 0
	return o
}

// genOps returns a valid op set in a random written order that respects
// the register sequencing of docs/contract.md §9.2: a named paste follows its capture, and
// the anonymous register sees (CUT PUT+)* CUT*.
func genOps(r *rand.Rand, orig []string, session map[string][]string) []mop {
	g := &opGen{r: r, orig: orig, claimed: map[int]bool{}}
	var chains [][]mop
	var anonPairs [][]mop
	var anonBare []mop
	names := slices.Clone(regPool)
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	var sessionNames []string
	for name := range session {
		sessionNames = append(sessionNames, name)
	}
	slices.Sort(sessionNames)
	cutNames := map[string]bool{}
	for k := 1 + r.IntN(6); k > 0; k-- {
		switch c := r.IntN(20); {
		case c < 6:
			if l, ok := g.rangeLoc(); ok {
				chains = append(chains, []mop{g.style(mop{verb: mPut, loc: l, body: g.body()})})
			}
		case c < 11:
			chains = append(chains, []mop{g.style(mop{verb: mPut, loc: g.gapLoc(), body: g.body()})})
		case c < 13:
			if l, ok := g.rangeLoc(); ok {
				pair := []mop{g.style(mop{verb: mCut, loc: l})}
				for p := 1 + r.IntN(2); p > 0; p-- {
					pair = append(pair, g.style(mop{verb: mPaste, loc: g.gapLoc()}))
				}
				anonPairs = append(anonPairs, pair)
			}
		case c < 16:
			if len(names) == 0 {
				continue
			}
			if l, ok := g.rangeLoc(); ok {
				name := names[0]
				names = names[1:]
				cutNames[name] = true
				chain := []mop{g.style(mop{verb: mCut, loc: l, reg: name})}
				for p := r.IntN(3); p > 0; p-- {
					dest := g.gapLoc()
					if r.IntN(3) == 0 {
						if l, ok := g.rangeLoc(); ok {
							dest = l
						}
					}
					chain = append(chain, g.style(mop{verb: mPaste, loc: dest, reg: name}))
				}
				chains = append(chains, chain)
			}
		case c < 17:
			if l, ok := g.rangeLoc(); ok {
				anonBare = append(anonBare, g.style(mop{verb: mCut, loc: l}))
			}
		default:
			var usable []string
			for _, name := range sessionNames {
				if !cutNames[name] {
					usable = append(usable, name)
				}
			}
			if len(usable) == 0 {
				continue
			}
			name := usable[r.IntN(len(usable))]
			names = slices.DeleteFunc(names, func(s string) bool { return s == name })
			dest := g.gapLoc()
			if r.IntN(3) == 0 {
				if l, ok := g.rangeLoc(); ok {
					dest = l
				}
			}
			chains = append(chains, []mop{g.style(mop{verb: mPaste, loc: dest, reg: name})})
		}
	}
	var anon []mop
	for _, p := range anonPairs {
		anon = append(anon, p...)
	}
	anon = append(anon, anonBare...)
	if len(anon) > 0 {
		chains = append(chains, anon)
	}
	ops := interleave(r, chains)
	if len(ops) == 0 {
		ops = append(ops, mop{verb: mPut, loc: mloc{'$', 0, 0}, body: g.body()})
	}
	return ops
}

// opsText renders ops the way a model might write them: any line breaks,
// blank lines between blocks, optionally under a [path#TAG] header.
// interleave is a random interleaving of the chains, each kept in order.
func interleave(r *rand.Rand, chains [][]mop) []mop {
	var ops []mop
	for {
		total := 0
		for _, c := range chains {
			total += len(c)
		}
		if total == 0 {
			return ops
		}
		pick := r.IntN(total)
		for i, c := range chains {
			if pick < len(c) {
				ops = append(ops, c[0])
				chains[i] = c[1:]
				break
			}
			pick -= len(c)
		}
	}
}

func opsText(r *rand.Rand, ops []mop, tag Tag) string {
	sep := "\n"
	if r.IntN(5) == 0 {
		sep = "\r\n"
	}
	var parts []string
	if r.IntN(8) == 0 {
		h := string(tag)
		if r.IntN(2) == 0 {
			h = strings.ToLower(h)
		}
		parts = append(parts, "["+propPath+"#"+h+"]")
	}
	for i, o := range ops {
		if i > 0 && r.IntN(6) == 0 {
			parts = append(parts, "")
		}
		parts = append(parts, strings.ReplaceAll(o.String(), "\n", sep))
	}
	return strings.Join(parts, sep)
}

// sessionState is everything a rejected call must leave alone.
type sessionState struct {
	Snaps []snapState
	Regs  map[string][]string
}

type snapState struct {
	Text     string
	Retained bool
	Tag      Tag
	Digest   Digest
	Lines    int
	Seen     string
}

func stateOf(s *Session) sessionState {
	st := sessionState{Regs: map[string][]string{}}
	for _, v := range s.Snapshots(propPath) {
		st.Snaps = append(st.Snaps, snapState{v.Text, v.Retained, v.Tag, v.Digest, v.Lines, v.Seen.String()})
	}
	s.mu.Lock()
	for name, reg := range s.regs.named {
		st.Regs[name] = slices.Clone(reg.lines)
	}
	s.mu.Unlock()
	return st
}

func request(tag, ops string) EditRequest {
	return EditRequest{Path: propPath, Display: propPath, Names: []string{propPath}, Tag: tag, Ops: ops}
}

// defect turns a valid op set into an invalid call: the ops text, the tag,
// and the code the call must fail with.
type defect struct {
	name string
	tag  string
	ops  string
	code Code
}

var badHeaders = []struct{ text, code string }{
	{"PUT 3:\n+x", "EDIT_PARSE_FAILED"},
	{"PUT 2.=2\n+x", "EDIT_PARSE_FAILED"},
	{"put 1.=1:\n+x", "EDIT_PARSE_FAILED"},
	{"PUT >1:", "EDIT_PARSE_FAILED"},
	{"CUT 1.=1:", "EDIT_PARSE_FAILED"},
	{"CUT >1", "EDIT_PARSE_FAILED"},
	{"PUT <0:\n+x", "EDIT_PARSE_FAILED"},
	{"PUT 01.=1:\n+x", "EDIT_PARSE_FAILED"},
	{"PUT >1: text", "EDIT_PARSE_FAILED"},
	{" PUT >1:\n+x", "EDIT_PARSE_FAILED"},
	{"PUT >1 @\n", "EDIT_PARSE_FAILED"},
	{"PUT >1 @no/slash", "EDIT_PARSE_FAILED"},
	{"REM", "EDIT_PARSE_FAILED"},
	{"PUT 1.=$:\n+x", "EDIT_PARSE_FAILED"},
	{"12:content", "EDIT_PARSE_FAILED"},
	{"PUT >$ @a\n+x", "INVALID_ARGUMENT"},
}

func makeDefect(r *rand.Rand, orig []string, ops []mop, tag Tag, session map[string][]string, older []Tag) defect {
	n := len(orig)
	insert := func(o mop) []mop {
		i := r.IntN(len(ops) + 1)
		return slices.Insert(slices.Clone(ops), i, o)
	}
	text := func(ops []mop) string { return opsText(r, ops, tag) }
	claimed := claimsOf(ops)
	for {
		switch r.IntN(9) {
		case 0:
			if len(claimed) == 0 {
				continue
			}
			c := claimed[r.IntN(len(claimed))]
			locs := []mloc{{'>', c, 0}, {'r', c, c}}
			if c > 1 {
				locs = append(locs, mloc{'<', c, 0})
			}
			o := mop{verb: mPut, loc: locs[r.IntN(len(locs))], body: []string{"overlap"}}
			return defect{"overlap", string(tag), text(insert(o)), CodeRangeInvalid}
		case 1:
			locs := []mloc{{'r', n + 1, n + 1}, {'>', n + 1, 0}, {'<', n + 2, 0}, {'r', max(1, n), n + 1 + r.IntN(3)}}
			return defect{"out of range", string(tag), text(insert(mop{verb: mPut, loc: locs[r.IntN(len(locs))], body: []string{"x"}})), CodeRangeInvalid}
		case 2:
			a := 1 + r.IntN(max(1, n))
			o := mop{verb: mPut, loc: mloc{'r', a + 1 + r.IntN(3), a}, body: []string{"x"}}
			if r.IntN(2) == 0 {
				o = mop{verb: mCut, loc: o.loc}
			}
			return defect{"reversed", string(tag), text(insert(o)), CodeRangeInvalid}
		case 3:
			b := badHeaders[r.IntN(len(badHeaders))]
			parts := strings.Split(text(ops), "\n")
			i := r.IntN(len(parts) + 1)
			// Keep the bad header at a block boundary, never inside a body.
			for i < len(parts) && strings.HasPrefix(parts[i], "+") {
				i++
			}
			parts = slices.Insert(parts, i, b.text)
			return defect{"syntax " + strconv.Quote(b.text), string(tag), strings.Join(parts, "\n"), Code(b.code)}
		case 4:
			for i, o := range ops {
				if o.verb == mPut {
					rest := ""
					if i+1 < len(ops) {
						rest = "\n" + text(ops[i+1:])
					}
					return defect{"old row", string(tag), text(ops[:i+1]) + "\n-old" + rest, CodeParseFailed}
				}
			}
		case 5:
			bad := []string{"", "12345", "XYZ1", "a1b", "#" + string(tag)}
			return defect{"malformed tag", bad[r.IntN(len(bad))], text(ops), CodeTagRequired}
		case 6:
			anchored := false
			for _, o := range ops {
				anchored = anchored || o.anchored()
			}
			if !anchored {
				continue
			}
			for _, old := range older {
				if old != tag {
					return defect{"stale tag", string(old), opsText(r, ops, old), CodeTagMismatch}
				}
			}
			stale := tag
			for stale == tag || slices.Contains(older, stale) {
				stale = Tag(fmt.Sprintf("%04X", r.IntN(1<<16)))
			}
			return defect{"unknown tag", string(stale), opsText(r, ops, stale), CodeTagUnknown}
		case 7:
			o := mop{verb: mPaste, loc: mloc{'$', 0, 0}}
			if r.IntN(2) == 0 {
				o.reg = "nosuch"
			}
			next := insert(o)
			if code := runModel(orig, next, session).code; code != "" {
				return defect{"register", string(tag), text(next), code}
			}
		case 8:
			// Both a named capture and an anonymous one from a second CUT
			// of free lines, pasted once: ambiguous unless nothing waits.
			taken := map[int]bool{}
			for _, c := range claimed {
				taken[c] = true
			}
			var a, b int
			for k := 1; k <= n; k++ {
				if !taken[k] {
					if a == 0 {
						a = k
					} else if b == 0 {
						b = k
					}
				}
			}
			if b == 0 {
				continue
			}
			next := append(slices.Clone(ops), mop{verb: mCut, loc: mloc{'r', a, a}}, mop{verb: mCut, loc: mloc{'r', b, b}}, mop{verb: mPaste, loc: mloc{'$', 0, 0}})
			return defect{"ambiguous", string(tag), text(next), CodeRegisterAmbiguous}
		}
	}
}

// propCase is one iteration: a text and a chain of edits on one session.
type propCase struct {
	seed  uint64
	t     testing.TB
	stats map[string]int
}

func (c *propCase) fail(step int, raw, tag, ops, format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("seed %d (rerun: go test ./hashline/ -run TestPlanMatchesModel -hashline.seed=%d), step %d\ntext: %q\ntag:  %q\nops:\n%s\nops (quoted): %q\n%s",
		c.seed, c.seed, step, raw, tag, ops, ops, fmt.Sprintf(format, args...))
}

func runPropCase(t testing.TB, seed uint64, stats map[string]int) {
	c := &propCase{seed: seed, t: t, stats: stats}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	raw := genText(r)
	live := NewText(raw)
	s := NewSession()
	s.Read(propPath, propPath, live, 1, live.Len())
	session := map[string][]string{}
	var older []Tag
	// past[k] holds the lines of the text tagged older[k], and toLive[k]
	// where each of them is in the live text now (0: gone), as the model
	// moved them through every write since.
	var past [][]string
	var toLive [][]int
	steps := 1 + r.IntN(3)
	for step := 1; step <= steps; step++ {
		_, ol := splitRaw(live.Raw())
		orig := contents(ol)
		if got := live.Tag(); got != modelTag(live.Raw()) {
			c.fail(step, live.Raw(), string(got), "", "Tag() %s, model tag %s", got, modelTag(live.Raw()))
		}
		ops := genOps(r, orig, session)
		tag := live.Tag()

		if r.IntN(3) == 0 {
			d := makeDefect(r, orig, ops, tag, session, older)
			c.stats[string(d.code)]++
			before := stateOf(s)
			p, err := s.Plan(request(d.tag, d.ops), live)
			var he *Error
			// A stale tag may be recovered (docs/contract.md §13), and then only to exactly
			// what the ops do at the lines they named, where those are now.
			var want mresult
			verdict := ""
			history := ""
			if d.name == "stale tag" {
				k := slices.Index(older, Tag(d.tag))
				want, verdict = staleOracle(past[k], orig, toLive[k], ops, session)
				history = fmt.Sprintf("\nthe text tagged %s: %q\nwhere its lines are now: %v", d.tag, past[k], toLive[k][1:])
				c.stats["stale tag: "+verdict]++
			}
			switch {
			case err == nil && verdict == "refuse":
				c.fail(step, live.Raw(), d.tag, d.ops, "%s: planned %q, but the lines the ops name did not all survive at one offset%s", d.name, p.New.Raw(), history)
			case err == nil && verdict == "recover":
				if err := checkPlan(p, live, want); err != nil {
					c.fail(step, live.Raw(), d.tag, d.ops, "%s: recovered wrongly: %v%s", d.name, err, history)
				}
				c.stats["stale tag recovered"]++
			case err == nil && verdict == "unjudged":
				// The text is the only evidence left; the edit must still be
				// the ops at one offset where every line they name reads as
				// it did.
				k := slices.Index(older, Tag(d.tag))
				if !atSomeOffset(p, live, past[k], orig, ops, session) {
					c.fail(step, live.Raw(), d.tag, d.ops, "%s: planned %q, which is the ops at no offset where their lines read as they did%s", d.name, p.New.Raw(), history)
				}
				c.stats["stale tag recovered (unjudged)"]++
			case err == nil && d.name == "unknown tag":
				c.fail(step, live.Raw(), d.tag, d.ops, "%s: planned %q", d.name, p.New.Raw())
			case err == nil:
				c.fail(step, live.Raw(), d.tag, d.ops, "%s: want %s, planned %q", d.name, d.code, p.New.Raw())
			case !errors.As(err, &he) || he.Code != d.code:
				c.fail(step, live.Raw(), d.tag, d.ops, "%s: want %s, got %v", d.name, d.code, err)
			case he.Message == "":
				c.fail(step, live.Raw(), d.tag, d.ops, "%s: empty message", d.name)
			}
			if after := stateOf(s); !reflect.DeepEqual(before, after) {
				c.fail(step, live.Raw(), d.tag, d.ops, "%s changed the session:\nbefore %+v\nafter  %+v", d.name, before, after)
			}
			v := s.Read(propPath, propPath, live, 1, live.Len())
			if !strings.HasPrefix(v.Content, Header(propPath, tag)+"\n") {
				c.fail(step, live.Raw(), d.tag, d.ops, "a fresh read after %s shows %q, want tag %s", d.name, strings.SplitN(v.Content, "\n", 2)[0], tag)
			}
			if after := stateOf(s); !reflect.DeepEqual(before, after) {
				c.fail(step, live.Raw(), d.tag, d.ops, "re-reading after %s changed the session", d.name)
			}
		}

		useTag := string(tag)
		if r.IntN(10) == 0 {
			useTag = strings.ToLower(useTag)
		}
		// A stale tag is harmless when every op sits at the head or end.
		stale := false
		if len(older) > 0 && older[len(older)-1] != tag && r.IntN(4) == 0 {
			stale = true
			for _, o := range ops {
				stale = stale && !o.anchored()
			}
			if stale {
				useTag = string(older[len(older)-1])
			}
		}
		text := opsText(r, ops, Tag(strings.ToUpper(useTag)))
		res := runModel(orig, ops, session)
		if res.code != "" {
			c.fail(step, live.Raw(), useTag, text, "generator produced an op set the model rejects with %s", res.code)
		}
		if slices.Equal(res.texts(), orig) {
			res.code = CodeNoChange
		}
		before := stateOf(s)
		p, err := s.Plan(request(useTag, text), live)
		if res.code != "" {
			var he *Error
			if err == nil || !errors.As(err, &he) || he.Code != res.code {
				c.fail(step, live.Raw(), useTag, text, "want %s, got %v", res.code, err)
			}
			if after := stateOf(s); !reflect.DeepEqual(before, after) {
				c.fail(step, live.Raw(), useTag, text, "a no-change call changed the session")
			}
			c.stats[string(res.code)]++
			continue
		}
		if err != nil {
			c.failShrunk(step, live, useTag, ops, session, "want success, got %v", err)
		}
		if err := checkPlan(p, live, res); err != nil {
			c.failShrunk(step, live, useTag, ops, session, "%v\nplan.New: %q", err, p.New.Raw())
		}
		drift := slices.ContainsFunc(p.Warnings, func(w Warning) bool { return w.Kind == WarnDrift })
		if drift != stale {
			c.fail(step, live.Raw(), useTag, text, "drift warning %v, want %v: %+v", drift, stale, p.Warnings)
		}
		if after := stateOf(s); !reflect.DeepEqual(before, after) {
			c.fail(step, live.Raw(), useTag, text, "planning changed the session before commit")
		}
		c.stats["planned"]++
		if res.repaired > 0 {
			c.stats["planned with echo rows dropped"]++
		}
		if stale {
			c.stats["planned on a stale tag (branch B)"]++
		}
		if r.IntN(5) == 0 {
			continue // the write did not land; the old text stays live
		}
		s.Commit(p, propPath, p.New)
		for name, lines := range res.captures {
			session[name] = lines
		}
		// A line the ops replace with its own text, at a hunk's edge, is
		// one the write leaves alone, as apply does.
		moved := make([]int, len(orig)+1)
		for o, l := range res.out {
			if l.orig >= 0 {
				moved[l.orig+1] = o + 1
			}
		}
		settle(orig, res.texts(), moved)
		for _, m := range toLive {
			for i, at := range m {
				m[i] = moved[at]
			}
		}
		older = append(older, tag)
		past = append(past, orig)
		toLive = append(toLive, moved)
		live = p.New
	}
}

// staleOracle is what ops written against then (an older text) must do to
// now, the live text, where pos says where each line of then went. When
// every line the ops consume or anchor on is still there, unchanged and
// moved by one offset, the verdict is "recover" and the result is that of
// the ops at those lines, with the head and the end staying the head and
// the end. Otherwise, or when that changes nothing, it is "refuse". When
// the writes since then are a longer story than the shortest one the two
// texts tell (lines moved among equal ones), the text is all a reader has
// and the history cannot judge it: "unjudged".
func staleOracle(then, now []string, pos []int, ops []mop, session map[string][]string) (mresult, string) {
	if runModel(then, ops, session).code != "" {
		return mresult{}, "refuse"
	}
	pos = slices.Clone(pos)
	settle(then, now, pos)
	anchors := claimsOf(ops)
	if contentVerdict(then, now, pos, nil) == "cheaper" {
		return mresult{}, "unjudged"
	}
	for _, a := range anchors {
		if pos[a] == 0 || pos[a]-a != pos[anchors[0]]-anchors[0] {
			return mresult{}, "refuse"
		}
	}
	// Echo rows restate lines of the text the ops were written against,
	// so that is the text they are judged on, before the ops move.
	echoed, repaired := modelEchoes(then, ops)
	res := spliceModel(now, movedTo(echoed, pos), session)
	res.repaired = repaired
	if res.code != "" || slices.Equal(res.texts(), now) {
		return mresult{}, "refuse"
	}
	return res, "recover"
}

// atSomeOffset reports whether p is ops, written against then, applied to
// now with every line number moved by one offset at which each line the ops
// consume or anchor on reads in now as it did in then.
func atSomeOffset(p *Plan, live *Text, then, now []string, ops []mop, session map[string][]string) bool {
	anchors := claimsOf(ops)
	echoed, repaired := modelEchoes(then, ops)
	for off := -len(then); off <= len(now); off++ {
		pos := make([]int, len(then)+1)
		fits := true
		for _, a := range anchors {
			fits = fits && a+off >= 1 && a+off <= len(now) && now[a+off-1] == then[a-1]
			pos[a] = a + off
		}
		if !fits {
			continue
		}
		res := spliceModel(now, movedTo(echoed, pos), session)
		res.repaired = repaired
		if res.code == "" && checkPlan(p, live, res) == nil {
			return true
		}
	}
	return false
}

// failShrunk drops ops one at a time while the set stays valid and the
// failure persists, then reports the smallest set found.
func (c *propCase) failShrunk(step int, live *Text, tag string, ops []mop, session map[string][]string, format string, args ...any) {
	c.t.Helper()
	_, ol := splitRaw(live.Raw())
	orig := contents(ol)
	fails := func(ops []mop) bool {
		res := runModel(orig, ops, session)
		if res.code != "" || slices.Equal(res.texts(), orig) {
			return false
		}
		s := NewSession()
		s.Read(propPath, propPath, live, 1, live.Len())
		s.mu.Lock()
		for name, lines := range session {
			s.regs.Set(name, lines)
		}
		s.mu.Unlock()
		var parts []string
		for _, o := range ops {
			parts = append(parts, o.String())
		}
		p, err := s.Plan(request(string(live.Tag()), strings.Join(parts, "\n")), live)
		return err != nil || checkPlan(p, live, res) != nil
	}
	if fails(ops) {
		for shrunk := true; shrunk; {
			shrunk = false
			for i := range ops {
				next := slices.Delete(slices.Clone(ops), i, i+1)
				if len(next) > 0 && fails(next) {
					ops, shrunk = next, true
					break
				}
			}
		}
	}
	var parts []string
	for _, o := range ops {
		parts = append(parts, o.String())
	}
	c.fail(step, live.Raw(), tag, strings.Join(parts, "\n"), "(ops shrunk; session registers %q) "+format, append([]any{session}, args...)...)
}

func TestModelTagVectors(t *testing.T) {
	for raw, want := range map[string]Tag{
		"":    "B855",
		"a\n": "25C7",
		"a":   "48BB",
		"fn main() {\n    println!(\"hi\");\n}\n":                          "DF07",
		"def greet(name):\n    return f\"hello {name}\"\n\n":               "15E4",
		"\ufeffdef greet(name):  \r\n    return f\"hello {name}\"\r\n\r\n": "15E4",
	} {
		if got := modelTag(raw); got != want {
			t.Errorf("modelTag(%q) = %s, want %s", raw, got, want)
		}
	}
}

// iterations is how many cases a random test runs: full, short with
// -short, or what its flag asks for.
func iterations(full, short, asked int) int {
	switch {
	case asked > 0:
		return asked
	case testing.Short():
		return short
	}
	return full
}

// TestPlanMatchesModel: for random texts and random valid op sets, a
// session that read the whole file plans exactly the model's splice; an
// invalid call fails with its code and leaves the session as it was.
func TestPlanMatchesModel(t *testing.T) {
	stats := map[string]int{}
	if *propSeed != 0 {
		runPropCase(t, *propSeed, stats)
		return
	}
	iters := iterations(20000, 2000, *propIters)
	const base = 0x5eed0000
	for i := 0; i < iters; i++ {
		runPropCase(t, base+uint64(i), stats)
	}
	t.Logf("%d iterations, seeds %#x..%#x; outcomes: %v", iters, base, base+iters-1, stats)
}

// TestRenderWindowRows: for random windows of random texts, every row is
// the line's number and its text, numbers counting up across digit
// boundaries, and every row shown in full counts as seen.
func TestRenderWindowRows(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		var b strings.Builder
		n := r.IntN(1200)
		for i := 0; i < n; i++ {
			b.WriteString(genLine(r) + "\n")
		}
		tx := NewText(b.String())
		first, limit := 1+r.IntN(n+2), r.IntN(1100)
		v := RenderWindowAs(AnchorTag, propPath, tx, first, limit)
		rows := strings.Split(strings.TrimSuffix(v.Content, "\n"), "\n")
		if rows[0] != Header(propPath, tx.Tag()) {
			t.Fatalf("seed %d: header %q", seed, rows[0])
		}
		last := min(n, first+limit-1)
		if len(rows)-1 != max(0, last-first+1) {
			t.Fatalf("seed %d: %d rows for window %d..%d", seed, len(rows)-1, first, last)
		}
		for i, row := range rows[1:] {
			if want := strconv.Itoa(first+i) + ":" + tx.Line(first+i); row != want {
				t.Fatalf("seed %d: row %q, want %q", seed, row, want)
			}
		}
		if last >= first && v.Seen.String() != fmt.Sprintf("%d-%d", first, last) && !(first == last && v.Seen.String() == strconv.Itoa(first)) {
			t.Fatalf("seed %d: seen %s for window %d..%d", seed, v.Seen, first, last)
		}
	}
}

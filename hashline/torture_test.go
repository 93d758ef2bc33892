package hashline

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"hashline-ls/internal/testenv"
)

// The torture test reads a file, builds a random valid edit against what was
// read, changes the file behind the session's back, and sends the edit with
// the old tag. The drift is generated here, so the test knows where every
// line of the read went; that knowledge, not a diff, is the oracle:
//
//   - the edit is recoverable when every line it consumes or anchors on
//     survived unchanged, all moved by one offset (so nothing was inserted
//     inside a consumed range); its true result is then the edit applied to
//     the live text at those lines, the head and the end staying put, less
//     the + rows that restate a line just outside their range in the text
//     read (docs/contract.md §11.1's echo rule is part of what the edit means);
//   - a success must equal that result byte for byte; any other success is
//     a wrong write, and one is too many;
//   - a refusal must be EDIT_TAG_MISMATCH with the live tag, and write
//     nothing.
//
// The text does not always show the history. A line copied beside itself
// leaves two copies that no reader can tell apart, and the contract makes
// recovery refuse then; contentVerdict sorts such refusals out, with an
// independent dynamic program, so that the share of recoverable edits
// recovered is measured where recovery is possible at all.

var (
	tortureN    = flag.Int("torture.n", 0, "torture scenarios (0: 10,000, or 1,000 with -short)")
	tortureSeed = flag.Uint64("torture.seed", 0, "run the one torture scenario with this seed, verbosely")
)

const torturePath = "src/torture.go"

// tortureCorpus is the real source files beside the repository, when they are
// there: lines that are mostly unique, unlike the generated ones.
var tortureCorpus = sync.OnceValues(func() ([][]string, string) {
	pattern := filepath.Join(testenv.SharedPath("corpus", "react-edit"), "*", "input", "*")
	names, _ := filepath.Glob(pattern)
	var files [][]string
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n"), "\n")
		if len(lines) > 0 && !slices.ContainsFunc(lines, func(l string) bool { return strings.ContainsRune(l, '\r') }) {
			files = append(files, lines)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Sprintf("no corpus files at %s: only generated files are used", filepath.ToSlash(pattern))
	}
	return files, fmt.Sprintf("%d corpus files from %s", len(files), filepath.ToSlash(pattern))
})

// Lines that repeat in real code, so most files have many duplicates.
var tortureCommon = []string{
	"", "", "", "}", "}", "\t}", "\t}", "\t\t}", "\treturn nil", "\treturn nil", "\t\treturn err",
	"\tif err != nil {", "\tif err != nil {", "\t\treturn nil, err", "\ti++", "\tx := 1", "\tdefer mu.Unlock()",
	"\tmu.Lock()", "// ---", "\tbreak", "\tcontinue", "{", ")", "\t},", "\tdefault:",
}

func tortureLine(r *rand.Rand) string {
	if r.IntN(3) > 0 {
		return tortureCommon[r.IntN(len(tortureCommon))]
	}
	return fmt.Sprintf("\tv%d := compute(%d, %q)", r.IntN(50), r.IntN(1000), string(rune('a'+r.IntN(26))))
}

// tortureFile returns the lines of the file a scenario reads, and where they
// came from.
func tortureFile(r *rand.Rand) ([]string, string) {
	if corpus, _ := tortureCorpus(); len(corpus) > 0 && r.IntN(3) == 0 {
		k := r.IntN(len(corpus))
		f := corpus[k]
		if r.IntN(4) == 0 || len(f) <= 40 {
			return slices.Clone(f), fmt.Sprintf("corpus file %d (all %d lines)", k, len(f))
		}
		w := 20 + r.IntN(min(300, len(f)-20))
		s := r.IntN(len(f) - w + 1)
		return slices.Clone(f[s : s+w]), fmt.Sprintf("corpus file %d, lines %d-%d", k, s+1, s+w)
	}
	n := 1 + r.IntN(40)
	switch r.IntN(4) {
	case 0:
		n = 1 + r.IntN(6)
	case 1:
		n += r.IntN(300)
	}
	// A small pool per file makes repeated statements, beside the common
	// lines every file shares.
	pool := make([]string, 1+r.IntN(6))
	for i := range pool {
		pool[i] = tortureLine(r)
	}
	lines := make([]string, n)
	for i := range lines {
		if r.IntN(3) == 0 {
			lines[i] = pool[r.IntN(len(pool))]
		} else {
			lines[i] = tortureLine(r)
		}
	}
	return lines, fmt.Sprintf("generated, %d lines", n)
}

// tortureOps builds a valid edit of 1 to 4 ops against orig: ranges, gaps,
// the head and the end, CUT with and without a paste, and named-register
// pastes, from this call's capture or from the session's register @s.
func tortureOps(r *rand.Rand, orig, sessionReg []string) []mop {
	n := len(orig)
	claimed := map[int]bool{}
	free := func(lo, hi int) bool {
		for k := lo; k <= hi; k++ {
			if claimed[k] {
				return false
			}
		}
		return true
	}
	claim := func(l mloc) mloc {
		for _, c := range l.claims() {
			claimed[c] = true
		}
		return l
	}
	rng := func() (mloc, bool) {
		for try := 0; try < 8; try++ {
			lo := 1 + r.IntN(n)
			hi := lo
			if r.IntN(2) == 0 {
				hi += r.IntN(min(4, n-lo+1))
			}
			if free(lo, hi) {
				return claim(mloc{'r', lo, hi}), true
			}
		}
		return mloc{}, false
	}
	gap := func() mloc {
		for try := 0; try < 8 && r.IntN(6) > 0; try++ {
			k := 1 + r.IntN(n)
			l := mloc{'>', k, 0}
			if k > 1 && r.IntN(2) == 0 {
				l = mloc{'<', k, 0}
			}
			if free(k, k) {
				return claim(l)
			}
		}
		if r.IntN(2) == 0 {
			return mloc{'<', 1, 0}
		}
		return mloc{'$', 0, 0}
	}
	body := func() []string {
		rows := make([]string, 1+r.IntN(3))
		for i := range rows {
			if r.IntN(3) == 0 {
				rows[i] = orig[r.IntN(n)]
			} else {
				rows[i] = fmt.Sprintf("\tedited%d()", r.IntN(1000))
			}
		}
		return rows
	}
	budget := 1 + r.IntN(4)
	var chains [][]mop
	used, anon, named := 0, false, false
	for tries := 0; used < budget && tries < 20; tries++ {
		switch k := r.IntN(12); {
		case k < 4:
			if l, ok := rng(); ok {
				chains = append(chains, []mop{{verb: mPut, loc: l, body: body()}})
				used++
			}
		case k < 6:
			chains = append(chains, []mop{{verb: mPut, loc: gap(), body: body()}})
			used++
		case k < 7:
			l := mloc{'$', 0, 0}
			if r.IntN(2) == 0 {
				l = mloc{'<', 1, 0}
			}
			chains = append(chains, []mop{{verb: mPut, loc: l, body: body()}})
			used++
		case k < 9 && !anon:
			if l, ok := rng(); ok {
				chain := []mop{{verb: mCut, loc: l}}
				if used+2 <= budget && r.IntN(3) > 0 {
					chain = append(chain, mop{verb: mPaste, loc: gap()})
				}
				chains = append(chains, chain)
				used += len(chain)
				anon = true
			}
		case k < 10 && !named && used+2 <= budget:
			if l, ok := rng(); ok {
				dest := gap()
				if r.IntN(3) == 0 {
					if s, ok := rng(); ok {
						dest = s
					}
				}
				chains = append(chains, []mop{{verb: mCut, loc: l, reg: "r"}, {verb: mPaste, loc: dest, reg: "r"}})
				used += 2
				named = true
			}
		case k >= 10 && len(sessionReg) > 0:
			dest := gap()
			if r.IntN(3) == 0 {
				if s, ok := rng(); ok {
					dest = s
				}
			}
			chains = append(chains, []mop{{verb: mPaste, loc: dest, reg: "s"}})
			used++
		}
	}
	// Interleaved, each capture stays before its paste.
	return interleave(r, chains)
}

// tdrift is a change to the file made outside the session, described on the
// lines that were read: which went, which changed and to what, and what was
// inserted after each (ins[0] is the head).
type tdrift struct {
	del   []bool
	mod   []string
	isMod []bool
	ins   [][]string
	notes []string
}

func newTDrift(n int) *tdrift {
	return &tdrift{del: make([]bool, n+1), mod: make([]string, n+1), isMod: make([]bool, n+1), ins: make([][]string, n+1)}
}

// whitespaceVariant changes only the blanks of s: trailing whitespace added
// or dropped, indentation added, dropped or respelled.
func whitespaceVariant(r *rand.Rand, s string) string {
	trimmed := strings.TrimRight(s, " \t")
	body := strings.TrimLeft(s, " \t")
	switch r.IntN(6) {
	case 0:
		return s + " "
	case 1:
		return s + "\t"
	case 2:
		if trimmed != s {
			return trimmed
		}
		return s + "  "
	case 3:
		return "\t" + s
	case 4:
		if body != s {
			return body
		}
		return "    " + s
	default:
		if strings.HasPrefix(s, "\t") {
			return "    " + s[1:]
		}
		return " " + s
	}
}

// genTDrift changes orig at 1 to 5 places: away from the anchors, next to
// them, or on them; by inserting, deleting or changing lines, duplicating
// lines and blocks, and changing whitespace only.
func genTDrift(r *rand.Rand, orig []string, anchors []int) *tdrift {
	n := len(orig)
	d := newTDrift(n)
	copied := map[int]bool{}
	events := 1 + r.IntN(3)
	if r.IntN(3) == 0 {
		events += r.IntN(3)
	}
	for e := 0; e < events; e++ {
		var at int
		switch where := r.IntN(10); {
		case where < 4 || len(anchors) == 0:
			at = 1 + r.IntN(n)
			d.note("away")
		case where < 7:
			a := anchors[r.IntN(len(anchors))]
			at = min(n, max(1, a+[]int{-2, -1, 1, 2}[r.IntN(4)]))
			d.note("next to %d", a)
		default:
			at = anchors[r.IntN(len(anchors))]
			d.note("on %d", at)
		}
		switch k := r.IntN(12); {
		case k < 3:
			g := at - r.IntN(2)
			line := tortureLine(r)
			switch r.IntN(3) {
			case 0:
				line = orig[at-1] // a duplicate of the line it lands beside
			case 1:
				line = orig[r.IntN(n)]
			}
			d.ins[g] = append(d.ins[g], line)
			d.note("insert %q after %d", line, g)
		case k < 5:
			if copied[at] {
				continue
			}
			d.del[at] = true
			d.note("delete %d", at)
		case k < 7:
			if copied[at] || d.del[at] {
				continue
			}
			line := tortureLine(r)
			for line == orig[at-1] {
				line = tortureLine(r)
			}
			d.mod[at], d.isMod[at] = line, true
			d.note("change %d to %q", at, line)
		case k < 9:
			if copied[at] || d.del[at] {
				continue
			}
			v := whitespaceVariant(r, orig[at-1])
			d.mod[at], d.isMod[at] = v, true
			d.note("respace %d to %q", at, v)
		default:
			// A copy of a block of 1 to 3 lines beside itself, as when a
			// line or a function is duplicated in the editor. The copied
			// lines stay as they are, so the copy is never a move.
			lo := max(1, at-r.IntN(2))
			hi := min(n, lo+r.IntN(3))
			if slices.ContainsFunc(tseq(lo, hi), func(l int) bool { return d.del[l] || d.isMod[l] }) {
				continue
			}
			g := hi
			if r.IntN(2) == 0 {
				g = lo - 1
			}
			for l := lo; l <= hi; l++ {
				copied[l] = true
			}
			d.ins[g] = append(d.ins[g], orig[lo-1:hi]...)
			d.note("copy %d-%d after %d", lo, hi, g)
		}
	}
	return d
}

// retypes reports whether a line that went (deleted, or changed to other
// text) has its text back as a new line within 8 lines of where it was, or
// anywhere inside or beside the run of equal lines it belonged to.
func (d *tdrift) retypes(orig []string) bool {
	n := len(orig)
	for v := 1; v <= n; v++ {
		if !d.del[v] && !d.isMod[v] {
			continue
		}
		t := orig[v-1]
		lo, hi := v, v
		for lo > 1 && orig[lo-2] == t {
			lo--
		}
		for hi < n && orig[hi] == t {
			hi++
		}
		lo, hi = min(lo, max(1, v-8)), max(hi, min(n, v+8))
		for g := lo - 1; g <= hi; g++ {
			if slices.Contains(d.ins[g], t) || g >= 1 && d.isMod[g] && d.mod[g] == t {
				return true
			}
		}
	}
	return false
}

func (d *tdrift) note(format string, args ...any) {
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
}

func tseq(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

// apply returns the drifted lines and, for every line read, the live line it
// is now (1-based), or 0 when it was deleted or changed (see settle).
func (d *tdrift) apply(orig []string) ([]string, []int) {
	n := len(orig)
	var live []string
	pos := make([]int, n+1)
	live = append(live, d.ins[0]...)
	for i := 1; i <= n; i++ {
		switch {
		case d.del[i]:
		case d.isMod[i]:
			live = append(live, d.mod[i])
		default:
			live = append(live, orig[i-1])
			pos[i] = len(live)
		}
		live = append(live, d.ins[i]...)
	}
	settle(orig, live, pos)
	return live, pos
}

// settle takes the kept lines of pos as fixed and, between each two of
// them, pairs the changed region's first lines and last lines while they
// are equal on both sides: a line deleted and typed back at the same place
// is no change at all.
func settle(orig, live []string, pos []int) {
	n := len(orig)
	pi, pj := 0, 0
	for i := 1; i <= n+1; i++ {
		if i <= n && pos[i] == 0 {
			continue
		}
		j := len(live) + 1
		if i <= n {
			j = pos[i]
		}
		lo, hi, nlo, nhi := pi+1, i-1, pj+1, j-1
		for lo <= hi && nlo <= nhi && orig[lo-1] == live[nlo-1] {
			pos[lo] = nlo
			lo, nlo = lo+1, nlo+1
		}
		for lo <= hi && nlo <= nhi && orig[hi-1] == live[nhi-1] {
			pos[hi] = nhi
			hi, nhi = hi-1, nhi-1
		}
		pi, pj = i, j
	}
}

// ttruth is what the oracle knows about one scenario.
type ttruth struct {
	recoverable bool
	offset      int
	want        []string // the edit applied to the live text at the true lines
	noop        bool     // recoverable, but the edit leaves the live text as it is
	repaired    int      // echo rows the edit drops (docs/contract.md §11.1), one warning each
}

func tortureOracle(orig, live []string, pos []int, ops []mop, session map[string][]string) ttruth {
	anchors := claimsOf(ops)
	var tr ttruth
	// The echo rule of docs/contract.md §11.1 is part of what the edit means: a + row that
	// restates the line just outside its range says that line stays. It is
	// judged on the text the edit was written against, before any line
	// moves.
	echoed, repaired := modelEchoes(orig, ops)
	// A change to trailing whitespace alone keeps the tag and moves no line
	// (docs/contract.md §12.3): the edit applies where it was written, to the
	// live text, which is then the text its tag names.
	if thashForm(orig) == thashForm(live) {
		tr.recoverable = true
		pos = make([]int, len(orig)+1)
		for i := range pos {
			pos[i] = i
		}
		echoed, repaired = modelEchoes(live, ops)
	} else {
		tr.recoverable = true
		for k, a := range anchors {
			if pos[a] == 0 || k > 0 && pos[a]-a != tr.offset {
				tr.recoverable = false
				break
			}
			tr.offset = pos[a] - a
		}
	}
	if !tr.recoverable {
		return tr
	}
	res := spliceModel(live, movedTo(echoed, pos), session)
	if res.code != "" {
		panic(fmt.Sprintf("the model refuses the remapped ops: %s", res.code))
	}
	tr.repaired = repaired
	tr.want = res.texts()
	tr.noop = slices.Equal(tr.want, live)
	return tr
}

// contentVerdict says what the text alone can tell about a scenario the
// oracle calls recoverable: "cheaper" when the drift made up here is longer
// than the shortest explanation of the same text; "ambiguous" when some
// longest pairing of the read lines with the live ones places an anchor
// elsewhere or nowhere, so no reader of the text could tell where it went;
// "context" when docs/contract.md §13.1 step 7 refuses the true history (contextHolds);
// "clear" otherwise. The pairings come from scratch, on whole files, by the
// textbook dynamic program.
func contentVerdict(orig, live []string, pos []int, anchors []int) string {
	n, m := len(orig), len(live)
	f := make([][]int32, n+2)
	g := make([][]int32, n+2)
	for i := range f {
		f[i] = make([]int32, m+2)
		g[i] = make([]int32, m+2)
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			if orig[i-1] == live[j-1] {
				f[i][j] = f[i-1][j-1] + 1
			} else {
				f[i][j] = max(f[i-1][j], f[i][j-1])
			}
		}
	}
	for i := n; i >= 1; i-- {
		for j := m; j >= 1; j-- {
			if orig[i-1] == live[j-1] {
				g[i][j] = g[i+1][j+1] + 1
			} else {
				g[i][j] = max(g[i+1][j], g[i][j+1])
			}
		}
	}
	best := f[n][m]
	kept := int32(0)
	for i := 1; i <= n; i++ {
		if pos[i] != 0 {
			kept++
		}
	}
	if kept < best {
		return "cheaper"
	}
	for _, a := range anchors {
		for j := 0; j <= m; j++ {
			if f[a-1][j]+g[a+1][j+1] == best {
				return "ambiguous" // an equally long pairing leaves a unpaired
			}
			if j >= 1 && j != pos[a] && orig[a-1] == live[j-1] && f[a-1][j-1]+1+g[a+1][j+1] == best {
				return "ambiguous"
			}
		}
	}
	if !contextHolds(orig, live, pos, anchors) {
		return "context"
	}
	return "clear"
}

// contextHolds applies docs/contract.md §13.1 step 7 to the true history, per run of adjacent
// anchors: the lines just outside the run must still sit beside it at the
// run's offset, one of them when the run's text occurs once in each file,
// both otherwise. The file's ends count as such lines when the run reaches
// them.
func contextHolds(orig, live []string, pos []int, anchors []int) bool {
	set := map[int]bool{}
	for _, a := range anchors {
		set[a] = true
	}
	n := len(orig)
	for _, a := range anchors {
		if set[a-1] {
			continue
		}
		lo, hi := a, a
		for set[hi+1] {
			hi++
		}
		off := pos[lo] - lo
		up := lo == 1 && off == 0 || lo > 1 && pos[lo-1] == lo-1+off
		down := hi == n && hi+off == len(live) || hi < n && pos[hi+1] == hi+1+off
		run := orig[lo-1 : hi]
		unique := occurrences(orig, run) == 1 && occurrences(live, run) == 1
		if !(unique && (up || down) || up && down) {
			return false
		}
	}
	return true
}

func occurrences(text, run []string) int {
	c := 0
	for i := 0; i+len(run) <= len(text); i++ {
		if slices.Equal(text[i:i+len(run)], run) {
			c++
		}
	}
	return c
}

// thashForm is the text as the tag sees it: trailing blanks dropped.
func thashForm(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(l, " \t"))
		b.WriteByte('\n')
	}
	return b.String()
}

func tjoin(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

type tortureStats struct {
	scenarios, corpus                 int
	wrong                             int
	recovered, direct, positionStable int
	refused, refusedRecoverable       int
	refusedNoop                       int
	recoverable                       int // not no-ops: recovered, or refused
	remapped                          int
	echoed                            int // writes that dropped echo rows
	reasons                           map[string]int
	verdicts                          map[string]int // of refusals the oracle calls recoverable
	samples                           []string       // of the clear refusals
	failures                          []string
}

func (s *tortureStats) add(o *tortureStats) {
	s.scenarios += o.scenarios
	s.corpus += o.corpus
	s.wrong += o.wrong
	s.recovered += o.recovered
	s.direct += o.direct
	s.positionStable += o.positionStable
	s.refused += o.refused
	s.refusedRecoverable += o.refusedRecoverable
	s.refusedNoop += o.refusedNoop
	s.recoverable += o.recoverable
	s.remapped += o.remapped
	s.echoed += o.echoed
	for k, v := range o.reasons {
		s.reasons[k] += v
	}
	for k, v := range o.verdicts {
		s.verdicts[k] += v
	}
	s.samples = append(s.samples, o.samples...)
	s.failures = append(s.failures, o.failures...)
}

var (
	remapRE  = regexp.MustCompile(`^line remap: .* \(by ([+-]\d+)\)`)
	reasonRE = regexp.MustCompile(`could not be placed safely: (.*)\. The lines around your anchors`)
	numberRE = regexp.MustCompile(`\d+|\("(?:[^"\\]|\\.)*"\)`)
)

// tortureScenario is one generated case: what was read, the edit, the
// drift, and what the oracle knows.
type tortureScenario struct {
	orig, live []string
	pos        []int // where each line read is now (see tdrift.apply)
	source     string
	ops        []mop
	anchors    []int
	session    map[string][]string
	sessionReg []string
	drift      *tdrift
	truth      ttruth
}

func newTortureScenario(seed uint64) *tortureScenario {
	r := rand.New(rand.NewPCG(seed, 0x70727572))
	sc := &tortureScenario{session: map[string][]string{}}
	sc.orig, sc.source = tortureFile(r)
	if r.IntN(2) == 0 {
		sc.sessionReg = []string{tortureLine(r), tortureLine(r)}[:1+r.IntN(2)]
		sc.session["s"] = sc.sessionReg
	}
	for {
		sc.ops = tortureOps(r, sc.orig, sc.sessionReg)
		if res := runModel(sc.orig, sc.ops, sc.session); res.code == "" && !slices.Equal(res.texts(), sc.orig) {
			break
		}
	}
	sc.anchors = claimsOf(sc.ops)
	// A drift that deletes a line and types the same text back near where
	// it was is, to anyone who sees only the text, no change or a move of
	// the lines in between instead: the history made up here would call an
	// anchor gone that the text shows in place. Moves are left out, since
	// the line-by-line history cannot say which side of one moved, and such
	// drifts are drawn again.
	for sc.drift = genTDrift(r, sc.orig, sc.anchors); sc.drift.retypes(sc.orig); {
		sc.drift = genTDrift(r, sc.orig, sc.anchors)
	}
	sc.live, sc.pos = sc.drift.apply(sc.orig)
	sc.truth = tortureOracle(sc.orig, sc.live, sc.pos, sc.ops, sc.session)
	return sc
}

// runTorture runs one scenario and reports it into st.
func runTorture(seed uint64, st *tortureStats, verbose func(string)) {
	sc := newTortureScenario(seed)
	orig, live, ops, anchors, d, tr, source, sessionReg := sc.orig, sc.live, sc.ops, sc.anchors, sc.drift, sc.truth, sc.source, sc.sessionReg
	if strings.HasPrefix(source, "corpus") {
		st.corpus++
	}
	s := NewSession()
	if sessionReg != nil {
		s.mu.Lock()
		s.regs.Set("s", sessionReg)
		s.mu.Unlock()
	}
	read := NewText(tjoin(orig))
	s.Read(torturePath, torturePath, read, 1, read.Len())
	liveText := NewText(tjoin(live))
	liveRaw := liveText.Raw()
	var parts []string
	for _, o := range ops {
		parts = append(parts, o.String())
	}
	opsText := strings.Join(parts, "\n")
	st.scenarios++

	describe := func(what string) string {
		return fmt.Sprintf("seed %d (rerun: go test ./hashline/ -run TestTorture -torture.seed=%d): %s\nsource: %s\nops:\n%s\ndrift: %s\ntruth: recoverable %v offset %+d noop %v\nread:\n%s\nlive:\n%s",
			seed, seed, what, source, opsText, strings.Join(d.notes, "; "), tr.recoverable, tr.offset, tr.noop,
			tnumbered(orig, anchors), tnumbered(live, nil))
	}
	if verbose != nil {
		verbose(describe("scenario"))
	}

	p, err := s.Plan(EditRequest{Path: torturePath, Display: torturePath, Names: []string{torturePath}, Tag: string(read.Tag()), Ops: opsText}, liveText)
	if liveText.Raw() != liveRaw {
		st.failures = append(st.failures, describe("Plan changed the live text"))
	}
	if err != nil {
		var he *Error
		switch {
		case !errors.As(err, &he):
			st.failures = append(st.failures, describe(fmt.Sprintf("a failure that is not an *Error: %v", err)))
		case he.Code != CodeTagMismatch && !(tr.noop && he.Code == CodeNoChange):
			st.failures = append(st.failures, describe(fmt.Sprintf("failed with %s, want %s: %s", he.Code, CodeTagMismatch, he.Message)))
		case he.Code == CodeTagMismatch && he.Details.LiveTag != string(liveText.Tag()):
			st.failures = append(st.failures, describe(fmt.Sprintf("refusal carries live tag %s, want %s", he.Details.LiveTag, liveText.Tag())))
		}
		// Nothing was written: the session knows the text read and, from
		// the rows the refusal showed, the live text, and no other; a read
		// now shows the live text's tag.
		for _, v := range s.Snapshots(torturePath) {
			if v.Digest != read.Digest() && v.Digest != liveText.Digest() {
				st.failures = append(st.failures, describe(fmt.Sprintf("after a refusal the session holds a text it was never shown: %q", v.Text)))
			}
		}
		if v := s.Read(torturePath, torturePath, liveText, 1, 1); !strings.HasPrefix(v.Content, Header(torturePath, liveText.Tag())+"\n") {
			st.failures = append(st.failures, describe("after a refusal the session reads "+v.Content))
		}
		st.refused++
		if tr.noop {
			st.refusedNoop++
		}
		if tr.recoverable && !tr.noop {
			st.recoverable++
			st.refusedRecoverable++
			reason := "(no reason)"
			if he != nil {
				if m := reasonRE.FindStringSubmatch(he.Message); m != nil {
					reason = m[1]
				}
			}
			verdict := "clear"
			if thashForm(orig) != thashForm(live) {
				verdict = contentVerdict(orig, live, sc.pos, anchors)
			}
			st.verdicts[verdict]++
			reason = verdict + ": " + reason
			st.reasons[numberRE.ReplaceAllStringFunc(reason, func(m string) string {
				if strings.HasPrefix(m, "(") {
					return "(…)"
				}
				return "N"
			})]++
			if len(st.samples) < 5 && verdict == "clear" {
				st.samples = append(st.samples, fmt.Sprintf("seed %d: %s; ops %q; drift: %s", seed, reason, opsText, strings.Join(d.notes, "; ")))
			}
		}
		return
	}
	if !tr.recoverable || tr.noop {
		st.wrong++
		st.failures = append(st.failures, describe(fmt.Sprintf("WRONG WRITE: planned %q, but the oracle says the edit cannot be placed", p.New.Raw())))
		return
	}
	st.recoverable++
	if v := s.Snapshots(torturePath); len(v) != 1 || v[0].Digest != read.Digest() {
		st.failures = append(st.failures, describe("planning recorded a text"))
	}
	if want := tjoin(tr.want); p.New.Raw() != want {
		st.wrong++
		st.failures = append(st.failures, describe(fmt.Sprintf("WRONG WRITE:\nplanned %q\nwant    %q", p.New.Raw(), want)))
		return
	}
	// The warnings name the cause: branch B's drift; branch C's external
	// change, and its line remap exactly when the lines moved. Beside them
	// stands one repair warning per echo row dropped, and no other.
	var drift, external, remap bool
	var warnings []Warning
	repaired := 0
	for _, w := range p.Warnings {
		if w.Kind == WarnRepaired {
			repaired++
			continue
		}
		warnings = append(warnings, w)
	}
	if repaired != tr.repaired {
		st.failures = append(st.failures, describe(fmt.Sprintf("%d repair warnings, want %d: %+v", repaired, tr.repaired, p.Warnings)))
	}
	if tr.repaired > 0 {
		st.echoed++
	}
	for _, w := range warnings {
		switch {
		case w.Kind == WarnDrift:
			drift = true
		case w.Kind == WarnRecovered && strings.HasPrefix(w.Message, "external change: "):
			external = true
		case w.Kind == WarnRecovered:
			m := remapRE.FindStringSubmatch(w.Message)
			if m == nil || m[1] != fmt.Sprintf("%+d", tr.offset) {
				st.failures = append(st.failures, describe(fmt.Sprintf("warning %q, want a line remap by %+d", w.Message, tr.offset)))
			}
			remap = true
		}
	}
	switch {
	case liveText.Digest() == read.Digest():
		st.direct++
		if len(warnings) != 0 {
			st.failures = append(st.failures, describe(fmt.Sprintf("branch A warnings %+v", p.Warnings)))
		}
	case len(anchors) == 0:
		st.positionStable++
		if !drift || len(warnings) != 1 {
			st.failures = append(st.failures, describe(fmt.Sprintf("branch B warnings %+v", p.Warnings)))
		}
	default:
		st.recovered++
		if remap {
			st.remapped++
		}
		if !external || remap != (tr.offset != 0) || p.Resolved != nil {
			st.failures = append(st.failures, describe(fmt.Sprintf("recovery warnings %+v (offset %+d), resolved %v", p.Warnings, tr.offset, p.Resolved)))
		}
	}
}

func tnumbered(lines []string, mark []int) string {
	var b strings.Builder
	for i, l := range lines {
		m := "  "
		if slices.Contains(mark, i+1) {
			m = "* "
		}
		fmt.Fprintf(&b, "%s%d:%q\n", m, i+1, l)
	}
	return b.String()
}

// TestTorture: see the comment at the top of this file. Over the scenarios
// it requires no wrong write, no refusal that writes or misreports, and at
// least 90% (the target is 95%) of the recoverable edits recovered where the
// text can tell where the anchors went and docs/contract.md §13.1 step 7 allows it; the share
// of all recoverable edits is logged beside it, and the refusals by cause.
func TestTorture(t *testing.T) {
	if *tortureSeed != 0 {
		st := &tortureStats{reasons: map[string]int{}, verdicts: map[string]int{}}
		runTorture(*tortureSeed, st, func(s string) { t.Log(s) })
		for _, f := range st.failures {
			t.Error(f)
		}
		t.Logf("wrong %d, recovered %d, direct %d, branch B %d, refused %d (recoverable %d)", st.wrong, st.recovered, st.direct, st.positionStable, st.refused, st.refusedRecoverable)
		return
	}
	n := iterations(10000, 1000, *tortureN)
	// Without the corpus the test runs on generated files alone, except
	// where the corpus is required.
	testenv.OptionalCorpus(t, "react-edit")
	if _, note := tortureCorpus(); note != "" {
		t.Log(note)
	}
	workers := runtime.GOMAXPROCS(0)
	parts := make([]*tortureStats, workers)
	var wg sync.WaitGroup
	const base = 0x7047000000
	for w := range workers {
		parts[w] = &tortureStats{reasons: map[string]int{}, verdicts: map[string]int{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				runTorture(base+uint64(i), parts[w], nil)
			}
		}()
	}
	wg.Wait()
	st := &tortureStats{reasons: map[string]int{}, verdicts: map[string]int{}}
	for _, p := range parts {
		st.add(p)
	}
	sort.Strings(st.failures)
	for i, f := range st.failures {
		if i == 10 {
			t.Errorf("... and %d more failures", len(st.failures)-10)
			break
		}
		t.Error(f)
	}
	// The oracle's "recoverable" is about history, which the text does not
	// always show. Its refusals split into: ambiguous (an equally short
	// explanation of the same text puts an anchor elsewhere, so a write
	// would be a guess), cheaper (a shorter explanation exists), context
	// (docs/contract.md §13.1 step 7 forbids it on the true history) and clear (the rest: the
	// ones an implementation of the contract could have recovered).
	recovered := st.recoverable - st.refusedRecoverable
	strict := percent(recovered, st.recoverable)
	permitted := percent(recovered, recovered+st.verdicts["clear"])
	t.Logf("%d scenarios (seeds %#x..%#x, %d on corpus files): wrong writes %d; recoveries %d (%d with a line remap), branch A %d, branch B %d; refusals %d, of which the oracle calls %d recoverable (ambiguous %d, cheaper %d, context %d, clear %d) and %d no-ops",
		st.scenarios, base, base+uint64(n)-1, st.corpus, st.wrong, st.recovered, st.remapped, st.direct, st.positionStable,
		st.refused, st.refusedRecoverable, st.verdicts["ambiguous"], st.verdicts["cheaper"], st.verdicts["context"], st.verdicts["clear"], st.refusedNoop)
	t.Logf("%d of the writes dropped echo rows (docs/contract.md §11.1)", st.echoed)
	t.Logf("recovered %d of %d recoverable edits (%.2f%%); of those the text decides and the contract permits, %d of %d (%.2f%%, target 95%%)",
		recovered, st.recoverable, strict, recovered, recovered+st.verdicts["clear"], permitted)
	type kv struct {
		k string
		v int
	}
	var reasons []kv
	for k, v := range st.reasons {
		reasons = append(reasons, kv{k, v})
	}
	sort.Slice(reasons, func(i, j int) bool {
		return reasons[i].v > reasons[j].v || reasons[i].v == reasons[j].v && reasons[i].k < reasons[j].k
	})
	for _, r := range reasons {
		t.Logf("refused though recoverable, %6d %s", r.v, r.k)
	}
	sort.Strings(st.samples)
	for _, s := range st.samples[:min(len(st.samples), 5)] {
		t.Log("sample of a clear refusal: " + s)
	}
	if st.wrong > 0 {
		t.Errorf("%d wrong writes", st.wrong)
	}
	if permitted < 90 {
		t.Errorf("recovered %.2f%% of the recoverable edits the text decides and the contract permits, want at least 90%% (target 95%%)", permitted)
	}
}

func percent(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

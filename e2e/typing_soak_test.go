package e2e

import (
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var soakFor = flag.Duration("soak", 8*time.Second, "how long TestTypingSoak types in each Neovim build (make soak: 60s)")

// TestTypingSoak is a person and a terminal agent in one file, in a real
// Neovim: the person types words at the bottom and notes at the end of
// the file's rows (10 to 30 keys a second), saves now and then, and closes
// and reopens the file; the agent reads and edits the same rows through
// hashline-ls mcp and the bridge, as fast as it is answered. An oracle
// then judges the buffer and the disk: every keystroke is there once, in
// the order typed; every edit reported done is where its anchors named,
// and every refused one left no trace; no other line changed; the disk
// holds the buffer when it is not modified, and never typing that was not
// saved.
func TestTypingSoak(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nvim string) {
		e := startTyping(t, nvim, typingSetup{files: map[string]string{"app.py": numbered(soakRows)}, open: []string{"app.py"}})
		s := &soak{e: e, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)), saved: map[string]bool{}, diskBad: map[string]bool{}}
		deadline := time.Now().Add(*soakFor)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(2)
		var agentErr error
		go func() { defer wg.Done(); agentErr = s.agent(deadline) }()
		go func() { defer wg.Done(); s.watchDisk(done) }()
		s.person(deadline)
		close(done)
		wg.Wait()
		if agentErr != nil {
			e.fatal("the agent: %v", agentErr)
		}
		s.judge()
	})
}

const soakRows = 30

// soak is one run: what the person typed and the agent did, for the oracle.
type soak struct {
	e   *typingEditor
	rng *rand.Rand // the person's; the agent has its own

	mu      sync.Mutex // guards the fields below
	tokens  []typed    // every word the person finished, in typed order
	keys    int
	appends []rowTouch // the person's notes at the end of rows, with when
	saved   map[string]bool
	edits   []agentEdit
	diskBad map[string]bool // words the disk was seen holding that it must not
	nextTok int
}

// typed is one word the person typed: at the bottom, or at the end of row.
type typed struct {
	word string
	row  int // 0: a line of its own at the bottom
}

type rowTouch struct {
	row        int
	start, end time.Time
}

type agentEdit struct {
	kind     string // "replace" or "insert"
	row      int
	mark     string // what the edit writes that nothing else does
	ok       bool
	code     string
	took     time.Duration
	from, to time.Time
}

var (
	rowRe = regexp.MustCompile(`^line_(\d+) = ('a\d+'|\d+)((?: # p\d{4})*)$`)
	// readRowRe is a row as the agent reads it: a word may be half typed.
	readRowRe  = regexp.MustCompile(`^line_(\d+) = ('a\d+'|\d+)(.*)$`)
	diskWordRe = regexp.MustCompile(`(?m)(?:^| # )(p\d*)`)
	agentRe    = regexp.MustCompile(`^agent_(\d+) = \d+$`)
	wordRe     = regexp.MustCompile(`^p\d{4}$`)
	codeRe     = regexp.MustCompile(`^([A-Z_]+):`)
)

// person types until the deadline, as a person would.
func (s *soak) person(deadline time.Time) {
	lastSave, lastReopen := time.Now(), time.Now()
	for time.Now().Before(deadline) {
		switch {
		case time.Since(lastReopen) > 15*time.Second:
			s.reopen()
			lastReopen, lastSave = time.Now(), time.Now()
		case time.Since(lastSave) > 3*time.Second:
			s.save()
			lastSave = time.Now()
		case s.rng.IntN(4) == 0:
			row := 1 + s.rng.IntN(soakRows)
			from := time.Now()
			s.typeWord(fmt.Sprintf("<Esc>/^line_%d =<CR>A # ", row), row)
			s.mu.Lock()
			s.appends = append(s.appends, rowTouch{row: row, start: from, end: time.Now()})
			s.mu.Unlock()
		default:
			s.typeWord("<Esc>Go", 0)
		}
	}
	s.typeKeys("<Esc>")
}

// typeWord types the keys that put the cursor where the next word goes
// with the word's first key, as one burst (an edit landing between them
// would move the line the cursor is on), then the rest a key at a time,
// then leaves insert mode.
func (s *soak) typeWord(lead string, row int) {
	s.mu.Lock()
	s.nextTok++
	word := fmt.Sprintf("p%04d", s.nextTok)
	s.mu.Unlock()
	for i, c := range word {
		keys := string(c)
		if i == 0 {
			keys = lead + keys
		}
		s.typeKeys(keys)
		time.Sleep(time.Duration(33+s.rng.IntN(67)) * time.Millisecond)
	}
	s.typeKeys("<Esc>")
	s.e.typeKeys("") // taken in: the word is in the buffer
	s.mu.Lock()
	s.tokens = append(s.tokens, typed{word: word, row: row})
	s.mu.Unlock()
}

func (s *soak) typeKeys(keys string) {
	if err := s.e.nv.Input(keys); err != nil {
		s.e.fatal("typing %q: %v", keys, err)
	}
	s.mu.Lock()
	s.keys += countKeys(keys)
	s.mu.Unlock()
}

// countKeys counts the keys nvim_input takes: a <...> spelling is one.
func countKeys(keys string) int {
	n := 0
	for i := 0; i < len(keys); i++ {
		if keys[i] == '<' {
			if j := strings.IndexByte(keys[i:], '>'); j > 0 {
				i += j
			}
		}
		n++
	}
	return n
}

// save is :write. The words finished before it starts may be on disk.
func (s *soak) save() {
	s.e.typeKeys("")
	s.mu.Lock()
	for _, tok := range s.tokens {
		s.saved[tok.word] = true
	}
	s.mu.Unlock()
	if err := s.e.nv.Command("write"); err != nil {
		s.e.fatal(":write: %v", err)
	}
}

// reopen saves, closes the file (:bdelete) and opens it again, as a person
// switching files does; the agent's edits in between load it unseen.
func (s *soak) reopen() {
	s.save()
	if err := s.e.nv.Command("bdelete"); err != nil {
		// An edit landed after the save and is not saved yet: the file
		// stays open, as it would for the person (E89).
		if !strings.Contains(err.Error(), "E89") {
			s.e.fatal(":bdelete: %v", err)
		}
		return
	}
	time.Sleep(time.Duration(200+s.rng.IntN(300)) * time.Millisecond)
	s.e.do("edit app.py")
}

// agent reads and edits rows of app.py until the deadline.
func (s *soak) agent(deadline time.Time) error {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	for k := 1; time.Now().Before(deadline); k++ {
		from := time.Now()
		r, err := s.e.tryCall("hashline_read", map[string]any{"path": "app.py"})
		if err != nil || r.isErr || r.tag() == "" {
			return fmt.Errorf("read: %v %s", err, r.text)
		}
		rows := map[int]int{} // row → its line in the read
		suffix := map[int]string{}
		for i, l := range readLines(r.text) {
			if m := readRowRe.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1])
				rows[n], suffix[n] = i+1, m[3]
			}
		}
		if rng.IntN(3) == 0 {
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		}
		row := 1 + rng.IntN(soakRows)
		line, ok := rows[row]
		if !ok {
			return fmt.Errorf("the read shows no row %d:\n%s", row, r.text)
		}
		ed := agentEdit{kind: "replace", row: row, from: from}
		var ops string
		if rng.IntN(5) < 3 {
			ed.mark = fmt.Sprintf("'a%d'", k)
			ops = fmt.Sprintf("PUT %d.=%d:\n+line_%d = %s%s\n", line, line, row, ed.mark, suffix[row])
		} else {
			ed.kind, ed.mark = "insert", fmt.Sprintf("agent_%d = %d", k, k)
			ops = fmt.Sprintf("PUT >%d:\n+%s\n", line, ed.mark)
		}
		res, err := s.e.tryCall("hashline_edit", map[string]any{"path": "app.py", "tag": r.tag(), "ops": ops})
		if err != nil {
			return fmt.Errorf("edit %q: %v", ops, err)
		}
		ed.ok, ed.took, ed.to = !res.isErr, res.took, time.Now()
		if res.isErr {
			ed.code = "?"
			if m := codeRe.FindStringSubmatch(res.text); m != nil {
				ed.code = m[1]
			}
		}
		s.mu.Lock()
		s.edits = append(s.edits, ed)
		s.mu.Unlock()
	}
	return nil
}

// watchDisk reads the file every 50 ms until done and notes any word on
// disk the person had not finished before a save began: typing that was
// not saved. A line still being written (no newline yet) is left out.
func (s *soak) watchDisk(done <-chan struct{}) {
	path := filepath.Join(s.e.ws, "app.py")
	for {
		select {
		case <-done:
			return
		case <-time.After(50 * time.Millisecond):
		}
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		text := string(b)
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			text = text[:i]
		} else {
			continue
		}
		s.mu.Lock()
		for _, m := range diskWordRe.FindAllStringSubmatch(text, -1) {
			if !s.saved[m[1]] {
				s.diskBad[m[1]] = true
			}
		}
		s.mu.Unlock()
	}
}

// judge is the oracle, then the figures.
func (s *soak) judge() {
	t, e := s.e.t, s.e
	e.typeKeys("")
	got := e.buffer("app.py")
	if !got.loaded {
		e.do("edit app.py")
		got = e.buffer("app.py")
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	// The last edit that landed on each row names its value; every insert
	// that landed sits below its row; the person's words are where typed.
	lastValue := map[int]string{}
	inserted := map[string]int{}
	refused := map[string]bool{}
	for _, ed := range s.edits {
		switch {
		case !ed.ok:
			refused[ed.mark] = true
		case ed.kind == "replace":
			lastValue[ed.row] = ed.mark
		default:
			inserted[ed.mark] = ed.row
		}
	}
	var bottom []string
	rowWords := map[int][]string{}
	seenRow := 0
	seenInsert := map[string]bool{}
	for i, l := range got.lines {
		if m := rowRe.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n != seenRow+1 {
				bad("line %d is row %d after row %d", i+1, n, seenRow)
			}
			seenRow = n
			want := lastValue[n]
			if want == "" {
				want = strconv.Itoa(n)
			}
			if m[2] != want {
				bad("row %d holds %s, want %s (the last edit of it that was reported done)", n, m[2], want)
			}
			rowWords[n] = append(rowWords[n], strings.Fields(strings.ReplaceAll(m[3], "#", ""))...)
			continue
		}
		if agentRe.MatchString(l) {
			row, ok := inserted[l]
			switch {
			case !ok:
				bad("line %d %q is an insert that was refused, or never made", i+1, l)
			case seenInsert[l]:
				bad("line %d %q is there twice", i+1, l)
			case seenRow != row:
				bad("line %d %q sits below row %d, want below row %d", i+1, l, seenRow, row)
			}
			seenInsert[l] = true
			continue
		}
		if wordRe.MatchString(l) {
			bottom = append(bottom, l)
			continue
		}
		bad("line %d %q is no row, insert or typed word", i+1, l)
	}
	if seenRow != soakRows {
		bad("the last row is %d, want %d", seenRow, soakRows)
	}
	for mark := range inserted {
		if !seenInsert[mark] {
			bad("the insert %q was reported done and is not in the buffer", mark)
		}
	}
	for mark := range refused {
		if strings.Contains(got.text(), mark+"\n") || strings.Contains(got.text(), mark+" ") {
			bad("the refused edit %q left a trace", mark)
		}
	}
	// Every word once, where and in the order typed.
	var wantBottom []string
	wantRow := map[int][]string{}
	for _, tok := range s.tokens {
		if tok.row == 0 {
			wantBottom = append(wantBottom, tok.word)
		} else {
			wantRow[tok.row] = append(wantRow[tok.row], tok.word)
		}
	}
	if !slices.Equal(bottom, wantBottom) {
		bad("the words at the bottom are %v, want %v", bottom, wantBottom)
	}
	for row := 1; row <= soakRows; row++ {
		if !slices.Equal(rowWords[row], wantRow[row]) {
			bad("row %d ends with the words %v, want %v", row, rowWords[row], wantRow[row])
		}
	}
	disk := e.disk("app.py")
	if !got.modified && disk != got.text() {
		bad("the buffer is not modified but the disk holds other text:\n%s", disk)
	}
	if len(s.diskBad) > 0 {
		bad("the disk held typing that was never saved: %v", slices.Sorted(maps.Keys(s.diskBad)))
	}
	s.report(t)
	if len(problems) > 0 {
		e.fatal("the oracle found:\n%s\nthe buffer holds:\n%s", strings.Join(problems, "\n"), got.text())
	}
}

// report logs the run's figures: edits done and refused by code,
// keystrokes, the latency of the edits done, and the share refused
// although they touched no line the person changed.
func (s *soak) report(t *testing.T) {
	var took []time.Duration
	codes := map[string]int{}
	untouched := 0
	for _, ed := range s.edits {
		if ed.ok {
			took = append(took, ed.took)
			continue
		}
		codes[ed.code]++
		if !s.touched(ed) {
			untouched++
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	pct := func(p int) time.Duration {
		if len(took) == 0 {
			return 0
		}
		return took[min(len(took)-1, len(took)*p/100)]
	}
	var byCode []string
	for c, n := range codes {
		byCode = append(byCode, fmt.Sprintf("%s %d", c, n))
	}
	sort.Strings(byCode)
	share := 0.0
	if len(s.edits) > 0 {
		share = 100 * float64(untouched) / float64(len(s.edits))
	}
	t.Logf("soak %s: %d edits, %d done, refused: [%s]; %d words, ~%d keys; done edits p50 %s p95 %s; refused untouching a typed line: %d (%.1f%%, target <= 2%%)",
		*soakFor, len(s.edits), len(took), strings.Join(byCode, ", "), len(s.tokens), s.keys, pct(50).Round(time.Millisecond), pct(95).Round(time.Millisecond), untouched, share)
}

// touched reports whether the person typed on ed's row while ed was on
// its way, from its read to its answer.
func (s *soak) touched(ed agentEdit) bool {
	for _, a := range s.appends {
		if a.row == ed.row && a.start.Before(ed.to) && a.end.After(ed.from) {
			return true
		}
	}
	return false
}

// Command grepbench times `hashline-ls grep` against ripgrep on the same
// trees in one run, checks that both print the same matches, and states
// each time as a ratio to rg's. It exits 1 when the matches differ or a
// ratio misses its target.
//
//	go build -o hl ./cmd/hashline-ls && go run ./scripts/grepbench -bin ./hl
//
// The floor is rg's time plus SHA-256 over the files with matches, which
// grep hashes for their tags and rg does not. The generated trees are made
// from a fixed seed in a temporary folder and removed afterwards. Two real
// trees are added when they are there: 20 copies of the react-edit corpus
// inputs, and the Go module cache's github.com folder. Last, the symbols
// mode against rg with a declaration pattern over the Go tree (symbols.go).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"hashline-ls/internal/gentree"
)

// rgFlags make rg search the files hashline-ls grep searches: hidden files
// too (grep skips only .git), .gitignore and .git/info/exclude honoured in
// every folder whether or not it is a git repository (--no-require-git),
// and no ignore source grep does not read (.ignore and .rgignore, the
// global excludes file, folders above the root, a config file). -uu would
// search what .gitignore files ignore, which grep leaves out. Both leave
// out a file with a NUL byte early on.
var rgFlags = []string{
	"-n", "--no-heading", "--with-filename", "--color", "never",
	"--hidden", "--no-require-git", "--no-ignore-dot", "--no-ignore-global",
	"--no-ignore-parent", "--no-config", "-g", "!.git",
}

type row struct {
	tree, dir, pattern string
}

// largeHit matches lines of the large generated C files only, so its
// matched bytes, which grep must hash for their tags, are most of the tree.
const largeHit = `ACTIONS\(3999\)`

type timing struct {
	median time.Duration
	rssKB  int64
	out    []byte
}

func main() {
	bin := flag.String("bin", "", "the hashline-ls binary to time (required)")
	before := flag.String("before", "", "another hashline-ls binary to time beside it, e.g. an older build")
	rg := flag.String("rg", "rg", "the ripgrep binary")
	runs := flag.Int("runs", 5, "timed runs of each command, after one warm-up")
	target := flag.Float64("target", 3, "the largest ratio that passes")
	corpus := flag.String("corpus", "../shared/corpus/react-edit", "the react-edit corpus, copied 20 times into one tree when present")
	modcache := flag.String("modcache", goModCache(), "a real tree to search when present (the module cache's github.com folder)")
	symbolsOnly := flag.Bool("symbols", false, "time only the symbols mode against rg over the Go tree")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "grepbench: -bin is required: build hashline-ls and pass its path")
		os.Exit(2)
	}
	if _, err := exec.LookPath(*rg); err != nil {
		fmt.Fprintf(os.Stderr, "grepbench: %s not found: install Debian's ripgrep (apt-get install ripgrep) or pass -rg\n", *rg)
		os.Exit(2)
	}
	if *symbolsOnly {
		if symbolRows(*bin, *rg, *runs, *target) {
			os.Exit(1)
		}
		return
	}
	work, err := os.MkdirTemp("", "grepbench-")
	check(err)
	defer os.RemoveAll(work)

	rows, err := trees(work, *corpus, *modcache)
	check(err)
	// The trees just written would otherwise go to disk while the first
	// rows are timed.
	syncDisk()
	fmt.Printf("medians of %d runs after a warm-up, page cache warm; rg %s\n", *runs, strings.Join(rgFlags, " "))
	fmt.Printf("floor = rg + SHA-256 of the matched files on %d cores, the tags grep must mint; target <= %gx rg, or the floor where hashing is most of it\n", runtime.GOMAXPROCS(0), *target)
	if _, err := os.Stat(gnuTime); err != nil {
		fmt.Println("peak RSS needs GNU time (Debian's time package); shown as 0")
	}
	fmt.Printf("%-20s %5s %6s %-18s %7s %9s %9s %6s %9s %6s %7s %7s", "tree", "files", "MB", "pattern", "matches", "hashline", "rg", "ratio", "floor", "ratio", "RSS MB", "rg RSS")
	if *before != "" {
		fmt.Printf(" %9s %6s %7s", "before", "ratio", "RSS MB")
	}
	fmt.Println()
	failed := false
	for _, r := range rows {
		failed = measure(r, *bin, *before, *rg, *runs, *target) || failed
	}
	failed = symbolRows(*bin, *rg, *runs, *target) || failed
	if failed {
		os.Exit(1)
	}
}

// measure times one row and prints it; it reports whether the row failed.
func measure(r row, bin, before, rg string, runs int, target float64) bool {
	files, size := census(r.dir)
	cmds := [][]string{hlArgs(bin, r.pattern), append(append([]string{rg}, rgFlags...), "--", r.pattern)}
	if before != "" {
		cmds = append(cmds, hlArgs(before, r.pattern))
	}
	ts, hash, err := timeRow(r.dir, cmds, runs)
	check(err)
	hl, rgm := parseHashline(ts[0].out), parseRg(ts[1].out)
	same, diff := compare(hl, rgm)
	floor := ts[1].median + hash
	ratio, floorRatio := float64(ts[0].median)/float64(ts[1].median), float64(ts[0].median)/float64(floor)
	verdict, failed := "", false
	switch {
	case !same:
		verdict, failed = "  DIFFERENT MATCHES: "+diff, true
	case ratio <= target:
	case hash > ts[1].median && floorRatio <= target:
		verdict = fmt.Sprintf("  over %gx rg: hashing the matched files alone takes %s", target, ms(hash))
	default:
		verdict, failed = fmt.Sprintf("  MISSED (target <= %gx)", target), true
	}
	fmt.Printf("%-20s %5d %6.1f %-18s %7d %9s %9s %5.1fx %9s %5.1fx %7.1f %7.1f", clip(r.tree, 20), files, float64(size)/1e6, clip(r.pattern, 18), len(hl),
		ms(ts[0].median), ms(ts[1].median), ratio, ms(floor), floorRatio, float64(ts[0].rssKB)/1024, float64(ts[1].rssKB)/1024)
	if before != "" {
		fmt.Printf(" %9s %5.1fx %7.1f", ms(ts[2].median), float64(ts[2].median)/float64(ts[1].median), float64(ts[2].rssKB)/1024)
	}
	fmt.Println(verdict)
	return failed
}

// matchedFiles reads the files that have matches into memory.
func matchedFiles(dir string, matches map[string]match) [][]byte {
	paths := map[string]bool{}
	for _, m := range matches {
		paths[m.path] = true
	}
	var bodies [][]byte
	for p := range paths {
		b, err := os.ReadFile(filepath.Join(dir, p))
		check(err)
		bodies = append(bodies, b)
	}
	return bodies
}

// hashAll times SHA-256 over the bodies, one goroutine per core: the part
// of grep's work, minting tags, that rg does not do.
func hashAll(bodies [][]byte) time.Duration {
	next := make(chan []byte, len(bodies))
	for _, b := range bodies {
		next <- b
	}
	close(next)
	start := time.Now()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for b := range next {
				sha256.Sum256(b)
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

func hlArgs(bin, pattern string) []string {
	abs, err := filepath.Abs(bin)
	check(err)
	return []string{abs, "grep", "--max-results", "10000000", "--", pattern}
}

// trees makes the generated trees and lists every row to time.
func trees(work, corpus, modcache string) ([]row, error) {
	var rows []row
	if dir, err := reactCopies(work, corpus, 20); err == nil {
		rows = append(rows, row{"react-edit x20", dir, `useState\(|useEffect\(`})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if fi, err := os.Stat(modcache); err == nil && fi.IsDir() {
		rows = append(rows, row{"module cache", modcache, gentree.HitPattern}, row{"module cache", modcache, gentree.NoHitPattern})
	}
	specs := []struct {
		name string
		spec gentree.Spec
	}{
		{"gen 1k files 10MB", gentree.Spec{Seed: 1, Files: 1000, SmallBytes: 10 << 20, Hits: 600}},
		{"gen 2k files 300MB", gentree.Spec{Seed: 2, Files: 2000, SmallBytes: 100 << 20, Large: 8, LargeSize: gentree.Size{Min: 20 << 20, Max: 30 << 20}, Hits: 40}},
	}
	for _, s := range specs {
		dir := filepath.Join(work, strings.ReplaceAll(s.name, " ", "-"))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		if _, err := gentree.Write(dir, s.spec); err != nil {
			return nil, err
		}
		rows = append(rows, row{s.name, dir, gentree.HitPattern}, row{s.name, dir, gentree.NoHitPattern})
		if s.spec.Large > 0 {
			rows = append(rows, row{s.name, dir, largeHit})
		}
	}
	return rows, nil
}

// reactCopies copies every task's input files n times into one tree.
func reactCopies(work, corpus string, n int) (string, error) {
	inputs, err := filepath.Glob(filepath.Join(corpus, "*", "input", "*"))
	if err != nil {
		return "", err
	}
	if len(inputs) == 0 {
		return "", fs.ErrNotExist
	}
	dir := filepath.Join(work, "react-edit")
	for i := range n {
		for _, in := range inputs {
			b, err := os.ReadFile(in)
			if err != nil {
				return "", err
			}
			task := filepath.Base(filepath.Dir(filepath.Dir(in)))
			out := filepath.Join(dir, fmt.Sprintf("copy%02d", i), task, filepath.Base(in))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return "", err
			}
			if err := os.WriteFile(out, b, 0o644); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
}

// timeRow runs each command once to warm the page cache and keep its
// output (rg's, the second, tells which files matched), then runs them and
// the hashing of those files in turn, so noise from other work on the
// machine falls on all of them alike, then each command once more under
// GNU time for its peak RSS.
func timeRow(dir string, cmds [][]string, runs int) ([]timing, time.Duration, error) {
	out := make([]timing, len(cmds))
	samples := make([][]time.Duration, len(cmds)+1)
	var bodies [][]byte
	for r := -1; r < runs; r++ {
		for i, c := range cmds {
			d, stdout, err := run(dir, c)
			if err != nil {
				return nil, 0, err
			}
			if r < 0 {
				out[i].out = stdout
				continue
			}
			samples[i] = append(samples[i], d)
		}
		if r < 0 {
			bodies = matchedFiles(dir, parseRg(out[1].out))
			continue
		}
		samples[len(cmds)] = append(samples[len(cmds)], hashAll(bodies))
	}
	for i := range samples {
		slices.Sort(samples[i])
	}
	for i, c := range cmds {
		out[i].median = samples[i][len(samples[i])/2]
		out[i].rssKB = peakRSS(dir, c)
	}
	hash := samples[len(cmds)]
	return out, hash[len(hash)/2], nil
}

func run(dir string, argv []string) (time.Duration, []byte, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var exit *exec.ExitError
	// rg exits 1 when nothing matched.
	if errors.As(err, &exit) && exit.ExitCode() == 1 && stdout.Len() == 0 && strings.HasSuffix(argv[0], "rg") {
		err = nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, clip(stderr.String(), 400))
	}
	return d, stdout.Bytes(), nil
}

// gnuTime is Debian's time package. Its fork gives the command a fresh
// peak RSS; the rusage Go's own exec reports would count this process's
// memory too, because the child shares it until exec.
const gnuTime = "/usr/bin/time"

// peakRSS is the command's peak resident set in KiB, or 0 without GNU time.
func peakRSS(dir string, argv []string) int64 {
	if _, err := os.Stat(gnuTime); err != nil {
		return 0
	}
	cmd := exec.Command(gnuTime, append([]string{"-f", "%M"}, argv...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	kb, _ := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	return kb
}

// match is one printed match.
type match struct {
	path string
	line int
	text string
}

var (
	header = regexp.MustCompile(`^\[(.*)#[0-9A-F]{4}\]$`)
	hlRow  = regexp.MustCompile(`^(\d+):(.*)$`)
	rgRow  = regexp.MustCompile(`^(.*?):(\d+):(.*)$`)
)

// parseHashline reads grep's content: a [path#TAG] header per file, then
// N:text rows.
func parseHashline(out []byte) map[string]match {
	ms := map[string]match{}
	path := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if m := header.FindStringSubmatch(line); m != nil {
			path = m[1]
		} else if m := hlRow.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			ms[key(path, n)] = match{path, n, m[2]}
		}
	}
	return ms
}

func parseRg(out []byte) map[string]match {
	ms := map[string]match{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		if m := rgRow.FindStringSubmatch(sc.Text()); m != nil {
			n, _ := strconv.Atoi(m[2])
			ms[key(m[1], n)] = match{m[1], n, strings.TrimSuffix(m[3], "\r")}
		}
	}
	return ms
}

func key(path string, line int) string { return path + ":" + strconv.Itoa(line) }

// clipMark starts the note grep puts after a row it could not show whole.
var clipMark = regexp.MustCompile(` … \[line \d+ (clipped|is not valid UTF-8)`)

// compare reports whether both printed the same (path, line, text) set. A
// row grep clipped must be the start of rg's line.
func compare(hl, rg map[string]match) (bool, string) {
	var diffs []string
	for k, m := range hl {
		r, ok := rg[k]
		switch {
		case !ok:
			diffs = append(diffs, "only hashline-ls: "+k)
		case m.text == r.text:
		case clipMark.MatchString(m.text):
			shown := m.text[:clipMark.FindStringIndex(m.text)[0]]
			if !strings.HasPrefix(strings.ToValidUTF8(r.text, "\uFFFD"), shown) {
				diffs = append(diffs, "text differs: "+k)
			}
		default:
			diffs = append(diffs, "text differs: "+k)
		}
	}
	for k := range rg {
		if _, ok := hl[k]; !ok {
			diffs = append(diffs, "only rg: "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 3 {
		diffs = append(diffs[:3], fmt.Sprintf("and %d more", len(diffs)-3))
	}
	return len(diffs) == 0, strings.Join(diffs, "; ")
}

func census(dir string) (files int, size int64) {
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				files++
				size += fi.Size()
			}
		}
		return nil
	})
	return files, size
}

func goModCache() string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	return filepath.Join(strings.TrimSpace(string(out)), "github.com")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "grepbench:", err)
		os.Exit(1)
	}
}

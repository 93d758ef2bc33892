package main

// Where a Go name is declared, over the Go standard library's source:
// `hashline-ls grep --mode symbols '^Name$'` against rg looking for the
// same name with a declaration pattern, in the same run. rg's pattern finds
// functions and methods only, so the comparison holds the function and
// method declarations hashline-ls lists to rg's lines; hashline-ls lists
// the types, variables and constants of that name too. A file the outliner
// cannot read (a syntax error on purpose in a test, or a parse limit) is
// named in the result's notice, and rg's lines in it are counted apart.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// symbolNames are looked for: declared in a few files and named in few, in
// some dozens, and in hundreds.
var symbolNames = []string{"ParseDuration", "WriteHeader", "NewReader"}

// symbolRows times each name and prints a row; it reports whether one
// failed.
func symbolRows(bin, rg string, runs int, target float64) bool {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	check(err)
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		fmt.Printf("symbols: no Go source at %s: %v\n", dir, err)
		return true
	}
	files, size := census(dir)
	fmt.Printf("\nwhere a name is declared in %s (%d files, %.1f MB): grep --mode symbols '^Name$' against rg with a declaration pattern, target <= %gx rg\n", dir, files, float64(size)/1e6, target)
	fmt.Printf("%-16s %9s %9s %6s  %s\n", "name", "hashline", "rg", "ratio", "declarations: functions and methods alike / only rg (in files not outlined) / others hashline lists")
	failed := false
	for _, name := range symbolNames {
		hl := []string{absBin(bin), "grep", "--mode", "symbols", "--max-results", "10000000", "--", "^" + name + "$"}
		rgCmd := append(append([]string{rg}, rgFlags...), "--", `^func (\([^)]*\) )?`+name+`[\[(]`)
		ts, _, err := timeRow(dir, [][]string{hl, rgCmd}, runs)
		check(err)
		same, onlyRg, unread, others, extra := compareSymbols(dir, hl, ts[1].out)
		ratio := float64(ts[0].median) / float64(ts[1].median)
		verdict := ""
		switch {
		case len(extra) > 0:
			verdict, failed = "  DIFFERENT: only hashline-ls: "+strings.Join(extra, ", "), true
		case onlyRg > unread:
			verdict, failed = fmt.Sprintf("  DIFFERENT: %d of rg's lines are in files hashline-ls outlined", onlyRg-unread), true
		case ratio > target:
			verdict, failed = fmt.Sprintf("  MISSED (target <= %gx)", target), true
		default:
			verdict = "  ok"
		}
		fmt.Printf("%-16s %9s %9s %5.1fx  %d / %d (%d) / %d%s\n", name, ms(ts[0].median), ms(ts[1].median), ratio, same, onlyRg, unread, others, verdict)
	}
	return failed
}

func absBin(bin string) string {
	abs, err := filepath.Abs(bin)
	check(err)
	return abs
}

// compareSymbols runs the symbols grep once more for its JSON and holds
// its function and method declarations to rg's lines.
func compareSymbols(dir string, hl []string, rgOut []byte) (same, onlyRg, unread, others int, extra []string) {
	cmd := exec.Command(hl[0], append([]string{"grep", "--json"}, hl[2:]...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	check(err)
	var res struct {
		Symbols []struct {
			Path, Kind string
			Line       int
		} `json:"symbols"`
		Notice string `json:"notice"`
	}
	check(json.Unmarshal(out, &res))
	rgm := parseRg(rgOut)
	seen := map[string]bool{}
	for _, s := range res.Symbols {
		if s.Kind != "func" && s.Kind != "method" {
			others++
			continue
		}
		k := key(s.Path, s.Line)
		seen[k] = true
		if _, ok := rgm[k]; ok {
			same++
		} else {
			extra = append(extra, k)
		}
	}
	for k, m := range rgm {
		if seen[k] {
			continue
		}
		onlyRg++
		if strings.Contains(res.Notice, m.path+" (") {
			unread++
		}
	}
	return same, onlyRg, unread, others, extra
}

package hashline_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
	"hashline-ls/internal/golden"
)

// The boundary repair of docs/contract.md §11, driven through Session.Plan with the
// tree-sitter resolver, which is also the syntax checker the search needs.
// Every case names the exact text that must come out, and the exact
// warnings: a repair nobody is told about is a silent rewrite.

// goSrc has a doc comment, a function and a sibling:
//
//	1 package a
//	2
//	3 // F returns x.
//	4 func F() int {
//	5 	x := 1
//	6 	return x
//	7 }
//	8
//	9 func G() {}
const goSrc = "package a\n\n// F returns x.\nfunc F() int {\n\tx := 1\n\treturn x\n}\n\nfunc G() {}\n"

// The rule of docs/contract.md §11.1: a + row that restates, byte for byte, the line
// just outside its range is dropped on equality alone, with a warning,
// when that line survives the call and says something. The cases are
// under testdata/repair/echoes.
func TestRepairEchoes(t *testing.T) {
	t.Parallel()
	runRepairGolden(t, "testdata/repair/echoes", 15)
}

// A widened range restating its own first line writes only the line that
// changed.
func TestRepairWidenedRangeTouchesOnlyTheChange(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "a.go", goSrc)
	f.blocks = blocks.New()
	p := f.mustPlan("PUT 4.=5:\n+func F() int {\n+\tx := 2")
	if len(p.Hunks) != 1 || p.Hunks[0].Start != 4 || p.Hunks[0].End != 5 || !reflect.DeepEqual(p.Hunks[0].Lines, []string{"\tx := 2"}) {
		t.Fatalf("hunks %+v, want line 5 alone replaced", p.Hunks)
	}
}

// The bounded search of docs/contract.md §11.2: a range that swallowed an unchanged boundary
// row keeps it, but only with the evidence the contract asks for. The
// cases are under testdata/repair/retention.
func TestRepairRetention(t *testing.T) {
	t.Parallel()
	runRepairGolden(t, "testdata/repair/retention", 13)
}

// repairFixture reads the path, src and ops sections of a repair golden
// file: the fixture has read src at path, with the tree-sitter resolver.
// An ops section loses its last newline, as the calls end on their last
// row.
func repairFixture(t *testing.T, g *golden.File) (f *editFixture, ops string) {
	t.Helper()
	f = readFixture(t, g.Value(t, "path"), g.Must(t, "src"))
	f.blocks = blocks.New()
	return f, g.Value(t, "ops")
}

// runRepairGolden runs the repair cases of dir, a golden file each. Past
// path, src and ops (see repairFixture): want, the planned text; warnings,
// the exact repair warnings, one a line; parses, true or false, whether
// want parses (a retention must leave a text that does; an edit the search
// may not touch is applied as written), not checked for a language the
// resolver has no parser for. With -update the three are written from
// what the plan made.
func runRepairGolden(t *testing.T, dir string, atLeast int) {
	golden.Run(t, dir, atLeast, func(t *testing.T, g *golden.File) {
		f, ops := repairFixture(t, g)
		p, err := f.plan(ops)
		if err != nil {
			t.Fatalf("Plan(%q): %v", ops, err)
		}
		var got []string
		for _, w := range p.Warnings {
			if w.Kind != hashline.WarnRepaired {
				t.Fatalf("unexpected warning %+v", w)
			}
			got = append(got, w.Message)
		}
		if hashline.ApplyEdits(g.Must(t, "src"), p.Edits) != p.New.Raw() {
			t.Fatal("Edits do not produce New")
		}
		clean, supported := blocks.New().Parses(f.path, p.New.Normalized())
		if *golden.Update {
			g.Set("want", p.New.Raw())
			g.Set("warnings", warningLines(got))
			if supported {
				g.Set("parses", strconv.FormatBool(clean)+"\n")
			}
			g.Write(t)
			return
		}
		if want := g.Must(t, "want"); p.New.Raw() != want {
			t.Fatalf("new text\n%q\nwant\n%q", p.New.Raw(), want)
		}
		var warnings []string
		if w := g.Must(t, "warnings"); w != "" {
			warnings = strings.Split(strings.TrimSuffix(w, "\n"), "\n")
		}
		if !reflect.DeepEqual(got, warnings) {
			t.Fatalf("warnings\n%q\nwant\n%q", got, warnings)
		}
		parses, err := strconv.ParseBool(strings.TrimSpace(g.Must(t, "parses")))
		if err != nil {
			t.Fatalf("%s: parses: %v", g.Path, err)
		}
		if supported && clean != parses {
			t.Fatalf("the planned text parses: %v, want %v", clean, parses)
		}
	})
}

// warningLines is ss a line each.
func warningLines(ss []string) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s + "\n")
	}
	return b.String()
}

// Two candidates that both parse and differ are a guess between them: the
// call fails with EDIT_REPAIR_AMBIGUOUS and the session is as it was. The
// golden files under testdata/repair/tie hold path, src and ops (see
// repairFixture), the error's message and the lines it names, space
// separated.
func TestRepairTieRejected(t *testing.T) {
	t.Parallel()
	golden.Run(t, "testdata/repair/tie", 2, func(t *testing.T, g *golden.File) {
		f, ops := repairFixture(t, g)
		before := snapshotsOf(f)
		// A named capture in the failed call must not be kept either;
		// pasted back where it was, it changes nothing else.
		_, err := f.plan(ops + "\nCUT 1.=1 @tie\nPUT <2 @tie")
		he := wantCode(t, err, hashline.CodeRepairAmbiguous)
		var got []string
		for _, n := range he.Details.Lines {
			got = append(got, strconv.Itoa(n))
		}
		if *golden.Update {
			g.Set("message", he.Message+"\n")
			g.Set("lines", strings.Join(got, " ")+"\n")
			g.Write(t)
		} else if msg, want := g.Value(t, "message"), strings.Fields(g.Must(t, "lines")); he.Message != msg || !reflect.DeepEqual(got, want) {
			t.Fatalf("message %q lines %v\nwant    %q lines %v", he.Message, got, msg, want)
		}
		if he.Code.Retriable() {
			t.Fatal("EDIT_REPAIR_AMBIGUOUS is retriable")
		}
		if after := snapshotsOf(f); !reflect.DeepEqual(before, after) {
			t.Fatalf("the session changed:\nbefore %v\nafter  %v", before, after)
		}
		_, err = f.plan("PUT >$ @tie")
		wantCode(t, err, hashline.CodeRegisterEmpty)
	})
}

// snapshotsOf is what the session holds for the fixture's path.
func snapshotsOf(f *editFixture) []string {
	var out []string
	for _, v := range f.s.Snapshots(f.path) {
		out = append(out, string(v.Tag)+" "+v.Seen.String()+" "+v.Text)
	}
	return out
}

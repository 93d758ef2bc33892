package hashline_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
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

// pySrc:
//
//	1 def f():
//	2     x = 1
//	3     return x
//	4
//	5
//	6 def g():
//	7     pass
const pySrc = "def f():\n    x = 1\n    return x\n\n\ndef g():\n    pass\n"

// tsSrc:
//
//	1 export function f(): number {
//	2   const x = 1;
//	3   return x;
//	4 }
//	5
//	6 export const y = 2;
const tsSrc = "export function f(): number {\n  const x = 1;\n  return x;\n}\n\nexport const y = 2;\n"

type repairCase struct {
	name string
	path string
	src  string
	ops  string
	// want is the planned text; warnings the exact repair warnings.
	want     string
	warnings []string
	// parses is whether want parses: a retention must leave a text that
	// does; an edit the search may not touch is applied as written.
	parses bool
}

func dropFirst(op string, line int) string {
	return "op 1 (" + op + "): dropped the first + row, which restated line " + strconv.Itoa(line) + " just above the range; that line stays as it is: ranges name changed lines only"
}

func dropLast(op string, line int) string {
	return "op 1 (" + op + "): dropped the last + row, which restated line " + strconv.Itoa(line) + " just below the range; that line stays as it is: ranges name changed lines only"
}

func kept(op string, line int, text string) string {
	return "op 1 (" + op + "): kept line " + strconv.Itoa(line) + " (" + text + "), which the range swallowed: the + rows do not restate it, and without it the file no longer parses; ranges name changed lines only"
}

func runRepairCases(t *testing.T, cases []repairCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, c.path, c.src)
			f.blocks = blocks.New()
			p, err := f.plan(c.ops)
			if err != nil {
				t.Fatalf("Plan(%q): %v", c.ops, err)
			}
			if p.New.Raw() != c.want {
				t.Fatalf("new text\n%q\nwant\n%q", p.New.Raw(), c.want)
			}
			var got []string
			for _, w := range p.Warnings {
				if w.Kind != hashline.WarnRepaired {
					t.Fatalf("unexpected warning %+v", w)
				}
				got = append(got, w.Message)
			}
			if !reflect.DeepEqual(got, c.warnings) {
				t.Fatalf("warnings\n%q\nwant\n%q", got, c.warnings)
			}
			if clean, supported := blocks.New().Parses(c.path, p.New.Normalized()); supported && clean != c.parses {
				t.Fatalf("the planned text parses: %v, want %v", clean, c.parses)
			}
			if hashline.ApplyEdits(c.src, p.Edits) != c.want {
				t.Fatal("Edits do not produce New")
			}
		})
	}
}

// The rule of docs/contract.md §11.1: a + row that restates, byte for byte, the line
// just outside its range is dropped on equality alone, with a warning,
// when that line survives the call and says something.
func TestRepairEchoes(t *testing.T) {
	t.Parallel()
	runRepairCases(t, []repairCase{
		{name: "go: first row restates the line above", path: "a.go", src: goSrc,
			ops:      "PUT 5.=5:\n+func F() int {\n+\tx := 2",
			want:     strings.Replace(goSrc, "\tx := 1", "\tx := 2", 1),
			warnings: []string{dropFirst("PUT 5.=5:", 4)}, parses: true},
		{name: "go: last row restates the line below", path: "a.go", src: goSrc,
			ops:      "PUT 5.=5:\n+\tx := 2\n+\treturn x",
			want:     strings.Replace(goSrc, "\tx := 1", "\tx := 2", 1),
			warnings: []string{dropLast("PUT 5.=5:", 6)}, parses: true},
		{name: "go: both ends restated", path: "a.go", src: goSrc,
			ops:      "PUT 5.=5:\n+func F() int {\n+\tx := 2\n+\ty := 3\n+\treturn x",
			want:     strings.Replace(goSrc, "\tx := 1", "\tx := 2\n\ty := 3", 1),
			warnings: []string{dropFirst("PUT 5.=5:", 4), dropLast("PUT 5.=5:", 6)}, parses: true},
		// After the first drop one row is left: that row is all the op
		// says, so the last-row rule no longer applies.
		{name: "go: the second drop needs two rows left", path: "a.go", src: goSrc,
			ops:      "PUT 5.=5:\n+func F() int {\n+\treturn x",
			want:     strings.Replace(goSrc, "\tx := 1\n", "\treturn x\n", 1),
			warnings: []string{dropFirst("PUT 5.=5:", 4)}, parses: true},
		// A resolved block is a range too; the doc comment above it is its
		// own node (docs/contract.md §10.4), so restating it is an echo.
		{name: "go: a block replacement restating the doc comment", path: "a.go", src: goSrc,
			ops:      "PUT 4*:\n+// F returns x.\n+func F() int {\n+\treturn 2\n+}",
			want:     "package a\n\n// F returns x.\nfunc F() int {\n\treturn 2\n}\n\nfunc G() {}\n",
			warnings: []string{dropFirst("PUT 4*:", 3)}, parses: true},
		{name: "python: first row restates the def", path: "a.py", src: pySrc,
			ops:      "PUT 2.=2:\n+def f():\n+    x = 2",
			want:     strings.Replace(pySrc, "x = 1", "x = 2", 1),
			warnings: []string{dropFirst("PUT 2.=2:", 1)}, parses: true},
		{name: "python: last row restates the return", path: "a.py", src: pySrc,
			ops:      "PUT 2.=2:\n+    x = 2\n+    return x",
			want:     strings.Replace(pySrc, "x = 1", "x = 2", 1),
			warnings: []string{dropLast("PUT 2.=2:", 3)}, parses: true},
		{name: "typescript: last row restates the return", path: "a.ts", src: tsSrc,
			ops:      "PUT 2.=2:\n+  const x = 2;\n+  return x;",
			want:     strings.Replace(tsSrc, "const x = 1", "const x = 2", 1),
			warnings: []string{dropLast("PUT 2.=2:", 3)}, parses: true},

		// What the rule leaves alone.
		{name: "go: a restated } is not dropped", path: "a.go", src: goSrc,
			ops:    "PUT 6.=6:\n+\treturn x * 2\n+}",
			want:   strings.Replace(goSrc, "\treturn x\n}\n", "\treturn x * 2\n}\n}\n", 1),
			parses: false},
		{name: "typescript: a restated } is not dropped", path: "a.ts", src: tsSrc,
			ops:    "PUT 3.=3:\n+  return x * 2;\n+}",
			want:   strings.Replace(tsSrc, "  return x;\n}\n", "  return x * 2;\n}\n}\n", 1),
			parses: false},
		{name: "go: a restated blank line is not dropped", path: "a.go", src: goSrc,
			ops:    "PUT 7.=7:\n+}\n+",
			want:   strings.Replace(goSrc, "}\n\n", "}\n\n\n", 1),
			parses: true},
		{name: "go: a body of one row is all the op says", path: "a.go", src: goSrc,
			ops:    "PUT 5.=5:\n+func F() int {",
			want:   strings.Replace(goSrc, "\tx := 1\n", "func F() int {\n", 1),
			parses: false},
		// Line 4 is cut by another op, so it does not survive: the row
		// that retypes it is new text.
		{name: "go: the line above is another op's", path: "a.go", src: goSrc,
			ops:    "CUT 4.=4\nPUT 5.=5:\n+func F() int {\n+\tx := 2",
			want:   strings.Replace(goSrc, "\tx := 1", "\tx := 2", 1),
			parses: true},
		{name: "go: the line above anchors another op's gap", path: "a.go", src: goSrc,
			ops:    "PUT >4:\n+\ty := 0\nPUT 5.=5:\n+func F() int {\n+\tx := y",
			want:   strings.Replace(goSrc, "\tx := 1\n", "\ty := 0\nfunc F() int {\n\tx := y\n", 1),
			parses: false},
		// Restating a line inside the range is not an echo: it replaces
		// itself, and the write leaves it untouched.
		{name: "go: a widened range restating its own first line", path: "a.go", src: goSrc,
			ops:    "PUT 4.=5:\n+func F() int {\n+\tx := 2",
			want:   strings.Replace(goSrc, "\tx := 1", "\tx := 2", 1),
			parses: true},
	})
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
// row keeps it, but only with the evidence the contract asks for.
func TestRepairRetention(t *testing.T) {
	t.Parallel()
	const pyList = "x = [\n    1,\n    2,\n]\ny = 3\n"
	runRepairCases(t, []repairCase{
		// Line 7 is F's closing brace. Keeping line 5 instead is no
		// candidate: deleting it alone leaves a file that parses.
		{name: "go: a swallowed closing brace is kept", path: "a.go", src: goSrc,
			ops:      "PUT 5.=7:\n+\treturn 2",
			want:     "package a\n\n// F returns x.\nfunc F() int {\n\treturn 2\n}\n\nfunc G() {}\n",
			warnings: []string{kept("PUT 5.=7:", 7, `"}"`)}, parses: true},
		{name: "typescript: a swallowed closing brace is kept", path: "a.ts", src: tsSrc,
			ops:      "PUT 2.=4:\n+  return 2;",
			want:     "export function f(): number {\n  return 2;\n}\n\nexport const y = 2;\n",
			warnings: []string{kept("PUT 2.=4:", 4, `"}"`)}, parses: true},
		{name: "python: a swallowed closing bracket is kept", path: "a.py", src: pyList,
			ops:      "PUT 3.=4:\n+    3,",
			want:     "x = [\n    1,\n    3,\n]\ny = 3\n",
			warnings: []string{kept("PUT 3.=4:", 4, `"]"`)}, parses: true},
		{name: "javascript: a swallowed opening line is kept", path: "a.js", src: "const a = 1;\nfunction f() {\n  return a;\n}\n",
			ops:      "PUT 1.=2:\n+const a = 2;",
			want:     "const a = 2;\nfunction f() {\n  return a;\n}\n",
			warnings: []string{kept("PUT 1.=2:", 2, `"function f() {"`)}, parses: true},
		// Retention combines with echo removal: the restated doc comment
		// stays dropped, and the swallowed signature goes back above the
		// rows, not below a second copy of the comment.
		{name: "go: retention after an echo drop", path: "a.go", src: goSrc,
			ops:  "PUT 4.=7:\n+// F returns x.\n+\treturn 2\n+}",
			want: "package a\n\n// F returns x.\nfunc F() int {\n\treturn 2\n}\n\nfunc G() {}\n",
			warnings: []string{dropFirst("PUT 4.=7:", 3),
				kept("PUT 4.=7:", 4, `"func F() int {"`)}, parses: true},

		// No retention: the authored text is applied as written.
		{name: "go: a baseline that did not parse", path: "a.go",
			src:    "package a\n\nfunc F() int {\n\tx := := 1\n\treturn x\n}\n",
			ops:    "PUT 4.=6:\n+\treturn 2",
			want:   "package a\n\nfunc F() int {\n\treturn 2\n",
			parses: false},
		{name: "python: a baseline that did not parse", path: "a.py",
			src:    "x = [\n    1,\n    2,\n]\ny = = 3\n",
			ops:    "PUT 3.=4:\n+    3,",
			want:   "x = [\n    1,\n    3,\ny = = 3\n",
			parses: false},
		// The rows close a block of their own with }, so which } the range
		// meant to keep is not what the evidence shows.
		{name: "go: the rows restate the row elsewhere", path: "a.go", src: goSrc,
			ops:    "PUT 5.=7:\n+\tif x > 0 {\n+\t}\n+\treturn 2",
			want:   "package a\n\n// F returns x.\nfunc F() int {\n\tif x > 0 {\n\t}\n\treturn 2\n\nfunc G() {}\n",
			parses: false},
		{name: "typescript: the rows restate the row elsewhere", path: "a.ts", src: tsSrc,
			ops:    "PUT 2.=4:\n+  if (x) {\n+  }\n+  return 2;",
			want:   "export function f(): number {\n  if (x) {\n  }\n  return 2;\n\nexport const y = 2;\n",
			parses: false},
		// Keeping "\t}" would parse, but it sits deeper than every row that
		// replaces its neighbours, so it does not enclose them.
		{name: "go: the row is deeper than the rows", path: "a.go",
			src:    "package a\n\nfunc F() {\n\tif x {\n\t\ta()\n\t}\n}\n",
			ops:    "PUT 5.=6:\n+b()",
			want:   "package a\n\nfunc F() {\n\tif x {\nb()\n}\n",
			parses: false},
		{name: "python: the row is deeper than the rows", path: "a.py",
			src:    "def f():\n    return g(\n        1,\n    )\n",
			ops:    "PUT 3.=4:\n+x = 2",
			want:   "def f():\n    return g(\nx = 2\n",
			parses: false},
		{name: "an unsupported language", path: "a.zig", src: goSrc,
			ops:  "PUT 5.=7:\n+\treturn 2",
			want: "package a\n\n// F returns x.\nfunc F() int {\n\treturn 2\n\nfunc G() {}\n"},
		// An edit whose result parses is never searched.
		{name: "go: a result that parses", path: "a.go", src: goSrc,
			ops:    "PUT 5.=6:\n+\treturn 2",
			want:   "package a\n\n// F returns x.\nfunc F() int {\n\treturn 2\n}\n\nfunc G() {}\n",
			parses: true},
	})
}

// Two candidates that both parse and differ are a guess between them: the
// call fails with EDIT_REPAIR_AMBIGUOUS and the session is as it was.
func TestRepairTieRejected(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, path, src, ops, msg string
		lines                     []int
	}{
		// "c() }" closes one of the two blocks the range swallowed the
		// closers of: keeping "\t}" or "}" both parse, as different code.
		{name: "go", path: "a.go", src: "package a\n\nfunc F() {\n\tif x {\n\t\ta()\n\t}\n}\n",
			ops:   "PUT 6.=7:\n+\t\tc() }",
			msg:   `as written the edit leaves the file unparsable, and 2 repairs fit equally well (keep line 6 ("\t}") of op 1; keep line 7 ("}") of op 1): nothing was written; name only the lines that change, so the range leaves out the lines that stay`,
			lines: []int{6, 7}},
		{name: "javascript", path: "a.js", src: "function f() {\n  if (a) {\n    b();\n  }\n}\n",
			ops:   "PUT 4.=5:\n+    c(); }",
			msg:   `as written the edit leaves the file unparsable, and 2 repairs fit equally well (keep line 4 ("  }") of op 1; keep line 5 ("}") of op 1): nothing was written; name only the lines that change, so the range leaves out the lines that stay`,
			lines: []int{4, 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, c.path, c.src)
			f.blocks = blocks.New()
			before := snapshotsOf(f)
			// A named capture in the failed call must not be kept either;
			// pasted back where it was, it changes nothing else.
			_, err := f.plan(c.ops + "\nCUT 1.=1 @tie\nPUT <2 @tie")
			he := wantCode(t, err, hashline.CodeRepairAmbiguous)
			if he.Message != c.msg || !reflect.DeepEqual(he.Details.Lines, c.lines) {
				t.Fatalf("message %q lines %v\nwant    %q lines %v", he.Message, he.Details.Lines, c.msg, c.lines)
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
}

// snapshotsOf is what the session holds for the fixture's path.
func snapshotsOf(f *editFixture) []string {
	var out []string
	for _, v := range f.s.Snapshots(f.path) {
		out = append(out, string(v.Tag)+" "+v.Seen.String()+" "+v.Text)
	}
	return out
}

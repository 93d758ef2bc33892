package hashline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
	"hashline-ls/internal/golden"
	"hashline-ls/workspace"
)

// The retriable column of docs/contract.md §18.2, plus the generic codes: every code.
var retriable = map[hashline.Code]bool{
	hashline.CodeTagRequired:          false,
	hashline.CodeTagMismatch:          true,
	hashline.CodeTagUnknown:           true,
	hashline.CodeLinesUnseen:          true,
	hashline.CodeParseFailed:          false,
	hashline.CodeRangeInvalid:         false,
	hashline.CodeBlockUnresolved:      false,
	hashline.CodeRegisterEmpty:        false,
	hashline.CodeRegisterAmbiguous:    false,
	hashline.CodeRepairAmbiguous:      false,
	hashline.CodeNoChange:             false,
	hashline.CodeAmplificationLimit:   false,
	hashline.CodeInvalidArgument:      false,
	hashline.CodePathOutsideWorkspace: false,
	// The file system or the editor failed: once the file is read again,
	// the same call may land.
	hashline.CodeToolFailed: true,
	// docs/contract.md §15.2: the runtime finalizes the turn with it as retriable.
	hashline.CodeRetryBudgetExhausted: true,
}

func TestRetriableMatchesContract(t *testing.T) {
	t.Parallel()
	for code, want := range retriable {
		if code.Retriable() != want {
			t.Errorf("%s.Retriable() = %v, want %v", code, code.Retriable(), want)
		}
	}
}

// The table above names every Code constant errors.go declares.
func TestRetriableTableHasEveryCode(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for i, name := range vs.Names {
				declared++
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s is not a string literal", name.Name)
				}
				code, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatalf("%s: %v", name.Name, err)
				}
				if _, ok := retriable[hashline.Code(code)]; !ok {
					t.Errorf("%s (%s) is missing from the retriable table", name.Name, code)
				}
			}
		}
	}
	if declared != len(retriable) {
		t.Errorf("errors.go declares %d codes, the table has %d", declared, len(retriable))
	}
}

// Every code comes out of a real call, never only out of a constructor, and
// its message, with the one next step it names (docs/contract.md §18.1), is the golden one in
// testdata/errors.txt (-update rewrites it). The temporary folder is $TMP
// there.
func TestEveryCodeIsProduced(t *testing.T) {
	t.Parallel()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	type scenario struct {
		name string
		run  func(t *testing.T) error
	}
	plain := func(raw, ops string) func(t *testing.T) error {
		return func(t *testing.T) error {
			f := readFixture(t, "f.txt", raw)
			_, err := f.plan(ops)
			return err
		}
	}
	scenarios := []scenario{
		{"tag missing", func(t *testing.T) error {
			f := readFixture(t, "f.txt", "a\n")
			_, err := f.s.Plan(f.req("", "PUT 1.=1:\n+b"), f.live)
			return err
		}},
		{"stale tag the session read", func(t *testing.T) error {
			f := readFixture(t, "f.txt", "a\nb\n")
			old := f.live.Tag()
			f.change("a\nc\n")
			_, err := f.s.Plan(f.req(string(old), "PUT 2.=2:\n+d"), f.live)
			return err
		}},
		{"stale tag the session never read", func(t *testing.T) error {
			s := hashline.NewSession()
			live := hashline.NewText("a\nb\n")
			_, err := s.Plan(hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: otherTag(live.Tag()), Ops: "PUT 2.=2:\n+d"}, live)
			return err
		}},
		{"anchor never shown", func(t *testing.T) error {
			s := hashline.NewSession()
			live := hashline.NewText("a\nb\n")
			s.Read("f.txt", "f.txt", live, 1, 1)
			_, err := s.Plan(hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(live.Tag()), Ops: "PUT 2.=2:\n+d"}, live)
			return err
		}},
		{"missing colon", plain("a\n", "PUT 1.=1\n+b")},
		{"overlap", plain("a\nb\n", "CUT 1.=2\nPUT >2:\n+x")},
		{"block without a resolver", plain("a\n", "PUT 1*:\n+b")},
		{"paste before capture", plain("a\n", "PUT >1")},
		{"two anonymous captures", plain("a\nb\nc\n", "CUT 1.=1\nCUT 2.=2\nPUT >3")},
		{"restated line", plain("a\n", "PUT 1.=1:\n+a")},
		{"too many lines", plain("a\n", "PUT >$:\n"+strings.Repeat("+\n", hashline.MaxIRLines+1))},
		{"body row under a register paste", plain("a\n", "CUT 1.=1 @r\nPUT >$ @r\n+x")},
		{"ops header for another file", plain("a\n", "[g.txt#0000]\nPUT 1.=1:\n+b")},
		{"too many ops", plain("a\n", strings.Repeat("PUT >$:\n+x\n", hashline.MaxOpsPerCall+1))},
		{"capture too large", plain(strings.Repeat("x\n", hashline.MaxCaptureLines+1), "CUT 1.="+strconv.Itoa(hashline.MaxCaptureLines+1))},
		// The range swallows two closing braces the body closes only one
		// of: keeping either one parses, and the two texts differ.
		{"repair candidates tied", func(t *testing.T) error {
			f := readFixture(t, "a.go", "package a\n\nfunc F() {\n\tif x {\n\t\ta()\n\t}\n}\n")
			f.blocks = blocks.New()
			_, err := f.plan("PUT 6.=7:\n+\t\tc() }")
			return err
		}},
		// The same failure until the repeat guard ends the turn (docs/contract.md §15.2).
		{"retry budget spent", func(t *testing.T) error {
			f := readFixture(t, "f.txt", "a\n")
			g := hashline.NewGuard()
			var he *hashline.Error
			for range hashline.MaxRepeatAttempts {
				_, err := f.plan("PUT 1.=1:\n+a")
				if !errors.As(err, &he) {
					t.Fatalf("plan: %v", err)
				}
				g.Fail(f.path, "turn", "edit", he)
			}
			return he
		}},
		// The generic codes, from the calls that produce them.
		{"file system failure", func(t *testing.T) error {
			_, err := os.ReadFile(filepath.Join(tmp, "gone.txt"))
			return hashline.AsError(err)
		}},
		{"path outside the workspace", func(t *testing.T) error {
			ws := filepath.Join(tmp, "ws")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			roots, err := workspace.New(ws)
			if err != nil {
				t.Fatal(err)
			}
			s := &commands.Server{Roots: roots, Sessions: hashline.NewSessions(), Source: documents.Disk{Roots: roots}, Sink: documents.Disk{Roots: roots}}
			res, err := s.Run(context.Background(), commands.Call{Command: commands.CmdRead, Args: json.RawMessage(`{"path": "../secret.txt"}`)})
			if err != nil {
				t.Fatal(err)
			}
			e, ok := res.(*commands.ErrorResult)
			if !ok {
				t.Fatalf("read outside the workspace = %+v", res)
			}
			return &hashline.Error{Code: e.Error.Code, Message: e.Error.Message}
		}},
	}
	const goldenPath = "testdata/errors.txt"
	g := golden.New(goldenPath, "The code and message of each error scenario of errors_test.go; $TMP is the\ntest's temporary folder.\n")
	if !*golden.Update {
		g = golden.Read(t, goldenPath)
	}
	produced := map[hashline.Code][]string{}
	for _, sc := range scenarios {
		err := sc.run(t)
		var he *hashline.Error
		if !errors.As(err, &he) {
			t.Errorf("%s: error %v is not an *Error", sc.name, err)
			continue
		}
		code, summary := he.Code, string(he.Code)
		if x := he.Details.Exhausted; x != nil {
			code, summary = x.Code, fmt.Sprintf("%s, then %s", he.Code, x.Code)
			if x.Retriable != retriable[x.Code] {
				t.Errorf("%s: exhausted retriable = %v, want %v", sc.name, x.Retriable, retriable[x.Code])
			}
		}
		produced[code] = append(produced[code], sc.name)
		if got, want := he.Code.Retriable(), retriable[he.Code]; got != want {
			t.Errorf("%s: %s.Retriable() = %v, want %v", sc.name, he.Code, got, want)
		}
		if he.Error() != string(he.Code)+": "+he.Message {
			t.Errorf("%s: Error() = %q", sc.name, he.Error())
		}
		got := summary + "\n" + strings.ReplaceAll(he.Message, tmp, "$TMP") + "\n"
		if *golden.Update {
			g.Set(sc.name, got)
			continue
		}
		if want, ok := g.Section(sc.name); !ok {
			t.Errorf("%s: no section in %s (run with -update)", sc.name, goldenPath)
		} else if got != want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", sc.name, got, want)
		}
	}
	if *golden.Update {
		g.Write(t)
	} else if len(g.Names()) != len(scenarios) {
		t.Errorf("%s has %d sections for %d scenarios", goldenPath, len(g.Names()), len(scenarios))
	}
	var missing []string
	for code := range retriable {
		if len(produced[code]) == 0 {
			missing = append(missing, string(code))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("no scenario produced: %s", strings.Join(missing, ", "))
	}
	if len(produced[hashline.CodeInvalidArgument]) != 4 {
		t.Fatalf("INVALID_ARGUMENT came from %v, want the four INVALID_ARGUMENT scenarios", produced[hashline.CodeInvalidArgument])
	}
}

func TestWrapAndAsError(t *testing.T) {
	t.Parallel()
	if hashline.AsError(nil) != nil {
		t.Fatal("AsError(nil) is not nil")
	}
	he := hashline.AsError(fs.ErrNotExist)
	if he.Code != hashline.CodeToolFailed || he.Message != "file does not exist: read the file to see what it holds, then retry once; report the failure if it repeats" || !errors.Is(he, fs.ErrNotExist) {
		t.Fatalf("AsError(ErrNotExist) = %+v", he)
	}
	orig := hashline.Errorf(hashline.CodeNoChange, "nothing to do: %s", "drop the edit")
	if hashline.Wrap(hashline.CodeToolFailed, orig, "ignored") != orig || hashline.AsError(orig) != orig {
		t.Fatal("an *Error was rewrapped")
	}
	if orig.Message != "nothing to do: drop the edit" {
		t.Fatalf("Errorf message %q", orig.Message)
	}
}

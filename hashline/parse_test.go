package hashline_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
)

// formatParse renders a parse result the way the golden files hold it: the
// ops in canonical spelling with their body rows, then warnings; or the
// error code, its details and message.
func formatParse(p *hashline.Patch, err error) string {
	var b strings.Builder
	if err != nil {
		var he *hashline.Error
		if !errors.As(err, &he) {
			return "error (not an *Error) " + err.Error() + "\n"
		}
		fmt.Fprintf(&b, "error %s", he.Code)
		if he.Details.Op > 0 {
			fmt.Fprintf(&b, " op=%d", he.Details.Op)
		}
		if he.Details.Field != "" {
			fmt.Fprintf(&b, " field=%s", he.Details.Field)
		}
		if he.Details.Limit > 0 {
			fmt.Fprintf(&b, " limit=%d", he.Details.Limit)
		}
		fmt.Fprintf(&b, "\n%s\n", he.Message)
		return b.String()
	}
	if p.HeaderPath != "" {
		b.WriteString(hashline.Header(p.HeaderPath, p.HeaderTag) + "\n")
	}
	for i := range p.Ops {
		b.WriteString(p.Ops[i].Canonical() + "\n")
		for _, row := range p.Ops[i].Body {
			b.WriteString("+" + row + "\n")
		}
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "warning %s: %s\n", w.Kind, w.Message)
	}
	return b.String()
}

func TestParseGolden(t *testing.T) {
	golden.Run(t, "testdata/parse", 60, func(t *testing.T, g *golden.File) {
		ops, ok := g.Section("ops")
		if crlf, isCRLF := g.Section("ops crlf"); isCRLF {
			ops, ok = strings.ReplaceAll(crlf, "\n", "\r\n"), true
		}
		if cr, isCR := g.Section("ops cr"); isCR {
			ops, ok = strings.ReplaceAll(cr, "\n", "\r"), true
		}
		if !ok {
			t.Fatalf("%s has no ops section", g.Path)
		}
		want := g.Must(t, "want")
		patch, err := hashline.Parse(ops)
		got := formatParse(patch, err)
		if *golden.Update {
			g.Set("want", got)
			g.Write(t)
			return
		}
		if got != want {
			t.Fatalf("Parse(%q):\ngot:\n%s\nwant:\n%s", ops, got, want)
		}
		if err != nil {
			return
		}
		assertCanonicalReparses(t, patch)
	})
}

// The canonical spelling of every accepted op must itself parse, to the same
// op and without a warning: it is what warnings and annotations tell the
// model to write.
func assertCanonicalReparses(t *testing.T, p *hashline.Patch) {
	t.Helper()
	var b strings.Builder
	for i := range p.Ops {
		b.WriteString(p.Ops[i].Canonical() + "\n")
		for _, row := range p.Ops[i].Body {
			b.WriteString("+" + row + "\n")
		}
	}
	again, err := hashline.Parse(b.String())
	if err != nil {
		t.Fatalf("canonical form %q does not parse: %v", b.String(), err)
	}
	if len(again.Warnings) != 0 {
		t.Fatalf("canonical form %q draws warnings %v", b.String(), again.Warnings)
	}
	if len(again.Ops) != len(p.Ops) {
		t.Fatalf("canonical form has %d ops, want %d", len(again.Ops), len(p.Ops))
	}
	for i := range p.Ops {
		a, c := p.Ops[i], again.Ops[i]
		if a.Kind != c.Kind || a.Loc != c.Loc || a.Register != c.Register || a.Dest != c.Dest || !reflect.DeepEqual(a.Body, c.Body) {
			t.Fatalf("op %d: canonical %q reparses as %+v, want %+v", i+1, c.Text, c, a)
		}
	}
}

// Every spelling in the one list of alternates is accepted as its canonical
// form with a warning naming that form, and nothing else is changed.
func TestParseAlternatesList(t *testing.T) {
	t.Parallel()
	for _, alt := range hashline.Alternates {
		t.Run(alt.Written, func(t *testing.T) {
			t.Parallel()
			ops := alt.Written
			canon := alt.Canonical
			if strings.HasSuffix(ops, ":") {
				ops += "\n+x"
				canon += "\n+x"
			}
			p, err := hashline.Parse(ops)
			if err != nil {
				t.Fatalf("Parse(%q): %v", ops, err)
			}
			want, err := hashline.Parse(canon)
			if err != nil {
				t.Fatalf("Parse(%q): %v", canon, err)
			}
			if got := formatParse(&hashline.Patch{Ops: p.Ops}, nil); got != formatParse(&hashline.Patch{Ops: want.Ops}, nil) {
				t.Fatalf("%q reads as\n%swant\n%s", alt.Written, got, formatParse(want, nil))
			}
			if len(p.Warnings) != 1 || p.Warnings[0].Kind != hashline.WarnSpelling ||
				!strings.Contains(p.Warnings[0].Message, alt.Canonical) {
				t.Fatalf("warnings = %+v, want one spelling warning naming %s", p.Warnings, alt.Canonical)
			}
		})
	}
}

// Facts a golden file cannot show: where each op sits in the ops text.
func TestParseRecordsPositions(t *testing.T) {
	t.Parallel()
	p, err := hashline.Parse("[a.go#ABCD]\r\nPUT 2.=2:\r\n+x\r\n\r\nCUT 5.=6 @r\r\nMV b.go\r\n")
	if err != nil {
		t.Fatal(err)
	}
	type pos struct {
		Index, Line int
		Text        string
	}
	var got []pos
	for _, op := range p.Ops {
		got = append(got, pos{op.Index, op.Line, op.Text})
	}
	want := []pos{{1, 2, "PUT 2.=2:"}, {2, 5, "CUT 5.=6 @r"}, {3, 6, "MV b.go"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("positions = %+v, want %+v", got, want)
	}
}

func TestParseLimits(t *testing.T) {
	t.Parallel()
	// padded returns ops of exactly n bytes: one op, then body rows.
	padded := func(n int) string {
		head := "PUT >$:\n"
		var b strings.Builder
		b.WriteString(head)
		for b.Len()+1000 <= n {
			b.WriteString("+" + strings.Repeat("x", 998) + "\n")
		}
		if rest := n - b.Len(); rest > 0 {
			b.WriteString("+" + strings.Repeat("y", rest-1))
		}
		return b.String()
	}
	manyOps := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "PUT %d.=%d:\n+%d\n", i, i, i)
		}
		return b.String()
	}
	cases := []struct {
		name string
		ops  string
		want string // "" for success
		ops1 int    // ops expected on success
	}{
		{"ops payload at 256 KiB", padded(hashline.MaxOpsBytes), "", 1},
		{"ops payload one byte over", padded(hashline.MaxOpsBytes + 1),
			"error INVALID_ARGUMENT field=ops limit=262144\nops is 262145 bytes, over the 262144-byte limit: split the change into several edit calls, re-reading between them\n", 0},
		{"200 ops", manyOps(200), "", 200},
		{"201 ops", manyOps(201),
			"error INVALID_ARGUMENT field=ops limit=200\nops holds 201 operations, over the limit of 200 per call: split the change into several edit calls, re-reading between them\n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := hashline.Parse(c.ops)
			if c.want != "" {
				if got := formatParse(p, err); got != c.want {
					t.Fatalf("got\n%swant\n%s", got, c.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(p.Ops) != c.ops1 {
				t.Fatalf("%d ops, want %d", len(p.Ops), c.ops1)
			}
		})
	}
	if n := len(padded(hashline.MaxOpsBytes)); n != 262144 {
		t.Fatalf("padded(MaxOpsBytes) is %d bytes, want 262144", n)
	}
}

// Body rows keep their text exactly: leading and trailing whitespace, and a
// row that spells a header is content, not an op.
func TestParseBodyRowsVerbatim(t *testing.T) {
	t.Parallel()
	p, err := hashline.Parse("PUT 1.=1:\n+\tx  \n+PUT 2.=2:\n+  \n++\n+-\n+[a#ABCD]")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"\tx  ", "PUT 2.=2:", "  ", "+", "-", "[a#ABCD]"}
	if len(p.Ops) != 1 || !reflect.DeepEqual(p.Ops[0].Body, want) {
		t.Fatalf("ops %d, body %q; want 1 op with %q", len(p.Ops), p.Ops[0].Body, want)
	}
}

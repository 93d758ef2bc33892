package commands

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hashline-ls/hashline"
)

// This file is the one place a result becomes the text a model or a person
// reads. The shell verbs print it, and every front end shows it, so what
// one assistant is told to retry with is what every other is told.

// Result is what a command that ran returns: a success object, or an
// *ErrorResult. Each carries its text.
type Result interface {
	// Rendered returns the result's text.
	Rendered() string
	setText(string)
}

// rendered is the part every result shares: its text, byte for byte what
// the shell verb prints for the same call (stdout on success, stderr on
// failure).
type rendered struct {
	Text string `json:"text"`
}

func (r *rendered) Rendered() string { return r.Text }
func (r *rendered) setText(s string) { r.Text = s }

// render fills in the text of res.
func render(res Result) {
	res.setText(textOf(res))
}

func textOf(res Result) string {
	switch r := res.(type) {
	case *ReadResult:
		return block(r.Content, note(r.Notice))
	case *GrepResult:
		return grepText(r)
	case *EditResult:
		first := r.Header
		if r.Removed {
			first = "removed " + r.Path
		}
		return block(append([]string{first, r.Diff}, warnings(r.Warnings)...)...)
	case *WriteResult:
		return block(append([]string{r.Header}, warnings(r.Warnings)...)...)
	case *PatchResult:
		var parts []string
		for _, f := range r.Files {
			parts = append(parts, f.Header)
		}
		return block(append(parts, warnings(r.Warnings)...)...)
	case *DryRunResult:
		return dryRunText(r)
	case *DescribeResult:
		return describeText(r)
	case *SessionEndResult:
		if r.Ended {
			return "session ended: its reads, registers and repeat counts are dropped\n"
		}
		return "no such session: there was nothing to end\n"
	case *ErrorResult:
		return errorText(r)
	}
	panic(fmt.Sprintf("commands: no rendering for %T", res))
}

func grepText(r *GrepResult) string {
	var parts []string
	switch {
	case r.Files != nil:
		parts = r.Files
	case r.Counts != nil:
		for _, f := range slices.Sorted(maps.Keys(r.Counts)) {
			parts = append(parts, fmt.Sprintf("%s:%d", f, r.Counts[f]))
		}
	default:
		parts = []string{r.Content}
	}
	if block(parts...) == "" {
		// The shell prints nothing for no match; a model needs to be told
		// the search ran.
		parts = []string{"no matches"}
	}
	return block(append(parts, note(r.Notice))...)
}

// errorText is "CODE: message", then what a retry needs, one item a line.
func errorText(r *ErrorResult) string {
	e, d := r.Error, r.Error.Details
	parts := []string{string(e.Code) + ": " + e.Message}
	if d.LiveTag != "" {
		parts = append(parts, "live tag: "+d.LiveTag)
	}
	if len(d.Lines) > 0 {
		parts = append(parts, "lines: "+joinInts(d.Lines))
	}
	if d.Op > 0 {
		op := fmt.Sprintf("op %d", d.Op)
		if d.OpText != "" {
			op += ": " + d.OpText
		}
		parts = append(parts, op)
	}
	if d.Field != "" {
		parts = append(parts, "argument: "+d.Field)
	}
	if d.Limit > 0 {
		parts = append(parts, fmt.Sprintf("limit: %d", d.Limit))
	}
	if d.Merged {
		parts = append(parts, "the lines shown now count as seen: the same call may be sent again")
	}
	if d.Exhausted != nil && d.Exhausted.Recovery != "" {
		parts = append(parts, "stop: "+d.Exhausted.Recovery)
	}
	parts = append(parts, d.Content)
	switch {
	case r.Terminate:
		parts = append(parts, "terminate: stop editing this file in this turn")
	case !e.Retriable:
		parts = append(parts, "retriable: false")
	}
	return block(parts...)
}

// describeText is the guidance followed by each tool's definition.
func describeText(r *DescribeResult) string {
	var b strings.Builder
	b.WriteString(r.Guidance)
	b.WriteString("\n# Tools\n")
	for _, t := range r.Tools {
		schema, _ := json.MarshalIndent(t.InputSchema, "", "  ")
		fmt.Fprintf(&b, "\n## %s (command %s)\n\n%s\n\n```json\n%s\n```\n", t.Name, t.Command, t.Description, schema)
	}
	return b.String()
}

func note(s string) string {
	if s == "" {
		return ""
	}
	return "note: " + s
}

func warnings(ws []hashline.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = "warning: " + w.Message
	}
	return out
}

// block joins the parts that are not empty, each ending in one newline, so
// headers, content and diffs read as one text whatever endings they carry.
// A single part that ends in one is the text as it is: a read's content is
// not copied again.
func block(parts ...string) string {
	size, kept := 0, 0
	for _, p := range parts {
		if p != "" {
			size += len(p) + 1
			kept++
		}
	}
	if kept == 1 {
		for _, p := range parts {
			if strings.HasSuffix(p, "\n") {
				return p
			}
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, p := range parts {
		if p == "" {
			continue
		}
		b.WriteString(p)
		if !strings.HasSuffix(p, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// AppendWarning adds w to a result object a front end holds as JSON (a
// result it forwards rather than ran), to its warnings and, as the last
// line, to its text, so what the model reads says it either way.
func AppendWarning(res json.RawMessage, w hashline.Warning) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res, &m); err != nil || m == nil {
		return nil, fmt.Errorf("the result is not a JSON object: %v", err)
	}
	var ws []hashline.Warning
	var text string
	if err := json.Unmarshal(m["text"], &text); err != nil {
		return nil, fmt.Errorf("the result has no text: %v", err)
	}
	if raw, ok := m["warnings"]; ok {
		if err := json.Unmarshal(raw, &ws); err != nil {
			return nil, fmt.Errorf("the result's warnings: %v", err)
		}
	}
	ws = append(ws, w)
	text = block(text, warnings([]hashline.Warning{w})[0])
	m["warnings"], _ = json.Marshal(ws)
	m["text"], _ = json.Marshal(text)
	return json.Marshal(m)
}

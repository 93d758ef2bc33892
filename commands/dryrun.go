package commands

import (
	"context"
	"strings"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// Planning is the argument an editor sets, not the model, on edit, write
// and patch: dryRun plans the call through the same gates against the live
// text and answers with the change it would make, for a person to approve
// (docs/contract.md §16.5). Nothing is written, and the session keeps
// nothing of the call: no reads, registers or repeat counts.
type Planning struct {
	DryRun bool `json:"dryRun"`
}

// planningProps are the schema of Planning, added to the commands that
// change files.
var planningProps = map[string]any{
	"dryRun": map[string]any{"type": "boolean", "description": "Set by the editor, not the model: plan the call and return its unified diff, writing nothing. Default false."},
}

// DryRunResult is what a call with dryRun would change.
type DryRunResult struct {
	OK     bool `json:"ok"`
	DryRun bool `json:"dryRun"`
	// Diff is the unified diff of every file the call would change, empty
	// when the files hold what it asks already.
	Diff     string             `json:"diff"`
	Warnings []hashline.Warning `json:"warnings"`
	rendered
}

// plan is land's first plan only: against the live text of files, as it
// is now, and applied nowhere.
func (s *Server) plan(ctx context.Context, files []workspace.Path, plan planner, warnings ...hashline.Warning) (*DryRunResult, error) {
	s.sync(ctx)
	live, err := s.liveOf(ctx, files)
	if err != nil {
		return nil, err
	}
	cs, err := plan(live)
	if err != nil {
		return nil, err
	}
	res := &DryRunResult{OK: true, DryRun: true, Diff: s.changeDiff(cs), Warnings: append([]hashline.Warning{}, warnings...)}
	return res, nil
}

// changeDiff is the unified diff of a change set, file by file.
func (s *Server) changeDiff(cs documents.ChangeSet) string {
	var b strings.Builder
	for _, fc := range cs.Files {
		from, to := "a/"+s.rel(fc.Path), "b/"+s.rel(fc.Path)
		old, next := "", ""
		if fc.Old != nil && fc.Old.Exists() {
			old = fc.Old.Text.Normalized()
		}
		if fc.New != nil {
			next = fc.New.Normalized()
		}
		switch fc.Kind {
		case documents.Create:
			from = "/dev/null"
		case documents.Delete:
			to = "/dev/null"
		case documents.Rename:
			to = "b/" + s.rel(fc.NewPath)
			if old == next {
				b.WriteString("rename from " + s.rel(fc.Path) + "\nrename to " + s.rel(fc.NewPath) + "\n")
			}
		}
		b.WriteString(hashline.Unified(from, to, old, next))
	}
	return b.String()
}

func dryRunText(r *DryRunResult) string {
	first := r.Diff
	if first == "" {
		first = "no change: the files hold this already\n"
	}
	return block(append([]string{first}, warnings(r.Warnings)...)...)
}

package documents

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hashline-ls/hashline"
)

// settle is how long the text must stay quiet, after it first changed into
// something other than what was sent, before it is taken as landed: an
// on-type rule or formatter often follows the edit at once.
const settle = 150 * time.Millisecond

// Landing is the one rule for whether a change set landed and what text it
// left in each file (docs/design.md §5.4, docs/design.md §6.1). It knows each file's old text,
// hunks and intended text, and judges what the file is seen holding: the
// editor's buffer through a Store, or the disk.
type Landing struct {
	targets []target
	watch   *Watch // the journals of the files, or nil
	enc     Encoding
}

// target is one file of a change set, where the change leaves it.
type target struct {
	path  string
	gone  bool           // a Delete: landed when no file is there
	old   *hashline.Text // nil for a Create
	hunks []hashline.Hunk
	want  *hashline.Text
	sent  []Change // the edit as the editor got it, when it was watched
}

// NewLanding returns the rule for cs.
func NewLanding(cs ChangeSet) *Landing {
	l := &Landing{}
	for _, fc := range cs.Files {
		t := target{path: fc.Path, hunks: fc.Hunks, want: fc.New}
		if fc.Old != nil {
			t.old = fc.Old.Text
		}
		switch fc.Kind {
		case Rename:
			t.path = fc.NewPath
		case Delete:
			t.gone = true
		}
		l.targets = append(l.targets, t)
	}
	return l
}

// Watching makes Await look in w's journals for an edit the editor
// applied where it should not have: sent are the changes it was sent for
// each file, in the encoding enc counts positions in. Await then fails
// with a *Misplaced as soon as the editor reports one.
func (l *Landing) Watching(w *Watch, sent map[string][]Change, enc Encoding) *Landing {
	l.watch, l.enc = w, enc
	for i := range l.targets {
		l.targets[i].sent = sent[l.targets[i].path]
	}
	return l
}

// ReadBack is what each file holds after a sink wrote it itself: what the
// disk holds now, since that may not be what was meant, or the intended
// text when the file cannot be read.
func (l *Landing) ReadBack(d Disk) Landed {
	landed := Landed{}
	for _, t := range l.targets {
		if t.gone {
			continue
		}
		landed[t.path] = t.want
		if d.holds(t.path, t.want.Raw()) {
			continue
		}
		if b, _, err := d.read(t.path); err == nil {
			landed[t.path] = hashline.NewText(stringOf(b))
		}
	}
	return landed
}

// Await watches each file until it shows the edit, after an editor
// answered that it applied it: store holds the editor's buffers, after is
// store's Seq from before the edit was sent, and bound is how long the
// files may take. The editor reports the change after it answers (real
// editors do); a file it does not hold is watched on disk. No change by the
// deadline is a failure, never a success: an editor may answer "applied"
// for an edit it skipped.
func (l *Landing) Await(ctx context.Context, store *Store, after uint64, bound time.Duration) (Landed, error) {
	deadline := time.Now().Add(bound)
	landed := Landed{}
	for _, t := range l.targets {
		if t.gone {
			if err := awaitGone(ctx, store, t.path, deadline); err != nil {
				return nil, err
			}
			continue
		}
		got, err := l.await(ctx, t, store, after, deadline, bound)
		if err != nil {
			return nil, err
		}
		landed[t.path] = got
	}
	return landed, nil
}

// await waits until the file holds the intended text, and returns it at
// once, or other text that shows the edit, returned once it has been quiet
// for settle. Text that does not show the edit is looked up in the file's
// journal: the edit applied at the wrong place fails at once.
func (l *Landing) await(ctx context.Context, t target, store *Store, seq uint64, deadline time.Time, bound time.Duration) (*hashline.Text, error) {
	var last string
	var lastAt time.Time
	seen, shows := false, false
	for {
		if held, ok := store.look(t.path); ok {
			if cur := withBOM(held, t.want.Raw()); !seen || cur != last {
				last, lastAt, seen = cur, time.Now(), true
				shows = t.shows(last)
				if !shows {
					if m := l.watch.misplaced(t.path, held, t.sent, l.enc); m != nil {
						return nil, m
					}
				}
			}
		}
		if shows && last == t.want.Raw() {
			store.adopt(t.path, t.want)
			return t.want, nil
		}
		if shows && time.Since(lastAt) >= settle {
			return hashline.NewText(last), nil
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			if shows {
				return hashline.NewText(last), nil
			}
			return nil, t.notLanded(seen, last, bound)
		}
		if shows {
			wait = min(wait, settle-time.Since(lastAt))
		}
		// Short slices, so the disk is polled too: an editor may write a
		// file it does not show.
		if d, ok := store.Wait(ctx, t.path, seq, min(wait, 50*time.Millisecond)); ok {
			seq = d.Seq
		}
		if ctx.Err() != nil {
			// The editor said it applied the edit: that is no longer a
			// cancellation before anything was written.
			return nil, hashline.Errorf(hashline.CodeToolFailed, "the editor applied the edit to %s, but the wait for its text was cancelled: read the file before anything else, since the edit is most likely in it", t.path)
		}
	}
}

// shows reports whether cur, a text the file was seen holding, is the
// edit landed. A created file has no old text: an empty file, or one empty
// line, is what an editor shows before the text arrives. Otherwise the
// text must have changed, and changed as the hunks say: a keystroke that
// arrives while the editor skipped the edit is not the edit landing.
func (t target) shows(cur string) bool {
	switch {
	case cur == t.want.Raw():
		return true
	case t.old == nil:
		return strings.Trim(cur, "\r\n") != ""
	default:
		return cur != t.old.Raw() && (t.hunks == nil || hashline.ShowsEdit(t.old, t.hunks, hashline.NewText(cur)))
	}
}

// notLanded is the failure of an edit that did not show by the deadline;
// last is what the file held, when seen.
func (t target) notLanded(seen bool, last string, bound time.Duration) error {
	before := ""
	if t.old != nil {
		before = t.old.Raw()
	}
	e := &hashline.Error{Code: hashline.CodeToolFailed, Details: hashline.Details{LiveTag: string(hashline.TagOf(last))},
		Message: fmt.Sprintf("the editor answered that it applied the edit, but %s did not change within %s (an editor skips an edit made against a stale buffer version): nothing was recorded as written; read the file again and retry", t.path, bound)}
	if seen && last != before {
		e.Message = fmt.Sprintf("the editor answered that it applied the edit, and %s changed, but not as the edit intended (the editor may have placed it at other lines, or the change is the user's): nothing was recorded as written; read the file, undo in the editor whatever is wrong, and retry", t.path)
	}
	return e
}

// withBOM gives a buffer's text the BOM the file keeps: editors hold a BOM
// outside the text (VS Code's encoding, Neovim's 'bomb'), so a buffer opened
// from a file that has one reports its text without it, unchanged or not.
func withBOM(cur, want string) string {
	const bom = "\uFEFF"
	if strings.HasPrefix(want, bom) && !strings.HasPrefix(cur, bom) {
		return bom + cur
	}
	return cur
}

// look is the file's text as the editor or the disk holds it now.
func (s *Store) look(path string) (string, bool) {
	if d, ok := s.Get(path); ok {
		return d.Text, true
	}
	b, _, err := s.disk().read(path)
	if err != nil {
		return "", false
	}
	return stringOf(b), true
}

// awaitGone waits until a deleted file is gone from the disk.
func awaitGone(ctx context.Context, store *Store, path string, deadline time.Time) error {
	for {
		if !store.disk().exists(path) {
			return nil
		}
		if time.Now().After(deadline) {
			return hashline.Errorf(hashline.CodeToolFailed, "the editor answered that it deleted %s, but the file is still there: check the editor, and read the file if it should stay", path)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

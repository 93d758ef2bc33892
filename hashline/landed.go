package hashline

// LineHunks returns the hunks that turn old into new, from a line diff:
// sorted, and apart from each other, as Text.Edits needs them. Lines equal
// in both are outside every hunk, so an editor keeps its marks on them.
// It returns nil, false when the texts are too large to diff.
func LineHunks(old, new *Text) ([]Hunk, bool) {
	m, ok := diffLines(old, new)
	if !ok {
		return nil, false
	}
	defer m.release()
	var hunks []Hunk
	n, k := old.Len(), new.Len()
	i, j := 1, 1
	for i <= n || j <= k {
		if i <= n && j <= k && int(m.at[i]) == j {
			i, j = i+1, j+1
			continue
		}
		h := Hunk{Start: i - 1}
		for i <= n && int(m.at[i]) == 0 {
			i++
		}
		h.End = i - 1
		for j <= k && int(m.rev[j]) == 0 {
			h.Lines = append(h.Lines, new.Line(j))
			j++
		}
		if h.Start == h.End && len(h.Lines) == 0 {
			// A diff that maps out of order would loop here; the rest is
			// one hunk then.
			h.End, h.Lines = n, new.Lines(j, k)
			i, j = n+1, k+1
		}
		hunks = append(hunks, h)
	}
	return hunks, true
}

// ShowsEdit reports whether got, the text an editor reports after applying
// hunks to old, shows their effect, whatever else changed beside them: a
// hunk that replaced or removed lines has at least one of them gone, and a
// pure insertion has new lines between its neighbours. An editor may answer
// that it applied an edit it skipped (Neovim 0.7 does, for a stale buffer
// version) while the user's typing changes the text: that must not pass for
// the edit. When the texts are too large to trace it reports true.
func ShowsEdit(old *Text, hunks []Hunk, got *Text) bool {
	m, ok := diffLines(old, got)
	if !ok {
		return true
	}
	defer m.release()
	for _, h := range hunks {
		if h.End > h.Start {
			gone := false
			for l := h.Start + 1; l <= h.End; l++ {
				if int(m.at[l]) == 0 {
					gone = true
					break
				}
			}
			if !gone {
				return false
			}
			continue
		}
		// Between the old lines around the gap, as they sit in got.
		lo, hi := 0, got.Len()+1
		if h.Start >= 1 {
			if lo = int(m.at[h.Start]); lo == 0 {
				continue // the neighbour itself changed: nothing to go by
			}
		}
		if h.Start+1 <= old.Len() {
			if hi = int(m.at[h.Start+1]); hi == 0 {
				continue
			}
		}
		fresh := false
		for j := lo + 1; j < hi; j++ {
			if int(m.rev[j]) == 0 {
				fresh = true
				break
			}
		}
		if !fresh {
			return false
		}
	}
	return true
}

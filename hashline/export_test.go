package hashline

// UnifiedWhole is Unified diffing the whole of both texts, the reference
// its trimming of the common ends must agree with.
func UnifiedWhole(oldLabel, newLabel, old, new string) string {
	return unified(oldLabel, newLabel, old, new, -1)
}

// SharedHolds reports whether the table shares a retained text for t's
// digest.
func SharedHolds(t *Text) bool {
	sharedTexts.mu.Lock()
	defer sharedTexts.mu.Unlock()
	return sharedTexts.m[t.Digest()].Value() != nil
}

// WindowsHeld is how many windows the sessions of ss hold, by the table
// they share.
func WindowsHeld(ss *Sessions) int {
	ss.windows.mu.Lock()
	defer ss.windows.mu.Unlock()
	n := 0
	for _, ps := range ss.windows.m {
		for _, p := range ps {
			if p.Value() != nil {
				n++
			}
		}
	}
	return n
}

package hashline

import "strings"

// Tag is the 4-hex-digit name of a whole file's normalized text (docs/contract.md §3.3): the
// low 16 bits of its SHA-256, read big-endian, in uppercase hex.
//
// It has 65,536 values, so two texts share one often enough to matter. A tag
// is an index into the snapshot store, never proof that two texts are equal
// (docs/contract.md §3.4).
type Tag string

const hexDigits = "0123456789ABCDEF"

func tagOf(d Digest) Tag {
	hi, lo := d[len(d)-2], d[len(d)-1]
	return Tag([]byte{hexDigits[hi>>4], hexDigits[hi&15], hexDigits[lo>>4], hexDigits[lo&15]})
}

// TagOf returns the tag of raw text.
func TagOf(raw string) Tag { return NewText(raw).Tag() }

// ParseTag checks that s is a tag the model could have been given: exactly
// four hex digits. Lowercase is accepted and folded, because a model that
// changed the case still names the same tag; anything else is
// EDIT_TAG_REQUIRED.
func ParseTag(s string) (Tag, error) {
	if len(s) != 4 {
		return "", tagRequired(s)
	}
	up := strings.ToUpper(s)
	for i := 0; i < 4; i++ {
		if strings.IndexByte(hexDigits, up[i]) < 0 {
			return "", tagRequired(s)
		}
	}
	return Tag(up), nil
}

func tagRequired(s string) *Error {
	if s == "" {
		return Errorf(CodeTagRequired, "tag is missing: pass the 4-hex tag from the [path#TAG] header of your latest read of this file, or read it first")
	}
	return Errorf(CodeTagRequired, "tag %q is not 4 hex digits: pass the tag exactly as the [path#TAG] header shows it, for example A1B2", clip(s, 40))
}

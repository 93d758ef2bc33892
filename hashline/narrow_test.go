package hashline_test

import (
	"testing"

	"hashline-ls/hashline"
)

func TestNarrow(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		edit      hashline.ByteEdit
		want      hashline.ByteEdit
	}{
		{"a word in a line", "x = 1 # note\n", hashline.ByteEdit{Start: 0, End: 13, New: "x = 22 # note\n"},
			hashline.ByteEdit{Start: 4, End: 5, New: "22"}},
		{"an insert stays one", "a\nb\n", hashline.ByteEdit{Start: 2, End: 2, New: "c\n"}, hashline.ByteEdit{Start: 2, End: 2, New: "c\n"}},
		{"a line deleted", "a\nb\nc\n", hashline.ByteEdit{Start: 2, End: 4, New: ""}, hashline.ByteEdit{Start: 2, End: 4, New: ""}},
		{"never inside a character", "é1\n", hashline.ByteEdit{Start: 0, End: 4, New: "è1\n"}, hashline.ByteEdit{Start: 0, End: 2, New: "è"}},
		{"never between CR and LF", "a\r\nb\r\n", hashline.ByteEdit{Start: 0, End: 6, New: "a\r\nc\r\n"}, hashline.ByteEdit{Start: 3, End: 4, New: "c"}},
		{"never right after a lone CR", "a\rb", hashline.ByteEdit{Start: 0, End: 3, New: "a\r\nb"}, hashline.ByteEdit{Start: 1, End: 3, New: "\r\nb"}},
		{"the same text", "abc", hashline.ByteEdit{Start: 0, End: 3, New: "abc"}, hashline.ByteEdit{Start: 3, End: 3, New: ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := hashline.Narrow(tc.raw, tc.edit)
			if got != tc.want {
				t.Fatalf("Narrow = %+v, want %+v", got, tc.want)
			}
			if a, b := hashline.ApplyEdits(tc.raw, []hashline.ByteEdit{got}), hashline.ApplyEdits(tc.raw, []hashline.ByteEdit{tc.edit}); a != b {
				t.Fatalf("narrowed edit gives %q, the edit %q", a, b)
			}
		})
	}
}

package documents

import (
	"testing"
)

func TestOnDisk(t *testing.T) {
	for _, c := range []struct {
		text, disk string
		want       bool
	}{
		{"a\n", "a\n", true},
		{"a\n", "\uFEFFa\n", true}, // the BOM an editor holds outside its buffer
		{"\uFEFFa\n", "\uFEFFa\n", true},
		{"a\n", "a\r\n", false},
		{"a\n", "b\n", false},
		{"", "", true},
	} {
		if got := OnDisk(c.text, c.disk); got != c.want {
			t.Errorf("OnDisk(%q, %q) = %v", c.text, c.disk, got)
		}
	}
}

package main

import (
	"strings"
	"testing"
)

// An editor shows all of a server's stderr as errors, so serving LSP logs
// nothing there at its default level; --log-level info shows the start.
// stdin ends at once: the client went away without exit, which is code 1.
func TestServeIsQuietByDefault(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--stdio"}, ""},
		{[]string{"--stdio", "--log-level", "info"}, "hashline-ls serving LSP on stdio"},
	} {
		var stdout, stderr strings.Builder
		if code := run(c.args, strings.NewReader(""), &stdout, &stderr); code != 1 {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, stderr.String())
		}
		if got := stderr.String(); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%v: stderr %q, want %q", c.args, got, c.want)
		}
	}
}

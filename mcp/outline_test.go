package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Over MCP, as a terminal assistant reads less: the outline, one symbol,
// a block op on it, and where a name is declared.
func TestOutlineOverMCP(t *testing.T) {
	src := "class Cart:\n    def add(self, item):\n        self.items.append(item)\n\n    def total(self):\n        return len(self.items)\n"
	dir, disk := workspaceDir(t, map[string]string{"shop/cart.py": src, "shop/use.py": "Cart().total()\n"})
	cs := connect(t, disk)

	o := call(t, cs, "hashline_read", map[string]any{"path": "shop/cart.py", "view": "outline"})
	tag := tagOf(t, o.text)
	if o.isError || !strings.HasPrefix(o.text, "[shop/cart.py#"+tag+"]\n1-6 class  1:class Cart:\n  2-3 method  2:    def add(self, item):\n  5-6 method  5:    def total(self):\n") {
		t.Fatalf("outline: %q", o.text)
	}
	if syms, ok := o.result["symbols"].([]any); !ok || len(syms) != 3 {
		t.Fatalf("structured outline: %v", o.result["symbols"])
	}
	g := call(t, cs, "hashline_grep", map[string]any{"pattern": "^total$", "mode": "symbols"})
	if g.isError || g.text != "[shop/cart.py#"+tag+"]\nshop/cart.py:5-6 method Cart.total\n" {
		t.Fatalf("symbols grep: %q", g.text)
	}
	r := call(t, cs, "hashline_read", map[string]any{"path": "shop/cart.py", "symbol": "Cart.total"})
	if r.isError || !strings.HasPrefix(r.text, "[shop/cart.py#"+tag+"]\n5:    def total(self):\n6:        return len(self.items)\nnote: ") {
		t.Fatalf("symbol read: %q", r.text)
	}
	e := call(t, cs, "hashline_edit", map[string]any{"path": "shop/cart.py", "tag": tag, "ops": "PUT 5*:\n+    def total(self):\n+        return sum(1 for _ in self.items)\n"})
	if e.isError {
		t.Fatalf("edit: %s", e.text)
	}
	want := strings.Replace(src, "return len(self.items)", "return sum(1 for _ in self.items)", 1)
	if b, _ := os.ReadFile(filepath.Join(dir, "shop", "cart.py")); string(b) != want {
		t.Fatalf("disk holds %q, want %q", b, want)
	}
	bad := call(t, cs, "hashline_read", map[string]any{"path": "shop/cart.py", "symbol": "Cart.totl", "offset": 2})
	if !bad.isError || bad.code() != "INVALID_ARGUMENT" || !strings.Contains(bad.text, "offset and limit do not apply") {
		t.Fatalf("symbol with offset: %q", bad.text)
	}
}

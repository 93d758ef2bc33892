// Package gentree writes trees of source-like files for grep's tests and
// benchmarks: the same tree for the same Spec, so a figure measured on one
// machine can be measured again on another.
package gentree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Patterns the trees are made for: HitPattern matches the planted lines and
// nothing else the generator writes; NoHitPattern matches nothing.
const (
	HitPattern   = `func\s+\w+Handler`
	NoHitPattern = `zzzqqqxxx`
)

// Size is a span of byte counts.
type Size struct{ Min, Max int }

// Spec describes a tree.
type Spec struct {
	Seed uint64
	// Files is how many text files to write, Large of them of LargeSize,
	// the others splitting SmallBytes between them.
	Files      int
	SmallBytes int64
	Large      int
	LargeSize  Size
	// Hits is about how many lines matching HitPattern are planted in the
	// small files; LargeHits is how many go in each large file.
	Hits, LargeHits int
	// Tricky adds files whose lines are hard to get right: CRLF and lone-CR
	// endings, a BOM, no final newline, lines too long to show, NUL bytes
	// past the part binary detection reads, invalid UTF-8. Other search
	// tools read some of these differently, so benchmarks leave it off.
	Tricky bool
}

// Stats says what was written.
type Stats struct {
	Files int   // every file written, skipped ones included
	Bytes int64 // their total size
	Hits  int   // lines matching HitPattern in the files grep searches, Tricky ones aside
}

// filesPerDir keeps folders about as full as a real source tree's.
const filesPerDir = 24

// meanLineBytes is about how long a line of the small files is.
const meanLineBytes = 30

var words = []string{
	"value", "index", "result", "buffer", "count", "offset", "state", "props",
	"item", "node", "parent", "child", "config", "options", "request", "reply",
	"cache", "entry", "token", "scope", "frame", "layer", "render", "update",
	"error", "total", "width", "height", "label", "event", "queue", "stream",
}

var idents = []string{
	"parse", "load", "store", "build", "fetch", "apply", "merge", "split",
	"encode", "decode", "format", "scan", "walk", "visit", "emit", "flush",
}

// gen writes the files of one tree.
type gen struct {
	rng     *rand.Rand
	dir     string
	hitRate float64 // chance that a line is a planted hit
	stats   Stats
}

// Write creates the tree s describes under dir, which must exist.
func Write(dir string, s Spec) (Stats, error) {
	g := &gen{rng: rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15)), dir: dir}
	if lines := s.SmallBytes / meanLineBytes; lines > 0 {
		g.hitRate = float64(s.Hits) / float64(lines)
	}
	small := s.Files - s.Large
	step := 0
	if s.Large > 0 {
		step = s.Files / s.Large
	}
	for i := range s.Files {
		name := g.name(i)
		var body []byte
		if step > 0 && i%step == step/2 && i/step < s.Large {
			name = name[:len(name)-len(filepath.Ext(name))] + ".c"
			body = g.table(s.LargeSize.Min+g.rng.IntN(s.LargeSize.Max-s.LargeSize.Min+1), s.LargeHits)
		} else {
			mean := int(s.SmallBytes / int64(max(1, small)))
			body = g.source(mean/2 + g.rng.IntN(mean+1))
		}
		if err := g.write(name, body); err != nil {
			return g.stats, err
		}
	}
	if err := g.extras(); err != nil {
		return g.stats, err
	}
	if s.Tricky {
		if err := g.tricky(); err != nil {
			return g.stats, err
		}
	}
	return g.stats, nil
}

func (g *gen) name(i int) string {
	d := i / filesPerDir
	ext := []string{".go", ".js", ".ts", ".txt"}[i%4]
	return filepath.Join(fmt.Sprintf("pkg%02d", d%40), fmt.Sprintf("mod%03d", d), fmt.Sprintf("file%05d%s", i, ext))
}

func (g *gen) write(rel string, body []byte) error {
	p := filepath.Join(g.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	g.stats.Files++
	g.stats.Bytes += int64(len(body))
	return os.WriteFile(p, body, 0o644)
}

func (g *gen) word() string  { return words[g.rng.IntN(len(words))] }
func (g *gen) ident() string { return idents[g.rng.IntN(len(idents))] + g.word() }

// source is code-like text of about size bytes: many func lines, so the
// hit pattern's literal prefix is found often and rejected.
func (g *gen) source(size int) []byte {
	b := make([]byte, 0, size+128)
	for len(b) < size {
		b = g.sourceLine(b)
	}
	return b
}

func (g *gen) sourceLine(b []byte) []byte {
	if g.rng.Float64() < g.hitRate {
		g.stats.Hits++
		return append(append(append(b, "func "...), g.ident()...), "Handler(w Writer, r *Request) {\n"...)
	}
	switch g.rng.IntN(8) {
	case 0:
		return append(append(append(append(b, "func "...), g.ident()...), "(ctx Context, "...), g.word()+" int) error {\n"...)
	case 1:
		return append(b, '\n')
	case 2:
		return append(append(append(b, "\t// "...), g.word()+" "+g.word()+" "+g.word()...), '\n')
	default:
		b = append(append(append(b, '\t'), g.word()...), " := "...)
		b = append(append(append(b, g.ident()...), '('), g.word()...)
		b = strconv.AppendInt(append(b, ", "...), int64(g.rng.IntN(1000)), 10)
		return append(b, ")\n"...)
	}
}

// table is a large generated C file, like a parser's tables, with hits
// planted lines spread through it.
func (g *gen) table(size, hits int) []byte {
	b := make([]byte, 0, size+128)
	b = append(b, "static const uint16_t ts_parse_table[] = {\n"...)
	next := size / (hits + 1)
	for len(b) < size {
		if hits > 0 && len(b) >= next {
			b = append(append(append(b, "  /* func "...), g.ident()...), "Handler */\n"...)
			g.stats.Hits++
			next += size / (hits + 1)
			continue
		}
		b = strconv.AppendInt(append(b, "  ["...), int64(g.rng.IntN(60000)), 10)
		b = strconv.AppendInt(append(b, "] = ACTIONS("...), int64(g.rng.IntN(4000)), 10)
		b = strconv.AppendInt(append(b, "), SHIFT("...), int64(g.rng.IntN(900)), 10)
		b = append(b, "),\n"...)
	}
	return append(b, "};\n"...)
}

// extras are the files every tree has that grep must leave out, or must
// not leave out: ignored folders and names, a .git folder, binary files,
// hidden files.
func (g *gen) extras() error {
	hit := []byte("func skippedHandler() {}\n")
	files := []struct {
		rel  string
		body []byte
	}{
		{".gitignore", []byte("# generated\nbuild/\n*.gen.txt\n")},
		{"build/out.go", hit},
		{"pkg00/x.gen.txt", hit},
		{"pkg00/sub/.gitignore", []byte("local.go\n")},
		{"pkg00/sub/local.go", hit},
		{".git/HEAD", hit},
		{"assets/logo.bin", append([]byte{0x89, 'P', 'N', 'G', 0}, hit...)},
		{"assets/data.bin", append(bytes.Repeat([]byte{0, 1, 2, 3}, 64), hit...)},
		{".config/settings.go", []byte("func settingsHandler() {}\n")},
		{"pkg00/empty.txt", nil},
	}
	for _, f := range files {
		if err := g.write(f.rel, f.body); err != nil {
			return err
		}
	}
	g.stats.Hits++ // .config/settings.go: hidden, but searched
	return nil
}

// tricky writes files whose line boundaries only a careful search gets
// right.
func (g *gen) tricky() error {
	long := bytes.Repeat([]byte("x"), 20000)
	late := append(bytes.Repeat([]byte("func lateHandler()\n"), 600), 0)
	files := []struct {
		rel  string
		body string
	}{
		{"odd/crlf.go", "package a\r\nfunc crlfHandler() {\r\n}\r\nfunc x() {}\r\n"},
		{"odd/cr.go", "func crHandler()\rfunc other()\rfunc soloHandler()"},
		{"odd/mixed.go", "a\nfunc mixedHandler()\r\n\rfunc lastHandler()\n"},
		{"odd/bom.go", "\uFEFFfunc bomHandler() {}\nfunc y() {}\n"},
		{"odd/nofinal.go", "x\nfunc tailHandler()"},
		{"odd/long.go", "func longHandler() " + string(long) + "\nfunc shortHandler()\n"},
		{"odd/late-nul.go", string(late) + "func afterNulHandler()\n"},
		{"odd/latin1.go", "func caf\xe9Handler()\nfunc \xffHandler()\n"},
		{"odd/spaces.go", "func\t \tspacedHandler()\nfunc  \n  Handler()\n"},
		{"odd/empty-lines.go", "\n\n\nfunc emptyHandler()\n\n"},
	}
	for _, f := range files {
		if err := g.write(f.rel, []byte(f.body)); err != nil {
			return err
		}
	}
	return nil
}

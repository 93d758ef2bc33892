//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

// These benchmarks measure the memory of hashline-ls as the kernel counts
// it, in a process of its own, as an editor or a shell starts it. Each
// states its figures beside the size of the text it handled, measured in
// the same run (`make bench` prints them):
//
//	go test -run '^$' -bench 'Memory' -benchtime 1x ./cmd/hashline-ls/

// server is hashline-ls serving LSP on its stdin and stdout, for a client
// that applies no edits, so it writes the disk itself.
type server struct {
	cmd  *exec.Cmd
	conn jsonrpc2.Conn
}

type pipes struct {
	io.Reader
	io.WriteCloser
}

func startServer(b *testing.B, bin, root string) *server {
	b.Helper()
	cmd := exec.Command(bin, "--stdio", "--log-level", "error")
	stdin, stdout := testenv.StartPiped(b, cmd)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{stdout, stdin}))
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return reply(ctx, nil, nil)
	})
	s := &server{cmd: cmd, conn: conn}
	b.Cleanup(func() {
		conn.Close()
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	var res json.RawMessage
	s.call(b, "initialize", map[string]any{"rootUri": "file://" + root, "capabilities": map[string]any{}}, &res)
	if err := conn.Notify(context.Background(), "initialized", map[string]any{}); err != nil {
		b.Fatal(err)
	}
	return s
}

func (s *server) call(b *testing.B, method string, params, res any) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.conn.Call(ctx, method, params, res); err != nil {
		b.Fatalf("%s: %v", method, err)
	}
}

// exec runs a command that must succeed and returns its result.
func (s *server) exec(b *testing.B, command string, args map[string]any) map[string]any {
	b.Helper()
	var res map[string]any
	s.call(b, "workspace/executeCommand", map[string]any{"command": command, "arguments": []any{args}}, &res)
	if res["ok"] != true {
		b.Fatalf("%s %v: %.300v", command, args, res)
	}
	return res
}

// status reads a field of /proc/PID/status, in MiB.
func (s *server) status(b *testing.B, field string) float64 {
	b.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		b.Skipf("no /proc here: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	b.Fatalf("no %s in /proc status", field)
	return 0
}

// settledRSS is the resident size once it stops falling: the runtime
// hands freed memory back to the kernel over a few seconds.
func (s *server) settledRSS(b *testing.B) float64 {
	b.Helper()
	rss := s.status(b, "VmRSS")
	for i := 0; i < 50; i++ {
		time.Sleep(100 * time.Millisecond)
		now := s.status(b, "VmRSS")
		if now > rss-0.5 && i >= 5 {
			return now
		}
		rss = min(rss, now)
	}
	return rss
}

// memoryFiles writes n files of size bytes each under dir: 2,000 lines of
// distinct text, which one read shows whole.
func memoryFiles(b *testing.B, dir string, n, size int) []string {
	b.Helper()
	var names []string
	for f := 0; f < n; f++ {
		var sb strings.Builder
		for l := 0; sb.Len() < size; l++ {
			line := fmt.Sprintf("file %d line %d: ", f, l)
			sb.WriteString(line + strings.Repeat("x", max(size/2000-len(line)-1, 0)) + "\n")
		}
		name := fmt.Sprintf("f%02d.txt", f)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// 32 sessions, each reading the same 10 MiB of files until its snapshot
// store is at its 8 MiB bound, as 32 assistants in one workspace do: RSS
// with the server idle, with every session full, and once every session
// has ended. Targets: full <= 350 MB, idle <= 20 MB.
func BenchmarkMemory32Sessions(b *testing.B) {
	bin := build(b)
	root := b.TempDir()
	names := memoryFiles(b, root, 40, 256<<10)
	for b.Loop() {
		s := startServer(b, bin, root)
		idle := s.settledRSS(b)
		for i := 0; i < hashline.MaxSessions; i++ {
			for _, name := range names {
				s.exec(b, commands.CmdRead, map[string]any{"path": name, "session": fmt.Sprint("s", i)})
			}
		}
		full := s.status(b, "VmRSS")
		settledFull := s.settledRSS(b)
		for i := 0; i < hashline.MaxSessions; i++ {
			s.exec(b, commands.CmdSessionEnd, map[string]any{"session": fmt.Sprint("s", i)})
		}
		ended := s.settledRSS(b)
		b.ReportMetric(idle, "idle-MiB")
		b.ReportMetric(full, "full-MiB")
		b.ReportMetric(settledFull, "full-settled-MiB")
		b.ReportMetric(ended, "ended-MiB")
		b.ReportMetric(float64(hashline.MaxSessions*hashline.MaxSessionTextBytes>>20), "shown-MiB")
	}
}

// A 50 MB file read and then edited, by the server writing the disk and by
// the shell verbs: the peak resident size of each process, beside the
// file's size. Target: peak <= 4x the file.
func BenchmarkMemoryLargeFile(b *testing.B) {
	bin := build(b)
	root := b.TempDir()
	size := writeLargeFile(b, filepath.Join(root, "big.txt"), 50e6)
	fileMiB := float64(size) / (1 << 20)
	for b.Loop() {
		s := startServer(b, bin, root)
		r := s.exec(b, commands.CmdRead, map[string]any{"path": "big.txt"})
		s.exec(b, commands.CmdEdit, map[string]any{"path": "big.txt", "tag": r["tag"], "ops": "PUT 1000.=1000:\n+edited by the server"})
		server := s.status(b, "VmHWM")

		tag := s.exec(b, commands.CmdRead, map[string]any{"path": "big.txt", "limit": 1})["tag"].(string)
		// A child started with vfork inherits the peak of its parent until
		// it runs the new program, so the parent must be the smaller.
		debug.FreeOSMemory()
		verbs := 0.0
		for _, args := range [][]string{{"read", "big.txt"}, {"edit", "big.txt", "--tag", tag}} {
			cmd := exec.Command(bin, args...)
			cmd.Dir, cmd.Stdin = root, strings.NewReader("PUT 2000.=2000:\n+edited by the verb\n")
			if err := cmd.Run(); err != nil {
				b.Fatalf("%v: %v", args, err)
			}
			verbs = max(verbs, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)/1024)
		}
		b.ReportMetric(fileMiB, "file-MiB")
		b.ReportMetric(server, "server-peak-MiB")
		b.ReportMetric(server/fileMiB, "server-peak/file")
		b.ReportMetric(verbs, "verb-peak-MiB")
		b.ReportMetric(verbs/fileMiB, "verb-peak/file")
	}
}

// The 60 files of the react-edit corpus, each read whole and then edited
// once (its middle line replaced), by the server writing the disk: the
// peak resident size of the server, beside the files' total size.
func BenchmarkMemoryCorpus(b *testing.B) {
	corpus := testenv.Corpus(b, "react-edit")
	names, _ := filepath.Glob(filepath.Join(corpus, "*", "input", "*"))
	if len(names) == 0 {
		b.Skipf("no input files under %s", corpus)
	}
	bin := build(b)
	for b.Loop() {
		root := b.TempDir()
		total := 0
		var files []string
		for i, name := range names {
			raw, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			file := fmt.Sprintf("%02d-%s", i, filepath.Base(name))
			if err := os.WriteFile(filepath.Join(root, file), raw, 0o644); err != nil {
				b.Fatal(err)
			}
			total += len(raw)
			files = append(files, file)
		}
		s := startServer(b, bin, root)
		for _, file := range files {
			r := s.exec(b, commands.CmdRead, map[string]any{"path": file})
			mid := max(int(r["totalLines"].(float64))/2, 1)
			s.exec(b, commands.CmdEdit, map[string]any{"path": file, "tag": r["tag"], "ops": fmt.Sprintf("PUT %d.=%d:\n+edited by the server", mid, mid)})
		}
		b.ReportMetric(float64(total)/(1<<20), "files-MiB")
		b.ReportMetric(s.status(b, "VmHWM"), "server-peak-MiB")
	}
}

// writeLargeFile writes about size bytes of 100-byte lines to path, a
// line at a time, so the benchmark itself stays small, and returns the
// size written.
func writeLargeFile(b *testing.B, path string, size int) int {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n := 0
	for l := 0; n < size; l++ {
		k, _ := fmt.Fprintf(w, "line %d of a large file, padded to about a hundred bytes with some ordinary text ....\n", l)
		n += k
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		b.Fatal(err)
	}
	return n
}

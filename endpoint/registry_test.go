//go:build !windows

package endpoint

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	// A short base keeps socket paths well inside sockaddr_un.
	base, err := os.MkdirTemp("", "hl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	r, err := OpenDir(FolderPath(base, os.Getuid()), os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPublishListDialClose(t *testing.T) {
	r := testRegistry(t)
	before := time.Now().UTC()
	l, err := r.Publish([]string{"/ws/a", "/ws/b"}, "9.9.9")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pid := os.Getpid()
	for _, p := range []struct {
		path string
		perm os.FileMode
		kind os.FileMode
	}{{r.socketPath(pid), 0o600, os.ModeSocket}, {r.infoPath(pid), 0o600, 0}} {
		fi, err := os.Lstat(p.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Type() != p.kind || fi.Mode().Perm() != p.perm {
			t.Errorf("%s: mode %v, want type %v perm %v", p.path, fi.Mode(), p.kind, p.perm)
		}
	}
	list, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("List = %+v, want this process's entry", list)
	}
	got := list[0]
	if got.PID != pid || got.Version != "9.9.9" || !slices.Equal(got.Folders, []string{"/ws/a", "/ws/b"}) ||
		got.Started.Before(before.Add(-time.Second)) || got.Started.After(time.Now().Add(time.Second)) {
		t.Fatalf("entry = %+v", got)
	}

	// A connection from this user gets through, both ways.
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			t.Error(err)
			close(accepted)
			return
		}
		accepted <- c
	}()
	c, err := r.Dial(context.Background(), got)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sc := <-accepted
	if sc == nil {
		t.FailNow()
	}
	defer sc.Close()
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(sc, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q, %v", buf, err)
	}

	if err := l.SetFolders([]string{"/ws/c"}); err != nil {
		t.Fatal(err)
	}
	if list, _ := r.List(); len(list) != 1 || !slices.Equal(list[0].Folders, []string{"/ws/c"}) {
		t.Fatalf("after SetFolders: %+v", list)
	}

	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{r.socketPath(pid), r.infoPath(pid)} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind after Close: %v", p, err)
		}
	}
	if list, _ := r.List(); len(list) != 0 {
		t.Fatalf("after Close: %+v", list)
	}
}

// deadPID is the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// livePID is the pid of a process that runs until the test ends.
func livePID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

// plant writes an entry for pid as a server would, with a socket that no
// longer listens.
func plant(t *testing.T, r *Registry, pid int, folders ...string) Info {
	t.Helper()
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: r.socketPath(pid), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ul.SetUnlinkOnClose(false)
	ul.Close()
	info := Info{PID: pid, Folders: folders, Version: "0", Started: time.Now().UTC()}
	if err := r.writeInfo(info); err != nil {
		t.Fatal(err)
	}
	return info
}

func TestStaleEntries(t *testing.T) {
	r := testRegistry(t)
	live, err := r.Publish([]string{"/ws"}, "1")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()

	// A process that is gone: its entry is not listed, and its files go.
	dead := deadPID(t)
	plant(t, r, dead, "/ws")
	// A socket without info whose process is gone goes too.
	orphan := deadPID(t)
	if err := os.WriteFile(r.socketPath(orphan), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// A socket whose info is not written yet, of a live process, stays.
	starting := livePID(t)
	if err := os.WriteFile(r.socketPath(starting), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].PID != os.Getpid() {
		t.Fatalf("List = %+v, want only this process", list)
	}
	for _, p := range []string{r.socketPath(dead), r.infoPath(dead), r.socketPath(orphan)} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stale %s not removed: %v", filepath.Base(p), err)
		}
	}
	if _, err := os.Lstat(r.socketPath(starting)); err != nil {
		t.Errorf("a starting server's socket was removed: %v", err)
	}

	// A live pid whose socket no longer listens (the pid was reused):
	// listed, but Dial finds it stale and removes it.
	reused := plant(t, r, livePID(t), "/ws")
	if list, _ := r.List(); len(list) != 2 {
		t.Fatalf("List = %+v, want the reused pid's entry too", list)
	}
	_, err = r.Dial(context.Background(), reused)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeStale {
		t.Fatalf("Dial of a dead socket: %v, want %s", err, CodeStale)
	}
	if _, err := os.Lstat(r.infoPath(reused.PID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale entry kept after Dial: %v", err)
	}
	if list, _ := r.List(); len(list) != 1 {
		t.Fatalf("List after Dial = %+v", list)
	}
}

func TestChoose(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	ws := Info{PID: 10, Folders: []string{"/home/u/ws"}, Started: at(1)}
	wsLater := Info{PID: 11, Folders: []string{"/home/u/ws"}, Started: at(5)}
	sub := Info{PID: 12, Folders: []string{"/home/u/other", "/home/u/ws/sub"}, Started: at(0)}
	sibling := Info{PID: 13, Folders: []string{"/home/u/ws2"}, Started: at(9)}
	both := Info{PID: 14, Folders: []string{"/home/u/ws/sub", "/srv/data"}, Started: at(2)}
	all := []Info{sibling, wsLater, both, ws, sub}
	for _, tc := range []struct {
		name    string
		servers []Info
		roots   []string
		pid     int
		serving int   // pid; 0 when none serves
		others  []int // pids, most recent first
		folder  string
		err     string
	}{
		{"the folder itself", []Info{ws}, []string{"/home/u/ws"}, 0, 10, nil, "/home/u/ws", ""},
		{"below it", []Info{ws}, []string{"/home/u/ws/a/b"}, 0, 10, nil, "/home/u/ws", ""},
		{"a name that only starts alike is outside", []Info{ws}, []string{"/home/u/ws2"}, 0, 0, nil, "", "no editor running hashline-ls holds /home/u/ws2"},
		{"deepest folder wins over the most recent", all, []string{"/home/u/ws/sub/x"}, 0, 14, []int{11, 10, 12}, "/home/u/ws/sub", ""},
		{"equal depth: the most recent", []Info{ws, wsLater}, []string{"/home/u/ws/a"}, 0, 11, []int{10}, "/home/u/ws", ""},
		{"every root must be held", all, []string{"/home/u/ws/sub", "/srv/data/x"}, 0, 14, nil, "/home/u/ws/sub", ""},
		{"roots split across editors: none", []Info{ws, sibling}, []string{"/home/u/ws", "/home/u/ws2"}, 0, 0, nil, "", "no editor"},
		{"--editor picks another that holds it", all, []string{"/home/u/ws/sub"}, 10, 10, []int{11, 14, 12}, "/home/u/ws", ""},
		{"--editor that does not hold it", all, []string{"/home/u/ws"}, 13, 0, nil, "", "the editor with pid 13 does not hold /home/u/ws"},
		{"--editor that does not run", all, []string{"/home/u/ws"}, 99, 0, nil, "", "no editor with pid 99 runs hashline-ls"},
		{"no editors", nil, []string{"/x"}, 0, 0, nil, "", "no editor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, err := Choose(tc.servers, tc.roots, tc.pid)
			if tc.err != "" {
				var e *Error
				if !errors.As(err, &e) || e.Code != CodeNoEditor || !strings.Contains(e.Msg, tc.err) {
					t.Fatalf("err = %v, want %s saying %q", err, CodeNoEditor, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var others []int
			for _, o := range ch.Others {
				others = append(others, o.PID)
			}
			if ch.Serving.PID != tc.serving || ch.Folder != tc.folder || !slices.Equal(others, tc.others) {
				t.Fatalf("serving %d in %q, others %v; want %d in %q, others %v", ch.Serving.PID, ch.Folder, others, tc.serving, tc.folder, tc.others)
			}
		})
	}
}

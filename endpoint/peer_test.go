package endpoint

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hashline-ls/internal/testenv"
)

func TestAllow(t *testing.T) {
	for _, tc := range []struct {
		peer Cred
		uid  int
		ok   bool
		says string
	}{
		{Cred{UID: 1000, PID: 42}, 1000, true, ""},
		{Cred{UID: 0}, 0, true, ""},
		{Cred{UID: 1001, PID: 42}, 1000, false, "uid 1001 (pid 42)"},
		{Cred{UID: 0, PID: 7}, 1000, false, "uid 0 (pid 7)"}, // not even root gets another user's editor
		{Cred{UID: 1000}, 0, false, "uid 1000:"},
	} {
		err := Allow(tc.peer, tc.uid)
		if tc.ok {
			if err != nil {
				t.Errorf("Allow(%+v, %d) = %v, want allowed", tc.peer, tc.uid, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != CodePeerRefused || !strings.Contains(e.Msg, tc.says) || !strings.Contains(e.Msg, "as the same user") {
			t.Errorf("Allow(%+v, %d) = %v, want %s naming %q and the next step", tc.peer, tc.uid, err, CodePeerRefused, tc.says)
		}
	}
}

// The helper process: dropped to another uid by the test, it dials or
// listens as HASHLINE_PEER_HELPER says and reports on stdout.
func TestMain(m *testing.M) {
	testenv.Main(m, "HASHLINE_PEER_HELPER", func(mode string) int {
		path := os.Getenv("HASHLINE_PEER_SOCKET")
		if mode == "dial" {
			return testenv.DialAndReport(path, []byte("hello\n"))
		}
		return helperListen(path)
	})
}

func helperListen(path string) int {
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		fmt.Printf("listen: %v\n", err)
		return 1
	}
	os.Chmod(path, 0o777)
	fmt.Println("listening")
	c, err := ul.Accept()
	if err != nil {
		return 1
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, _ := io.ReadAll(c)
	fmt.Printf("received %q\n", b)
	return 0
}

// otherUser runs this test binary as another user in helper mode.
func otherUser(t *testing.T, dir, mode, socket string) *exec.Cmd {
	t.Helper()
	return testenv.AsOtherUser(t, dir, "the decision itself is covered by TestAllow", "HASHLINE_PEER_HELPER="+mode, "HASHLINE_PEER_SOCKET="+socket)
}

// openDir is a folder every user may enter, so the credential check, not
// the folder's mode, is what stands between another user and the socket.
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hlpeer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAnotherUserIsRefusedByTheServer(t *testing.T) {
	dir := openDir(t)
	sock := filepath.Join(dir, "s.sock")
	helper := otherUser(t, dir, "dial", sock)
	l, err := listen(sock, os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Chmod(sock, 0o777); err != nil {
		t.Fatal(err)
	}
	refused := make(chan error, 1)
	l.Refused = func(err error) { refused <- err }
	accepted := make(chan net.Conn, 2)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()

	out, err := helper.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "closed by the server" {
		t.Fatalf("the other user's connection: %q, want it closed with nothing sent", got)
	}
	select {
	case err := <-refused:
		var e *Error
		if !errors.As(err, &e) || e.Code != CodePeerRefused || !strings.Contains(e.Msg, "uid 65534 (pid ") {
			t.Fatalf("refusal = %v", err)
		}
		t.Logf("refused: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no refusal reported")
	}
	select {
	case c := <-accepted:
		t.Fatalf("Accept returned the other user's connection from %v", c.RemoteAddr())
	default:
	}

	// The listener goes on serving this user.
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case sc := <-accepted:
		sc.Close()
	case <-time.After(10 * time.Second):
		t.Fatal("this user's connection was not accepted")
	}
}

func TestAnotherUsersServerIsRefusedByTheClient(t *testing.T) {
	dir := openDir(t)
	sock := filepath.Join(dir, "1.sock")
	helper := otherUser(t, dir, "listen", sock)
	_, stdout := testenv.StartPiped(t, helper)
	defer helper.Process.Kill()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "listening" {
		t.Fatalf("helper: %q", lines.Text())
	}
	r := &Registry{dir: dir, uid: os.Getuid()}
	_, err := r.Dial(context.Background(), Info{PID: 1})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodePeerRefused || !strings.Contains(e.Msg, "uid 65534") {
		t.Fatalf("Dial to another user's server: %v, want %s", err, CodePeerRefused)
	}
	t.Logf("refused: %v", err)
	// The server saw the connection close with nothing written to it.
	if !lines.Scan() || lines.Text() != `received ""` {
		t.Fatalf("the other user's server received %q", lines.Text())
	}
	helper.Wait()
}

// listen is a Listener on a socket at path that checks the peer uid
// against uid, with no registry entry behind it: for callers that keep the
// socket elsewhere.
func listen(path string, uid int) (*Listener, error) {
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	return &Listener{l: ul, reg: &Registry{uid: uid}}, nil
}

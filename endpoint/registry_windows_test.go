package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"hashline-ls/internal/testenv"
)

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r, err := OpenDir(filepath.Join(t.TempDir(), "endpoints"), os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A published server is listed, reached through its named pipe by this
// user, and gone once closed.
func TestPublishListDialCloseWindows(t *testing.T) {
	r := testRegistry(t)
	l, err := r.Publish([]string{`C:\ws\a`}, "9.9.9")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got := l.Addr().String(); !strings.HasPrefix(got, `\\.\pipe\hashline-ls-`) || got != r.Socket(os.Getpid()) {
		t.Fatalf("Addr = %q, want the pipe %q", got, r.Socket(os.Getpid()))
	}
	list, err := r.List()
	if err != nil || len(list) != 1 || list[0].PID != os.Getpid() || list[0].Folders[0] != `C:\ws\a` {
		t.Fatalf("List = %+v, %v; want this process's entry", list, err)
	}
	// Two clients in turn, and one while another is served: each gets the
	// other end's bytes.
	go testenv.ServeEach(l, func(c net.Conn) {
		defer c.Close()
		b := make([]byte, 5)
		if _, err := io.ReadFull(c, b); err == nil {
			c.Write(append([]byte("got "), b...))
		}
	})
	for i := range 3 {
		c, err := r.Dial(context.Background(), list[0])
		if err != nil {
			t.Fatalf("Dial %d: %v", i, err)
		}
		fmt.Fprintf(c, "ping%d", i)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		b, err := io.ReadAll(c)
		c.Close()
		if want := fmt.Sprintf("got ping%d", i); string(b) != want || err != nil {
			t.Fatalf("answer %d = %q, %v; want %q", i, b, err, want)
		}
	}
	accepted := make(chan error, 1)
	go func() { _, err := l.Accept(); accepted <- err }()
	l.Close()
	if _, err := r.Dial(context.Background(), list[0]); !isCode(err, CodeStale) {
		t.Fatalf("Dial after Close = %v, want %s", err, CodeStale)
	}
	if list, _ := r.List(); len(list) != 0 {
		t.Fatalf("List after Close = %+v", list)
	}
	select {
	case <-accepted:
	case <-time.After(10 * time.Second):
	}
}

// The pipe's DACL admits only the user, and nothing else; the client reads
// it back from the pipe it opened.
func TestPipeAdmitsOnlyTheUser(t *testing.T) {
	r := testRegistry(t)
	l, err := r.Publish([]string{`C:\ws`}, "1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := dial(context.Background(), r.Socket(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sd, err := windows.GetSecurityInfo(c.(*pipeConn).h, windows.SE_KERNEL_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	me, err := currentSID()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sd.String(), "O:"+me+"D:P(A;;FA;;;"+me+")"; got != want {
		t.Fatalf("the pipe's security is %s, want %s", got, want)
	}
	// A second server cannot take over the name of a live one.
	switch second, err := r.listen(r.Socket(os.Getpid())); {
	case err != nil:
	case testenv.Wine():
		second.Close()
		t.Log("Wine 8 ignores FILE_FLAG_FIRST_PIPE_INSTANCE: a second pipe of the name was created, which Windows refuses")
	default:
		second.Close()
		t.Error("a second pipe of the same name was created")
	}
}

// Only the same user passes, whatever else is the same.
func TestAllowSID(t *testing.T) {
	const me, other = "S-1-5-21-1-2-3-1001", "S-1-5-21-1-2-3-1002"
	if err := allowSID(me, me, 42); err != nil {
		t.Fatalf("the same user refused: %v", err)
	}
	err := allowSID(other, me, 42)
	if !isCode(err, CodePeerRefused) || !strings.Contains(err.Error(), other+" (pid 42)") || !strings.Contains(err.Error(), "as the same user") {
		t.Fatalf("another user: %v, want %s naming it and the next step", err, CodePeerRefused)
	}
}

// Entries of processes that are gone are removed; a live pid whose pipe
// is missing (the pid was reused) is found stale by Dial.
func TestStaleEntriesWindows(t *testing.T) {
	r := testRegistry(t)
	exited := testenv.Self(t, nil, "-test.run", "^$")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead := Info{PID: exited.Process.Pid, Folders: []string{`C:\ws`}, Started: time.Now().UTC()}
	if err := r.writeInfo(dead); err != nil {
		t.Fatal(err)
	}
	reused := Info{PID: os.Getpid(), Folders: []string{`C:\ws`}, Started: time.Now().UTC()}
	if err := r.writeInfo(reused); err != nil {
		t.Fatal(err)
	}
	list, err := r.List()
	if err != nil || len(list) != 1 || list[0].PID != os.Getpid() {
		t.Fatalf("List = %+v, %v; want only the live pid", list, err)
	}
	if _, err := os.Stat(r.infoPath(dead.PID)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the exited process's entry was left: %v", err)
	}
	if _, err := r.Dial(context.Background(), reused); !isCode(err, CodeStale) {
		t.Fatalf("Dial of a live pid without a pipe = %v, want %s", err, CodeStale)
	}
	if _, err := os.Stat(r.infoPath(reused.PID)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stale entry was left: %v", err)
	}
}

// The folder is created owned by the user with a DACL for the user alone;
// one that admits someone else, or is no folder, is refused.
func TestFolderRulesWindows(t *testing.T) {
	me, err := currentSID()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "endpoints")
	if _, err := OpenDir(dir, 0); err != nil {
		t.Fatal(err)
	}
	owner, others, err := folderSecurity(dir)
	if err != nil || owner != me || len(others) != 0 {
		t.Fatalf("created folder: owner %s, others %v, %v; want %s alone", owner, others, err, me)
	}
	open := filepath.Join(t.TempDir(), "open")
	sd, err := windows.SecurityDescriptorFromString("O:" + me + "D:P(A;OICI;FA;;;" + me + ")(A;OICI;FR;;;S-1-1-0)")
	if err != nil {
		t.Fatal(err)
	}
	sa := &windows.SecurityAttributes{SecurityDescriptor: sd}
	sa.Length = 24
	p, _ := windows.UTF16PtrFromString(open)
	if err := windows.CreateDirectory(p, sa); err != nil {
		t.Fatal(err)
	}
	if _, others, _ := folderSecurity(open); len(others) == 0 {
		t.Skipf("a DACL given to a new folder does not read back here (Wine 8 keeps none): a folder open to others cannot be made")
	}
	if _, err := OpenDir(open, 0); !isCode(err, CodeUnsafeFolder) || !strings.Contains(err.Error(), "S-1-1-0") {
		t.Fatalf("a folder everyone may read: %v, want %s naming Everyone", err, CodeUnsafeFolder)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := OpenDir(file, 0); !isCode(err, CodeUnsafeFolder) {
		t.Fatalf("a file: %v, want %s", err, CodeUnsafeFolder)
	}
}

// Roots and folders match in any case, as Windows names them.
func TestChooseInAnyCase(t *testing.T) {
	s := Info{PID: 7, Folders: []string{`C:\Users\Me\Work`}}
	ch, err := Choose([]Info{s}, []string{`c:\users\me\work\App`}, 0)
	if err != nil || ch.Serving.PID != 7 || ch.Folder != `C:\Users\Me\Work` {
		t.Fatalf("Choose = %+v, %v", ch, err)
	}
	if _, err := Choose([]Info{s}, []string{`C:\Users\Me\Workshop`}, 0); !isCode(err, CodeNoEditor) {
		t.Fatalf("a sibling with the folder's name as prefix: %v, want %s", err, CodeNoEditor)
	}
}

func isCode(err error, code Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

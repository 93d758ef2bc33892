package endpoint

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"hashline-ls/internal/appdata"
)

// On Windows a server listens on a named pipe instead of a Unix socket:
// its DACL admits only the user who created it, and both ends check the
// user of the process at the other end once connected. The pipe is the
// first instance of its name, so a pipe of that name someone else created
// first makes Publish fail rather than be shared. golang.org/x/sys/windows
// has every call this needs, and since Go 1.25 an *os.File made from an
// overlapped handle does its I/O through the runtime's completion port,
// with deadlines: that leaves little for go-winio to add here, and no
// module beyond the standard ones.

// UserFolder is the current user's folder, where Open looks: endpoints in
// hashline-ls's local application data, found without the environment
// when LOCALAPPDATA is missing, as MCP hosts may start servers without it.
func UserFolder() (string, error) { return appdata.Dir("endpoints") }

// socketPath is the name of pid's pipe. Pipes share one namespace on the
// machine, so the name carries a digest of the registry's folder: two
// registries never name the same pipe.
func (r *Registry) socketPath(pid int) string {
	sum := sha256.Sum256([]byte(strings.ToLower(r.dir)))
	return fmt.Sprintf(`\\.\pipe\hashline-ls-%x-%d`, sum[:8], pid)
}

// removeSocket leaves the pipe alone: it goes with the process that
// created it.
func (r *Registry) removeSocket(int) {}

// samePath compares paths as Windows file systems do, in any case.
func samePath(a, b string) bool { return strings.EqualFold(a, b) }

// pipeBusyWait bounds how long a dial waits for a free instance of a pipe
// whose server is busy accepting.
const pipeBusyWait = 5 * time.Second

func dial(ctx context.Context, name string) (net.Conn, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(pipeBusyWait)
	for {
		// SECURITY_IDENTIFICATION: the server may learn who connects, not
		// act as them.
		h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
			windows.FILE_FLAG_OVERLAPPED|windows.SECURITY_SQOS_PRESENT|windows.SECURITY_IDENTIFICATION, 0)
		if err == nil {
			return newPipeConn(h, name, false), nil
		}
		if !errors.Is(err, windows.ERROR_PIPE_BUSY) || time.Now().After(deadline) {
			return nil, &net.OpError{Op: "dial", Net: "pipe", Addr: pipeAddr(name), Err: os.NewSyscallError("CreateFile", err)}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// listen creates the first instance of the pipe name.
func (r *Registry) listen(name string) (net.Listener, error) {
	me, err := currentSID()
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString("O:" + me + "D:P(A;;FA;;;" + me + ")")
	if err != nil {
		return nil, err
	}
	l := &pipeListener{name: name, sd: sd, waits: map[*windows.Overlapped]windows.Handle{}}
	if l.next, err = l.instance(true); err != nil {
		return nil, fmt.Errorf("listen on %s: %w", name, err)
	}
	return l, nil
}

// pipeListener accepts connections on a named pipe, an instance of the
// pipe for each: while one client is served, the next instance waits, so
// a client never finds the name gone and takes the server for dead.
type pipeListener struct {
	name string
	sd   *windows.SECURITY_DESCRIPTOR

	mu     sync.Mutex // guards the fields below
	next   windows.Handle
	waits  map[*windows.Overlapped]windows.Handle // each Accept's wait for a client, on its instance
	closed bool
	// waiting counts the Accepts waiting for a client; Close waits for
	// them to close their instances, so that none is left to connect to.
	waiting sync.WaitGroup
}

func (l *pipeListener) instance(first bool) (windows.Handle, error) {
	sa := &windows.SecurityAttributes{SecurityDescriptor: l.sd}
	sa.Length = uint32(unsafe.Sizeof(*sa))
	mode := uint32(windows.PIPE_ACCESS_DUPLEX | windows.FILE_FLAG_OVERLAPPED)
	if first {
		mode |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	p, err := windows.UTF16PtrFromString(l.name)
	if err != nil {
		return 0, err
	}
	return windows.CreateNamedPipe(p, mode, windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		windows.PIPE_UNLIMITED_INSTANCES, 64<<10, 64<<10, 0, sa)
}

// Accept waits for the next client. The peer is checked by Listener.
func (l *pipeListener) Accept() (net.Conn, error) {
	h, ov, err := l.connect()
	if err != nil {
		return nil, l.opErr(err)
	}
	if ov != nil {
		defer l.waiting.Done()
		_, err = windows.WaitForSingleObject(ov.HEvent, windows.INFINITE)
		if err == nil {
			var n uint32
			err = windows.GetOverlappedResult(h, ov, &n, false)
		}
		windows.CloseHandle(ov.HEvent)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.waits, ov)
	if err == nil && !l.closed {
		l.next, err = l.instance(false)
	}
	if l.closed {
		err = net.ErrClosed
	}
	if err != nil {
		windows.CloseHandle(h)
		return nil, l.opErr(err)
	}
	return newPipeConn(h, l.name, true), nil
}

// connect starts the wait for a client on the waiting instance; ov is nil
// when one has connected already.
func (l *pipeListener) connect() (windows.Handle, *windows.Overlapped, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, nil, net.ErrClosed
	}
	h := l.next
	if h == 0 {
		var err error
		if h, err = l.instance(false); err != nil {
			return 0, nil, err
		}
	}
	l.next = 0
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return 0, nil, err
	}
	ov := &windows.Overlapped{HEvent: ev}
	switch err := windows.ConnectNamedPipe(h, ov); {
	case errors.Is(err, windows.ERROR_IO_PENDING):
		l.waits[ov] = h
		l.waiting.Add(1)
		return h, ov, nil
	case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
		windows.CloseHandle(ev)
		return h, nil, nil
	default:
		windows.CloseHandle(ev)
		windows.CloseHandle(h)
		return 0, nil, err
	}
}

func (l *pipeListener) opErr(err error) error {
	return &net.OpError{Op: "accept", Net: "pipe", Addr: l.Addr(), Err: err}
}

// Close stops listening: every waiting Accept returns net.ErrClosed, and
// Close returns once they have closed their instances.
func (l *pipeListener) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	for ov, h := range l.waits {
		windows.CancelIoEx(h, ov)
	}
	if l.next != 0 {
		windows.CloseHandle(l.next)
		l.next = 0
	}
	l.mu.Unlock()
	l.waiting.Wait()
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr(l.name) }

// pipeAddr is a pipe's name as a net.Addr.
type pipeAddr string

func (pipeAddr) Network() string  { return "pipe" }
func (a pipeAddr) String() string { return string(a) }

// pipeConn is one end of a connected pipe. The *os.File does the I/O;
// the handle is kept to ask who is at the other end.
type pipeConn struct {
	*os.File
	h      windows.Handle
	server bool // the server's end, whose peer is the client
}

func newPipeConn(h windows.Handle, name string, server bool) *pipeConn {
	return &pipeConn{File: os.NewFile(uintptr(h), name), h: h, server: server}
}

func (c *pipeConn) LocalAddr() net.Addr  { return pipeAddr(c.Name()) }
func (c *pipeConn) RemoteAddr() net.Addr { return pipeAddr(c.Name()) }

// checkPeer refuses c unless the process at its other end runs as this
// process's user. uid is not used: on Windows users are SIDs.
func checkPeer(c net.Conn, _ int) error {
	pc, ok := c.(*pipeConn)
	if !ok {
		return &Error{CodePeerRefused, fmt.Sprintf("%T is not a named pipe: connections are refused", c)}
	}
	var pid uint32
	var err error
	if pc.server {
		err = windows.GetNamedPipeClientProcessId(pc.h, &pid)
	} else {
		err = windows.GetNamedPipeServerProcessId(pc.h, &pid)
	}
	peer := ""
	if err == nil {
		peer, err = processSID(pid)
	}
	me, merr := currentSID()
	if err = errors.Join(err, merr); err != nil {
		return &Error{CodePeerRefused, fmt.Sprintf("the user at the other end of the pipe cannot be read (%v): the connection is refused", err)}
	}
	return allowSID(peer, me, int(pid))
}

// allowSID decides whether a peer running as the user peer, in process
// pid, may use the endpoint of the user me: only the same user may.
func allowSID(peer, me string, pid int) error {
	if peer == me {
		return nil
	}
	return &Error{CodePeerRefused, fmt.Sprintf("refused a connection with user %s (pid %d): hashline-ls connects only processes of one user (%s); run the editor and hashline-ls mcp as the same user", peer, pid, me)}
}

// processSID is the SID of the user process pid runs as.
func processSID(pid uint32) (string, error) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return "", fmt.Errorf("open process %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	var tok windows.Token
	if err := windows.OpenProcessToken(h, windows.TOKEN_QUERY, &tok); err != nil {
		return "", fmt.Errorf("open the token of process %d: %w", pid, err)
	}
	defer tok.Close()
	u, err := tok.GetTokenUser()
	if err != nil {
		return "", err
	}
	return u.User.Sid.String(), nil
}

package endpoint

import (
	"fmt"
	"net"
	"os"
	"sync"
)

// Cred is who the other end of a connection is, as the kernel tells it.
type Cred struct {
	UID uint32
	PID int // 0 where the system does not say
}

// Allow decides whether a peer with these credentials may use the endpoint
// of uid: only the same user may.
func Allow(peer Cred, uid int) error {
	if int64(peer.UID) == int64(uid) {
		return nil
	}
	who := fmt.Sprintf("uid %d", peer.UID)
	if peer.PID != 0 {
		who += fmt.Sprintf(" (pid %d)", peer.PID)
	}
	return &Error{CodePeerRefused, fmt.Sprintf("refused a connection with %s: hashline-ls connects only processes of one user (uid %d); run the editor and hashline-ls mcp as the same user", who, uid)}
}

// Listener accepts connections on a published socket (on Windows, a named
// pipe), only from the user who published it. Close withdraws the entry.
type Listener struct {
	l   net.Listener
	reg *Registry

	// Refused, when set before the first Accept, is told of each
	// connection the peer check closed.
	Refused func(error)

	mu   sync.Mutex // guards info, which SetFolders replaces
	info Info
}

// Accept waits for the next connection from the same user; connections
// from anyone else are closed without a byte read or written.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.l.Accept()
		if err != nil {
			return nil, err
		}
		if err := checkPeer(c, l.reg.uid); err != nil {
			c.Close()
			if l.Refused != nil {
				l.Refused(err)
			}
			continue
		}
		return c, nil
	}
}

// Addr is the socket's address.
func (l *Listener) Addr() net.Addr { return l.l.Addr() }

// Info is what the entry says now.
func (l *Listener) Info() Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.info
}

// SetFolders republishes the entry with new workspace folders, as a
// workspace change needs.
func (l *Listener) SetFolders(folders []string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	info := l.info
	info.Folders = append([]string(nil), folders...)
	if err := l.reg.writeInfo(info); err != nil {
		return err
	}
	l.info = info
	return nil
}

// Close stops listening and removes the entry: the info file first, so no
// reader is sent to a socket that is going away.
func (l *Listener) Close() error {
	if l.reg.dir != "" {
		os.Remove(l.reg.infoPath(l.Info().PID))
	}
	return l.l.Close()
}

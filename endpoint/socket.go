//go:build !windows

package endpoint

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
)

// UserFolder is the current user's folder, where Open looks:
// hashline-<uid> in $TMPDIR, else in /tmp.
func UserFolder() (string, error) { return FolderPath(os.Getenv("TMPDIR"), os.Getuid()), nil }

func (r *Registry) socketPath(pid int) string {
	return filepath.Join(r.dir, strconv.Itoa(pid)+".sock")
}

func (r *Registry) removeSocket(pid int) { os.Remove(r.socketPath(pid)) }

// maxSocketPath is the room sockaddr_un leaves for a path on Linux (108
// bytes, NUL included); macOS leaves 104, which the check below also keeps.
const maxSocketPath = 103

// listen listens on a Unix socket at sock that only its owner may connect
// to.
func (r *Registry) listen(sock string) (net.Listener, error) {
	if len(sock) > maxSocketPath {
		return nil, fmt.Errorf("the endpoint socket path %s is %d bytes, over the %d a Unix socket allows: set TMPDIR to a shorter folder", sock, len(sock), maxSocketPath)
	}
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", sock, err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ul.Close()
		return nil, fmt.Errorf("restrict %s: %w", sock, err)
	}
	return ul, nil
}

func dial(ctx context.Context, sock string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", sock)
}

// checkPeer reads c's peer credentials and applies Allow.
func checkPeer(c net.Conn, uid int) error {
	cred, err := peerCred(c)
	if err != nil {
		return &Error{CodePeerRefused, fmt.Sprintf("the credentials of the peer cannot be read (%v): connections are refused on this system", err)}
	}
	return Allow(cred, uid)
}

func samePath(a, b string) bool { return a == b }

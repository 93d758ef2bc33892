package endpoint

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Info is what a published server says about itself, in PID.json.
type Info struct {
	PID     int       `json:"pid"`
	Folders []string  `json:"folders"` // canonical absolute workspace folders
	Version string    `json:"version"`
	Started time.Time `json:"started"`
}

// Registry is one user's folder of endpoints.
type Registry struct {
	dir string
	uid int
}

// Open returns the current user's registry: hashline-<uid> in $TMPDIR, else
// in /tmp (on Windows, %LOCALAPPDATA%\hashline-ls\endpoints), created
// when missing and refused unless it is safe.
func Open() (*Registry, error) {
	dir, err := UserFolder()
	if err != nil {
		return nil, err
	}
	return OpenDir(dir, os.Getuid())
}

// OpenDir returns the registry in dir for uid, under the rules of Open.
func OpenDir(dir string, uid int) (*Registry, error) {
	if err := ensureFolder(dir, uid); err != nil {
		return nil, err
	}
	return &Registry{dir: dir, uid: uid}, nil
}

// Dir is the registry's folder.
func (r *Registry) Dir() string { return r.dir }

func (r *Registry) infoPath(pid int) string {
	return filepath.Join(r.dir, strconv.Itoa(pid)+".json")
}

// remove drops pid's entry.
func (r *Registry) remove(pid int) {
	os.Remove(r.infoPath(pid))
	r.removeSocket(pid)
}

// Publish listens on this process's socket and then writes its info file,
// so a reader that finds the info finds a listening socket. A process
// publishes once per registry: a leftover entry of its pid is a dead
// process's and is replaced.
func (r *Registry) Publish(folders []string, version string) (*Listener, error) {
	info := Info{PID: os.Getpid(), Folders: slices.Clone(folders), Version: version, Started: time.Now().UTC()}
	r.remove(info.PID)
	nl, err := r.listen(r.socketPath(info.PID))
	if err != nil {
		return nil, err
	}
	l := &Listener{l: nl, reg: r, info: info}
	if err := r.writeInfo(info); err != nil {
		nl.Close()
		return nil, err
	}
	return l, nil
}

// writeInfo replaces pid's info file by rename, so readers never see part
// of one.
func (r *Registry) writeInfo(info Info) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(r.dir, ".info-*")
	if err != nil {
		return fmt.Errorf("write the endpoint info: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), r.infoPath(info.PID))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write the endpoint info: %w", err)
	}
	return nil
}

// List returns the published servers, most recently started first. Entries
// of processes that are gone are removed on the way.
func (r *Registry) List() ([]Info, error) {
	ents, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, err
	}
	pids := map[int]bool{}
	for _, e := range ents {
		stem, ext, ok := strings.Cut(e.Name(), ".")
		if !ok || (ext != "json" && ext != "sock") {
			continue
		}
		if pid, err := strconv.Atoi(stem); err == nil && pid > 0 {
			pids[pid] = true
		}
	}
	var out []Info
	for pid := range pids {
		if !alive(pid) {
			r.remove(pid)
			continue
		}
		info, err := r.readInfo(pid)
		if err != nil {
			// Not published yet (the socket comes first), or not ours to
			// judge: leave it to its process.
			continue
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b Info) int {
		return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.PID, a.PID))
	})
	return out, nil
}

func (r *Registry) readInfo(pid int) (Info, error) {
	var info Info
	b, err := os.ReadFile(r.infoPath(pid))
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, err
	}
	if info.PID != pid {
		return info, fmt.Errorf("%s names pid %d", r.infoPath(pid), info.PID)
	}
	return info, nil
}

// Dial connects to the server info names and checks that it runs as this
// user. An entry whose socket no longer listens is removed and reported as
// CodeStale.
func (r *Registry) Dial(ctx context.Context, info Info) (net.Conn, error) {
	c, err := dial(ctx, r.socketPath(info.PID))
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist) {
			r.remove(info.PID)
			return nil, &Error{CodeStale, fmt.Sprintf("the editor with pid %d no longer listens; its entry is removed: work on the disk, or start the editor again", info.PID)}
		}
		return nil, fmt.Errorf("connect to the editor with pid %d: %w", info.PID, err)
	}
	if err := checkPeer(c, r.uid); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Choice is the server that serves a set of roots.
type Choice struct {
	Serving Info
	Folder  string // Serving's workspace folder that holds the first root
	Others  []Info // the other servers that hold the roots, most recent first
}

// Choose picks, from servers in any order, the one that serves
// roots (canonical absolute folders, at least one): every root must lie in
// one of its folders; the deepest folder holding the first root wins, then
// the most recent start. pid, when not 0, asks for that server instead.
func Choose(servers []Info, roots []string, pid int) (Choice, error) {
	type candidate struct {
		info   Info
		folder string
	}
	var eligible []candidate
	for _, s := range servers {
		if f, ok := holds(s, roots); ok {
			eligible = append(eligible, candidate{s, f})
		}
	}
	slices.SortStableFunc(eligible, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(len(b.folder), len(a.folder)), b.info.Started.Compare(a.info.Started))
	})
	pick := -1
	if pid != 0 {
		for i, c := range eligible {
			if c.info.PID == pid {
				pick = i
			}
		}
		if pick < 0 {
			for _, s := range servers {
				if s.PID == pid {
					return Choice{}, &Error{CodeNoEditor, fmt.Sprintf("the editor with pid %d does not hold %s (its folders: %s): open that folder in it, or drop --editor", pid, strings.Join(roots, ", "), strings.Join(s.Folders, ", "))}
				}
			}
			return Choice{}, &Error{CodeNoEditor, fmt.Sprintf("no editor with pid %d runs hashline-ls: hashline-ls mcp --status lists the editors that do", pid)}
		}
	} else if len(eligible) > 0 {
		pick = 0
	}
	if pick < 0 {
		return Choice{}, &Error{CodeNoEditor, fmt.Sprintf("no editor running hashline-ls holds %s in a workspace folder: open it in one, or work on the disk", strings.Join(roots, ", "))}
	}
	ch := Choice{Serving: eligible[pick].info, Folder: eligible[pick].folder}
	for i, c := range eligible {
		if i != pick {
			ch.Others = append(ch.Others, c.info)
		}
	}
	slices.SortStableFunc(ch.Others, func(a, b Info) int { return b.Started.Compare(a.Started) })
	return ch, nil
}

// holds reports whether every root lies in one of s's folders, and the
// deepest folder that holds the first.
func holds(s Info, roots []string) (string, bool) {
	if len(roots) == 0 {
		return "", false
	}
	first := ""
	for i, root := range roots {
		best := ""
		for _, f := range s.Folders {
			if within(root, f) && len(f) > len(best) {
				best = f
			}
		}
		if best == "" {
			return "", false
		}
		if i == 0 {
			first = best
		}
	}
	return first, true
}

// within reports whether path is folder or lies below it; on Windows, in
// any case, as the file system matches names.
func within(path, folder string) bool {
	if samePath(path, folder) {
		return true
	}
	if !strings.HasSuffix(folder, string(filepath.Separator)) {
		folder += string(filepath.Separator)
	}
	return len(path) >= len(folder) && samePath(path[:len(folder)], folder)
}

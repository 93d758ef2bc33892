// Package workspace turns the names a caller uses for a file — a path
// relative to a workspace folder, an absolute path, or a file:// URI — into
// one canonical file inside the configured workspace roots. Anything that
// would land outside those roots, directly, through "..", or through a
// symbolic link, is refused with an error that says what to do instead.
//
// Resolution only inspects the file system (Lstat and symlink targets); it
// never creates, opens, reads or writes a file. A name checked here may
// change before it is used, so every use opens the file beneath its root
// again (package confined).
//
// docs/contract.md §4 states the rules of paths.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"
)

// maxPathLen mirrors the common PATH_MAX so that absurd inputs are rejected
// before the file system is consulted at all.
const maxPathLen = 4096

// maxSymlinkHops bounds link following so a cycle cannot spin forever; 255
// matches the limit Go's own filepath.EvalSymlinks uses.
const maxSymlinkHops = 255

// Kind classifies why a path was refused.
type Kind int

const (
	// Invalid means the input cannot name a file at all (empty, NUL byte,
	// too long, unsupported URI, a root folder itself, a symlink loop...).
	Invalid Kind = iota + 1
	// Outside means the input names a location outside every root.
	Outside
)

// Error is the only error type Resolve, New and Set return.
type Error struct {
	Kind Kind
	Path string // the input exactly as the caller gave it
	Msg  string // a full sentence that ends with a concrete next step
}

func (e *Error) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	switch e.Kind {
	case Outside:
		return fmt.Sprintf("path %q is outside the workspace roots: name a file inside one of them", e.Path)
	default:
		return fmt.Sprintf("path %q is invalid: give a workspace-relative path such as \"src/main.go\"", e.Path)
	}
}

// Roots is an ordered set of folders that paths may resolve into. It is safe
// for concurrent use; the zero value has no roots.
type Roots struct {
	mu sync.RWMutex
	// dirs is replaced wholesale by Set and never modified in place, so a
	// reader may keep using the slice it grabbed after releasing the lock.
	dirs []string
}

// New returns Roots for the given folders, workspace folders first, then
// extra roots. Each folder is made absolute and symlink-resolved; a folder
// that does not exist or is not a directory is an error naming it.
// Duplicates (after resolution) are kept once, at their first position.
func New(folders ...string) (*Roots, error) {
	dirs, err := canonFolders(folders)
	if err != nil {
		return nil, err
	}
	return &Roots{dirs: dirs}, nil
}

// Set replaces the folders under the same rules as New. On error the
// previous folders stay in effect, so a bad configuration change cannot
// leave the server without its workspace.
func (r *Roots) Set(folders ...string) error {
	dirs, err := canonFolders(folders)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.dirs = dirs
	r.mu.Unlock()
	return nil
}

// List returns the canonical folders in order.
func (r *Roots) List() []string {
	dirs := r.snapshot()
	out := make([]string, len(dirs))
	copy(out, dirs)
	return out
}

func (r *Roots) snapshot() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.dirs
}

func canonFolders(folders []string) ([]string, error) {
	dirs := make([]string, 0, len(folders))
	seen := make(map[string]bool, len(folders))
	for _, f := range folders {
		d, err := canonFolder(f)
		if err != nil {
			return nil, err
		}
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

func canonFolder(f string) (string, error) {
	if f == "" {
		// filepath.Abs("") would silently mean the process's working
		// directory, which is rarely what a configuration intended.
		return "", &Error{Kind: Invalid, Path: f,
			Msg: "workspace folder is empty: give the absolute path of an existing folder"}
	}
	abs, err := filepath.Abs(f)
	if err != nil {
		return "", &Error{Kind: Invalid, Path: f,
			Msg: fmt.Sprintf("workspace folder %q cannot be made absolute (%v): give its absolute path", f, err)}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", &Error{Kind: Invalid, Path: f,
				Msg: fmt.Sprintf("workspace folder %q does not exist: create it, or remove it from the workspace folders and hashline.extraRoots", f)}
		}
		return "", &Error{Kind: Invalid, Path: f,
			Msg: fmt.Sprintf("workspace folder %q cannot be resolved (%v): check that it and its parents are readable", f, err)}
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", &Error{Kind: Invalid, Path: f,
			Msg: fmt.Sprintf("workspace folder %q cannot be inspected (%v): check its permissions", f, err)}
	}
	if !fi.IsDir() {
		return "", &Error{Kind: Invalid, Path: f,
			Msg: fmt.Sprintf("workspace folder %q is not a directory: name the folder that contains it instead", f)}
	}
	return real, nil
}

// Path is a resolved location.
type Path struct {
	Abs    string // canonical absolute path: every existing component symlink-resolved
	Root   string // the canonical root that contains Abs
	Rel    string // Abs relative to Root, slash-separated; never "." because a root itself is refused
	Exists bool   // whether Abs existed when it was resolved
}

// Resolve maps p to a Path inside one of the roots.
//
// A relative p is tried under each root in order and the first root under
// which it exists wins; if it exists under none, the first root is used, so
// new files land in the primary workspace folder. If the first existing
// match is refused (for instance a symlink leading outside), that refusal
// is returned rather than falling through to a later root: silently picking
// a different file than the one the caller can see under that name would
// make edits land somewhere unexpected.
func (r *Roots) Resolve(p string) (Path, error) {
	if err := checkInput(p, p); err != nil {
		return Path{}, err
	}
	roots := r.snapshot()

	name := p
	if isURI(p) {
		var err error
		if name, err = fromURI(p); err != nil {
			return Path{}, err
		}
		if err := checkInput(p, name); err != nil {
			return Path{}, err
		}
	}
	name = onRootDrive(filepath.FromSlash(name), roots)

	if filepath.IsAbs(name) {
		abs, exists, err := walk(p, name)
		if err != nil {
			return Path{}, err
		}
		return place(p, name, abs, exists, "", roots)
	}

	if len(roots) == 0 {
		return Path{}, &Error{Kind: Outside, Path: p,
			Msg: fmt.Sprintf("path %q is relative but no workspace roots are configured: open a workspace folder or add one to hashline.extraRoots", p)}
	}

	type attempt struct {
		joined, abs string
		exists      bool
		err         error
	}
	var first attempt
	for i, root := range roots {
		// Joined by hand rather than with filepath.Join, which would clean
		// ".." lexically before symlinks get a chance to be followed.
		joined := root + string(filepath.Separator) + name
		abs, exists, err := walk(p, joined)
		a := attempt{joined, abs, exists, err}
		if i == 0 {
			first = a
		}
		if err == nil && exists {
			return place(p, joined, abs, true, root, roots)
		}
	}
	if first.err != nil {
		return Path{}, first.err
	}
	return place(p, first.joined, first.abs, first.exists, roots[0], roots)
}

func checkInput(orig, p string) error {
	switch {
	case p == "":
		if orig != p {
			return &Error{Kind: Invalid, Path: orig,
				Msg: fmt.Sprintf("URI %q names no file: give a file URI such as \"file:///home/me/project/src/main.go\"", orig)}
		}
		return &Error{Kind: Invalid, Path: orig,
			Msg: `path is empty: give a workspace-relative path such as "src/main.go"`}
	case len(p) > maxPathLen:
		// First, and without echoing the input, which may be arbitrarily
		// large: every later message may quote it.
		return &Error{Kind: Invalid, Path: orig,
			Msg: fmt.Sprintf("path is %d bytes long, over the %d-byte limit: give a shorter workspace-relative path", len(p), maxPathLen)}
	case strings.IndexByte(p, 0) >= 0:
		return &Error{Kind: Invalid, Path: orig,
			Msg: fmt.Sprintf("path %q contains a NUL byte: remove it and give a plain file path", orig)}
	}
	return nil
}

// isURI decides whether p is meant as a URI. A bare "name:rest" is a legal
// relative file name on POSIX systems, so only "scheme://..." or a "file:"
// prefix counts; single-letter schemes are left alone because "C:" is a
// Windows drive, not a URI.
func isURI(p string) bool {
	i := strings.IndexByte(p, ':')
	if i < 2 {
		return false
	}
	for j := 0; j < i; j++ {
		c := p[j]
		isAlpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !isAlpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return strings.HasPrefix(p[i+1:], "//") || strings.EqualFold(p[:i], "file")
}

func fromURI(p string) (string, error) {
	u, err := url.Parse(p)
	if err != nil {
		return "", &Error{Kind: Invalid, Path: p,
			Msg: fmt.Sprintf("URI %q cannot be parsed (%v): percent-encode special characters, e.g. a space as %%20", p, err)}
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return "", &Error{Kind: Invalid, Path: p,
			Msg: fmt.Sprintf("URI %q uses the %q scheme: only file:// URIs or plain paths name workspace files", p, u.Scheme)}
	}
	if u.Opaque != "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", &Error{Kind: Invalid, Path: p,
			Msg: fmt.Sprintf("URI %q is not a plain absolute file URI: use the form file:///abs/path and percent-encode '?' and '#' as %%3F and %%23", p)}
	}
	if name, ok := uncPath(u); ok {
		return name, nil
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", &Error{Kind: Invalid, Path: p,
			Msg: fmt.Sprintf("URI %q names host %q: only local files can be resolved, use file:///abs/path", p, u.Host)}
	}
	name := u.Path
	// file:///C:/x carries a leading slash before the drive letter that is
	// not part of the Windows path.
	if runtime.GOOS == "windows" && len(name) >= 3 && name[0] == '/' && name[2] == ':' {
		name = name[1:]
	}
	return name, nil
}

// walk resolves the absolute path p component by component, the way the
// kernel would: each existing component is looked up and, if it is a
// symlink, replaced by its target before the next component (including
// "..") is applied. filepath.EvalSymlinks alone is not enough because it
// gives up on a dangling symlink, and treating such a link as a plain
// missing name would let a later write follow it outside the roots.
//
// Once a component is missing, the rest is appended lexically; a ".." in
// that remainder is refused because its meaning would depend on what gets
// created later.
func walk(orig, p string) (abs string, exists bool, err error) {
	vol := filepath.VolumeName(p)
	sep := string(filepath.Separator)
	cur := canonVolume(vol) + sep
	comps := split(p[len(vol):])
	hops := 0
	for len(comps) > 0 {
		c := comps[0]
		if err := checkName(orig, c); err != nil {
			return "", false, err
		}
		if c == ".." {
			// cur is fully resolved, so its lexical parent is its real parent.
			cur = filepath.Dir(cur)
			comps = comps[1:]
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return missingTail(orig, cur, comps)
			}
			return "", false, &Error{Kind: Invalid, Path: orig,
				Msg: fmt.Sprintf("path %q cannot be resolved: inspecting %s failed (%v): check the permissions of that folder", orig, next, err)}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			hops++
			if hops > maxSymlinkHops {
				return "", false, &Error{Kind: Invalid, Path: orig,
					Msg: fmt.Sprintf("path %q goes through too many symlinks (a loop near %s): remove the loop or name the file by its real path", orig, next)}
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", false, &Error{Kind: Invalid, Path: orig,
					Msg: fmt.Sprintf("path %q cannot be resolved: reading symlink %s failed (%v): name the file by its real path", orig, next, err)}
			}
			rest := comps[1:]
			if filepath.IsAbs(target) {
				tv := filepath.VolumeName(target)
				cur = canonVolume(tv) + sep
				comps = append(split(target[len(tv):]), rest...)
			} else {
				comps = append(split(target), rest...)
			}
			continue
		}
		cur = filepath.Join(cur, onDisk(next, c))
		comps = comps[1:]
		if !fi.IsDir() && len(comps) > 0 {
			// Nothing exists below a regular file; treat the remainder as
			// missing so "file/.." is refused instead of quietly meaning
			// the file's folder.
			return missingTail(orig, cur, comps)
		}
	}
	return cur, true, nil
}

func missingTail(orig, cur string, tail []string) (string, bool, error) {
	for _, c := range tail {
		if c == ".." {
			return "", false, &Error{Kind: Outside, Path: orig,
				Msg: fmt.Sprintf("path %q uses \"..\" after %s, which does not exist, so where it leads cannot be checked: name the path without \"..\"", orig, filepath.Join(cur, tail[0]))}
		}
	}
	return filepath.Join(append([]string{cur}, tail...)...), false, nil
}

// split breaks a volume-less path into components, dropping empty and "."
// parts but keeping "..", which walk must apply after symlinks.
func split(p string) []string {
	parts := strings.FieldsFunc(p, func(r rune) bool {
		return r < utf8.RuneSelf && os.IsPathSeparator(uint8(r))
	})
	out := parts[:0]
	for _, s := range parts {
		if s != "." {
			out = append(out, s)
		}
	}
	return out
}

// place checks that abs lies strictly inside a root and builds the Path.
// preferred is the root a relative input was joined to; when it contains abs
// it is reported, so Rel round-trips to what the caller typed even when
// roots are nested.
func place(orig, joined, abs string, exists bool, preferred string, roots []string) (Path, error) {
	for _, root := range roots {
		if samePath(abs, root) {
			return Path{}, &Error{Kind: Invalid, Path: orig,
				Msg: fmt.Sprintf("path %q is the workspace folder %s itself, not a file: name a file inside it, such as \"src/main.go\"", orig, root)}
		}
	}
	root := ""
	if preferred != "" && inside(abs, preferred) {
		root = preferred
	} else {
		for _, d := range roots {
			if inside(abs, d) {
				root = d
				break
			}
		}
	}
	if root == "" {
		return Path{}, outsideErr(orig, joined, abs, roots)
	}
	return Path{
		Abs:    abs,
		Root:   root,
		Rel:    filepath.ToSlash(abs[len(withSep(root)):]),
		Exists: exists,
	}, nil
}

// Within finds the root that holds abs, a canonical path Resolve returned,
// and abs relative to it, so the file can be opened beneath that root. It
// reports false when no root holds abs any more: the roots changed since.
func (r *Roots) Within(abs string) (root, rel string, ok bool) {
	for _, d := range r.snapshot() {
		if inside(abs, d) {
			return d, abs[len(withSep(d)):], true
		}
	}
	return "", "", false
}

func outsideErr(orig, joined, abs string, roots []string) error {
	list := "none are configured"
	if len(roots) > 0 {
		list = strings.Join(roots, ", ")
	}
	how := "resolves to"
	// If the path looks inside before links are followed, a symlink is what
	// carries it out; saying so points the caller at the real cause.
	lexical := filepath.Clean(joined)
	for _, d := range roots {
		if inside(lexical, d) {
			how = "leads through a symlink to"
			break
		}
	}
	return &Error{Kind: Outside, Path: orig,
		Msg: fmt.Sprintf("path %q %s %s, outside the workspace roots (%s): name a file inside one of them, or add its folder to hashline.extraRoots", orig, how, abs, list)}
}

func withSep(root string) string {
	if strings.HasSuffix(root, string(filepath.Separator)) {
		return root
	}
	return root + string(filepath.Separator)
}

func inside(abs, root string) bool {
	prefix := withSep(root)
	return len(abs) > len(prefix) && samePath(abs[:len(prefix)], prefix)
}

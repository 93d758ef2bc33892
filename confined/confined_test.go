//go:build linux

package confined

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"hashline-ls/internal/testenv"
)

// openers runs f with each way of opening beneath a root this machine has:
// openat2, and the walk kernels without it use.
func openers(t *testing.T, f func(t *testing.T)) {
	for _, walk := range []bool{false, true} {
		name := "openat2"
		if walk {
			name = "walk"
		} else if !openat2Works() {
			t.Logf("openat2 is missing here: only the walk runs")
			continue
		}
		t.Run(name, func(t *testing.T) {
			forceWalk = walk
			t.Cleanup(func() { forceWalk = false })
			f(t)
		})
	}
}

// tree is a root with a file, a folder, a FIFO and links that stay inside
// or lead out, and a folder outside it.
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	root, outside = rootBesideOutside(t, "sub/data.txt")
	if err := unix.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"in.txt":  "sub/data.txt",
		"up.txt":  "../outside/data.txt",
		"abs.txt": filepath.Join(outside, "data.txt"),
		"outdir":  outside,
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func TestReadFile(t *testing.T) {
	openers(t, func(t *testing.T) {
		root, _ := tree(t)
		checkReads(t, root, []readCase{
			{rel: "sub/data.txt", want: "inside\n"},
			{rel: "in.txt", want: "inside\n"}, // a link that stays inside
			{rel: "up.txt", err: ErrOutside},
			{rel: "abs.txt", err: ErrOutside},
			{rel: "outdir/data.txt", err: ErrOutside},
			{rel: "sub/../../outside/data.txt", err: ErrOutside},
			{rel: "fifo", err: ErrNotRegular}, // and it does not block
			{rel: "sub", err: ErrNotRegular},
			{rel: "big.txt", err: ErrTooLarge},
			{rel: "missing.txt", err: fs.ErrNotExist},
		})
	})
}

// A folder swapped for a link to outside while reads run: no read returns
// the outside file (docs/design.md §7.1), and each answers as the path
// stood at one instant: the file inside, or a path leading outside. Before
// the fix, a check by name and an open by name returned it within about
// 100 reads; before the walk looked again, it answered "not a folder" now
// and then, which an edit reported as the tool's failure.
func TestReadFileFolderSwappedForLink(t *testing.T) {
	openers(t, func(t *testing.T) {
		root, outside := tree(t)
		if err := os.Symlink(outside, filepath.Join(root, "sublink")); err != nil {
			t.Fatal(err)
		}
		stop := testenv.Swap(t, filepath.Join(root, "sub"), filepath.Join(root, "sublink"))
		inside, refused := 0, 0
		// At least 2000 reads, and on until both outcomes were seen: on a
		// loaded machine the swaps may pause for a while.
		for i := 0; i < 2000 || (inside == 0 || refused == 0) && i < 50000; i++ {
			b, _, err := ReadFile(root, "sub/data.txt", 1<<20)
			switch {
			case err == nil && string(b) == "inside\n":
				inside++
			case err == nil:
				stop()
				t.Fatalf("read %d returned %q from outside the root", i, b)
			case errors.Is(err, ErrOutside):
				refused++
			default:
				stop()
				t.Fatalf("read %d: %v", i, err)
			}
		}
		n := stop()
		t.Logf("%d swaps: %d reads inside, %d refused", n, inside, refused)
		if inside == 0 || refused == 0 {
			t.Fatalf("the swap never raced a read (%d inside, %d refused): the test proves nothing", inside, refused)
		}
	})
}

// A FIFO swapped in for a file while reads run: every read answers.
func TestReadFileSwappedForFIFO(t *testing.T) {
	openers(t, func(t *testing.T) {
		root, _ := tree(t)
		testenv.Swap(t, filepath.Join(root, "big.txt"), filepath.Join(root, "fifo"))
		files, fifos := 0, 0
		for i := 0; i < 2000 || (files == 0 || fifos == 0) && i < 50000; i++ {
			_, _, err := ReadFile(root, "big.txt", 1<<20)
			switch {
			case err == nil:
				files++
			case errors.Is(err, ErrNotRegular):
				fifos++
			default:
				t.Fatalf("read %d: %v", i, err)
			}
		}
		if files == 0 || fifos == 0 {
			t.Fatalf("the swap never raced a read (%d files, %d FIFOs)", files, fifos)
		}
	})
}

// Stage gives the new file the mode and owner asked for; Link refuses a
// name that exists; MakeDir creates the missing folders.
func TestDir(t *testing.T) {
	openers(t, func(t *testing.T) {
		root, _ := tree(t)
		like := &Info{UID: uint32(os.Getuid()), GID: uint32(os.Getgid())}
		if os.Geteuid() == 0 {
			like.UID, like.GID = 1234, 5678
		}
		d, _ := stagedInNewDir(t, root, "new/deeper", 0o640, like)
		got, info, err := d.Read("f.txt", 100)
		if err != nil || string(got) != "staged\n" || info.Mode.Perm() != 0o640 || info.UID != like.UID || info.GID != like.GID {
			t.Fatalf("Read = %q %+v %v", got, info, err)
		}
		if _, err := d.Open("../big.txt", os.O_RDONLY); !errors.Is(err, fs.ErrInvalid) {
			t.Fatalf("Open(../big.txt) = %v, want fs.ErrInvalid", err)
		}
	})
}

// Lock excludes every other holder, in this process or another, until it
// is released, and a cancelled wait gives up.
func TestLock(t *testing.T) {
	root, _ := tree(t)
	a := openedDir(t, root, "sub")
	b := openedDir(t, root, "sub")
	unlock, err := Lock(context.Background(), a, a)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, b); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock while held = %v, want the wait to end with ctx", err)
	}
	unlock()
	unlockB, err := Lock(context.Background(), b)
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	unlockB()
}

package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"hashline-ls/endpoint"
	"hashline-ls/workspace"
)

// Route is what serves an MCP process's roots: a running editor's server,
// or the disk.
type Route struct {
	Roots  []string
	Folder string           // the endpoint folder looked in; "" when none was
	Editor *endpoint.Choice // nil: the disk
	Disk   string           // why the disk, when it is

	reg    *endpoint.Registry // the registry Editor is in
	pinned bool               // the editor was asked for by its pid, or the disk by --no-editor: the route is never looked up again
}

// DiskRoute is the route of --no-editor: the disk, whatever editors run.
func DiskRoute(roots []string) Route {
	return Route{Roots: roots, Disk: "--no-editor", pinned: true}
}

// FindRoute looks up which editor serves roots (canonical folders), or
// the disk when none does. editor, when not 0, asks for that editor's
// server; the error is kept for an editor asked for that cannot serve.
func FindRoute(roots []string, editor int) (Route, error) {
	r := Route{Roots: roots, pinned: editor != 0}
	reg, err := endpoint.Open()
	if err != nil {
		if editor != 0 {
			return r, err
		}
		r.Disk = err.Error()
		return r, nil
	}
	r.Folder = reg.Dir()
	list, err := reg.List()
	if err != nil {
		return r, fmt.Errorf("list the editors in %s: %w", reg.Dir(), err)
	}
	ch, err := endpoint.Choose(list, roots, editor)
	var e *endpoint.Error
	if errors.As(err, &e) && e.Code == endpoint.CodeNoEditor && editor == 0 {
		r.Disk = e.Msg
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.Editor, r.reg = &ch, reg
	return r, nil
}

// Backend is what serves the route's connections: the editor, with the
// disk behind it for when it goes away, or the disk; unless the route was
// pinned, an editor that starts later is found between calls (Router).
func (r Route) Backend(roots *workspace.Roots, log *zap.Logger) Backend {
	if log == nil {
		log = zap.NewNop()
	}
	disk := NewDisk(roots, log)
	switch {
	case !r.pinned:
		return &Router{first: r, roots: roots, disk: disk, log: log}
	case r.Editor == nil:
		return disk
	}
	return NewBridge(r.reg, *r.Editor, roots, disk, log)
}

// Status is the route as --status prints it: String, and for an editor
// whether its endpoint answers and saves what bridged edits leave.
func (r Route) Status(ctx context.Context, roots *workspace.Roots) string {
	out := r.String()
	if r.Editor == nil {
		return out
	}
	sock := r.reg.Socket(r.Editor.Serving.PID)
	ec, w, err := NewBridge(r.reg, *r.Editor, roots, nil, nil).connect(ctx)
	if err != nil {
		return out + fmt.Sprintf("endpoint: %s does not answer (%v): calls would work on the disk\n", sock, err)
	}
	ec.close()
	saves := "yes: the editor saves a bridged edit of a buffer without unsaved changes"
	if !w.Save {
		saves = "no: the editor does not offer hashline/saveDocument, so bridged edits stay unsaved in its buffers"
	}
	return out + fmt.Sprintf("endpoint: %s (hashline-ls %s, bridge protocol %d)\nsaves: %s\n", sock, w.Version, w.Protocol, saves)
}

// String is the route as --status prints it.
func (r Route) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "roots: %s\n", strings.Join(r.Roots, ", "))
	if r.Folder != "" {
		fmt.Fprintf(&b, "editors: %s\n", r.Folder)
	}
	if r.Editor == nil {
		fmt.Fprintf(&b, "serving: disk (%s)\n", r.Disk)
		return b.String()
	}
	fmt.Fprintf(&b, "serving: %s, workspace folder %s\n", editorLine(r.Editor.Serving), r.Editor.Folder)
	for _, o := range r.Editor.Others {
		fmt.Fprintf(&b, "also holding it: %s; pick it with --editor %d\n", editorLine(o), o.PID)
	}
	return b.String()
}

func editorLine(i endpoint.Info) string {
	return fmt.Sprintf("editor pid %d (hashline-ls %s, started %s)", i.PID, i.Version, i.Started.Local().Format(time.DateTime))
}

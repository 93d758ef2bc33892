package mcp

import (
	"encoding/json"
	"errors"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// confine refuses a call that names a path outside the MCP process's roots
// before it reaches the editor, whose workspace folders may be wider: the
// path argument, an edit's MV destination, a patch's section headers. It
// returns nil for a call it lets through; arguments it cannot read are the
// command's to refuse.
func (b *Bridge) confine(command string, args json.RawMessage) json.RawMessage {
	var a struct {
		Path  string `json:"path"`
		Ops   string `json:"ops"`
		Patch string `json:"patch"`
	}
	if json.Unmarshal(args, &a) != nil {
		return nil
	}
	type named struct{ field, path string }
	var paths []named
	if a.Path != "" {
		paths = append(paths, named{"path", a.Path})
	}
	switch command {
	case commands.CmdEdit:
		if p, err := hashline.Parse(a.Ops); err == nil {
			for _, op := range p.Ops {
				if op.Kind == hashline.OpMove {
					paths = append(paths, named{"ops", op.Dest})
				}
			}
		}
	case commands.CmdPatch:
		secs, _ := hashline.ParsePatch(a.Patch)
		for _, sec := range secs {
			if sec.Path != "" {
				paths = append(paths, named{"patch", sec.Path})
			}
		}
	}
	for _, n := range paths {
		_, err := b.roots.Resolve(n.path)
		var we *workspace.Error
		if errors.As(err, &we) && we.Kind == workspace.Outside {
			return refuse(hashline.CodePathOutsideWorkspace, n.field, we.Error())
		}
	}
	return nil
}

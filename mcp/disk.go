package mcp

import (
	"context"
	"fmt"
	"sync/atomic"

	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/documents"
	"hashline-ls/workspace"
)

// Disk runs the commands on the files on disk, confined to its roots, with
// the shell verbs' atomic writes, but keeping what each session was shown.
type Disk struct {
	cmds *commands.Server
	next atomic.Int64 // numbers the sessions
}

// NewDisk returns a Disk over roots, with sessions of its own.
func NewDisk(roots *workspace.Roots, log *zap.Logger) *Disk {
	return &Disk{cmds: commands.New(roots, documents.Disk{Roots: roots}, documents.Disk{Roots: roots}, log)}
}

// Open starts a session nothing else can name.
func (d *Disk) Open(context.Context) (Session, error) {
	return &diskSession{d: d, name: fmt.Sprintf("mcp-%d", d.next.Add(1))}, nil
}

type diskSession struct {
	d    *Disk
	name string
}

func (s *diskSession) Run(ctx context.Context, c commands.Call) (Reply, error) {
	c.Session = s.name
	res, err := s.d.cmds.Run(ctx, c)
	if err != nil {
		return Reply{}, err
	}
	return replyTo(res), nil
}

func (s *diskSession) Close() error {
	s.d.cmds.Sessions.End(s.name)
	return nil
}

package commands

import (
	"context"
)

// Progress receives reports while a long command works; the protocol edge
// turns them into $/progress notifications.
type Progress interface {
	Report(message string, percentage int)
}

type progressKey struct{}

// WithProgress returns a context whose commands report their progress to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

type silentProgress struct{}

func (silentProgress) Report(string, int) {}

// progressFrom returns the Progress ctx carries, or one that drops every
// report.
func progressFrom(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		return p
	}
	return silentProgress{}
}

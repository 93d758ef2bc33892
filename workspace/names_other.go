//go:build !windows

package workspace

import "net/url"

// The names of files as this system compares them: byte for byte.

func samePath(a, b string) bool { return a == b }

func canonVolume(vol string) string { return vol }

// onDisk is the name c of the existing entry next, as the file system
// spells it.
func onDisk(_, c string) string { return c }

// checkName refuses a path element the system would read as something
// other than a file's name; every element is a name here.
func checkName(_, _ string) error { return nil }

// uncPath is the path a file URI naming a host stands for: none here.
func uncPath(*url.URL) (string, bool) { return "", false }

// onRootDrive is name: a path rooted at / is absolute here.
func onRootDrive(name string, _ []string) string { return name }

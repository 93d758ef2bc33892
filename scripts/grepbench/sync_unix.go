//go:build unix

package main

import "syscall"

func syncDisk() { syscall.Sync() }

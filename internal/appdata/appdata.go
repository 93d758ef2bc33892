//go:build windows

// Package appdata finds hashline-ls's folder in the Windows user's local
// application data, %LOCALAPPDATA%\hashline-ls: the home of the bridge's
// endpoint registry and of the lock files that stand in for locks on
// folders, which Windows does not have.
package appdata

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// Dir is the folder sub of hashline-ls's local application data. It looks
// at LOCALAPPDATA first, then asks the shell for the known folder, since a
// program may be started with a reduced environment.
func Dir(sub string) (string, error) {
	base := os.Getenv("LOCALAPPDATA")
	if !filepath.IsAbs(base) {
		var err error
		if base, err = windows.KnownFolderPath(windows.FOLDERID_LocalAppData, windows.KF_FLAG_DEFAULT); err != nil {
			return "", fmt.Errorf("find the local application data folder (LOCALAPPDATA is not set): %w", err)
		}
	}
	return filepath.Join(base, "hashline-ls", sub), nil
}

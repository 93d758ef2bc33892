#!/usr/bin/env bash
# Exits 0 when this tree has the Windows port (confined/ for Windows), so
# that windows_amd64 builds; until then the Windows targets are skipped
# with that reason.
cd "$(dirname "$0")/../.."
compgen -G 'confined/*_windows.go' >/dev/null

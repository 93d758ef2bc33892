#!/usr/bin/env bash
# Runs a Windows program under Wine in the prefix scripts/wine/prefix.sh
# makes ready for Go programs, in the current folder, and stops the
# prefix's wineserver when it ends. Wine's output must go to files, never
# into a pipe (see prefix.sh).
#
# Usage: wine.sh PROGRAM.exe ARGS...
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/../.."
. scripts/wine/prefix.sh
cd "$here"
wine "$@"

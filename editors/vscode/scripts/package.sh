#!/usr/bin/env bash
# `make vsix`, `npm run package`: the extension's .vsix files, in dist/.
#
#   hashline-linux-x64-VERSION.vsix    carries hashline-ls in bin/linux-x64/
#   hashline-linux-arm64-VERSION.vsix  carries hashline-ls in bin/linux-arm64/
#   hashline-VERSION.vsix              universal: carries no server, so the
#                                      extension needs hashline.serverPath
#                                      (or hashline-ls on PATH)
#
# Usage: package.sh [linux-x64] [linux-arm64] [universal]   (default: all)
# A target whose cross compiler is missing is skipped with the reason, and
# fails the run when HASHLINE_REQUIRE_EDITORS is set (CI).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux-x64 linux-arm64 universal)

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
    continue
  fi
  out="dist/hashline-$t-$version.vsix"
  rm -f "$out" # a skipped target leaves no older package behind
  rc=0
  bash scripts/build-server.sh "$t" || rc=$?
  if [ "$rc" = 3 ]; then
    if [ -n "${HASHLINE_REQUIRE_EDITORS:-}" ]; then
      echo "FAIL $t .vsix: its compiler is missing (above; HASHLINE_REQUIRE_EDITORS is set)" >&2
      exit 1
    fi
    echo "SKIP $t .vsix: its compiler is missing (above)"
    continue
  fi
  [ "$rc" = 0 ] || exit "$rc"

  # The one binary of this target joins what .vscodeignore lets in.
  ignore=$(mktemp)
  { cat .vscodeignore; echo "!bin/$t/hashline-ls"; } >"$ignore"
  vsce --target "$t" --ignoreFile "$ignore" --out "$out"
  rm -f "$ignore"

  # The server is inside, executable: VS Code keeps a zip entry's mode
  # when it unpacks an extension, so this is the mode it will run with.
  entry=$(unzip -Z "$out" "extension/bin/$t/hashline-ls" 2>/dev/null || true)
  case "$entry" in
    -rwx*) ;;
    *) echo "package: $out does not hold an executable extension/bin/$t/hashline-ls: ${entry:-no such entry}" >&2; exit 1 ;;
  esac
  others=$(unzip -Z1 "$out" | grep '^extension/bin/' | grep -vx "extension/bin/$t/hashline-ls" || true)
  [ -z "$others" ] || { echo "package: $out holds more than its own server: $others" >&2; exit 1; }
  echo "$t: $out: $(stat -c %s "$out") bytes; $entry"
done

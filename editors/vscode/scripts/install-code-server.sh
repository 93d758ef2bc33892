#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3, the last release that runs on
# Node 20) into editors/vscode/.cache/code-server for the real VS Code test.
# Everything it writes stays under that git-ignored cache folder: the npm
# cache, the temporary files and the install itself. Nothing is downloaded
# except from the npm registry.
#
# Needs Debian's ripgrep and libkrb5-dev (.ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=4.100.3
CACHE="$PWD/.cache"
PREFIX="$CACHE/code-server"
BIN="$PREFIX/node_modules/.bin/code-server"

if [ -x "$BIN" ] && [ "$(cat "$PREFIX/.installed" 2>/dev/null)" = "$VERSION" ]; then
  echo "code-server $VERSION already installed in $PREFIX"
  exit 0
fi

for need in rg node npm; do
  command -v "$need" >/dev/null || { echo "install-code-server: $need is missing" >&2; exit 1; }
done
[ -f /usr/include/krb5.h ] || { echo "install-code-server: libkrb5-dev is missing (kerberos builds against it)" >&2; exit 1; }
[ -f /usr/include/node/node.h ] || { echo "install-code-server: Node's headers are missing from /usr/include/node" >&2; exit 1; }

rm -rf "$PREFIX"
mkdir -p "$PREFIX" "$CACHE/tmp" "$CACHE/npm" "$CACHE/home"
export TMPDIR="$CACHE/tmp"

# @vscode/ripgrep's postinstall downloads a ripgrep build; give it Debian's rg
# in the archive it looks for first, so it takes the "cached download" path.
RG_CACHE="$TMPDIR/vscode-ripgrep-cache-1.15.11"
mkdir -p "$RG_CACHE"
tar -czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

# The package's postinstall refuses to run as root without unsafe-perm.
export npm_config_unsafe_perm=true
# Native modules (argon2, kerberos, ...) would try to download prebuilt
# binaries from outside the npm registry: build them from source instead,
# against the headers Debian's Node ships.
export npm_config_build_from_source=true
export npm_config_nodedir=/usr
# node-pty's postinstall runs npx, which would stop to ask otherwise.
export npm_config_yes=true
export npm_config_cache="$CACHE/npm"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

echo '{"name":"code-server-for-tests","private":true}' >"$PREFIX/package.json"
start=$(date +%s)
npm install --prefix "$PREFIX" --no-save --foreground-scripts --loglevel=warn "code-server@$VERSION" >"$CACHE/code-server-install.log" 2>&1 || {
  echo "install-code-server: npm install failed; the last lines of $CACHE/code-server-install.log:" >&2
  tail -40 "$CACHE/code-server-install.log" >&2
  exit 1
}
# Even --version writes a default config and logs under HOME: keep them here.
HOME="$CACHE/home" XDG_CONFIG_HOME="$CACHE/home/.config" XDG_DATA_HOME="$CACHE/home/.local/share" \
  "$BIN" --version >/dev/null
echo "$VERSION" >"$PREFIX/.installed"
echo "code-server $VERSION installed in $PREFIX in $(( $(date +%s) - start )) s"

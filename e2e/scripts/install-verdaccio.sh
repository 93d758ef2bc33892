#!/usr/bin/env bash
# Installs verdaccio, the npm registry the npx test starts on loopback to
# publish the packages `make npm` writes, into the git-ignored
# .cache/verdaccio at the repository root. 6.8.0 is the newest that runs on
# Node 20 (later ones want Node 22), once node-fetch is pinned to 2.7.0 in
# the installing package. An install of the same version is reused.
set -euo pipefail
cd "$(dirname "$0")/../.."

PACKAGE=verdaccio@6.8.0
PREFIX="$PWD/.cache/verdaccio"
if [ "$(cat "$PREFIX/.installed" 2>/dev/null)" = "$PACKAGE" ] && [ -x "$PREFIX/node_modules/.bin/verdaccio" ]; then
  echo "verdaccio already installed in $PREFIX: $PACKAGE"
  exit 0
fi
for need in node npm; do
  command -v "$need" >/dev/null || { echo "install-verdaccio: $need is missing: install Node 20 with npm" >&2; exit 1; }
done
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
echo '{"name":"hashline-registry-for-tests","private":true,"overrides":{"node-fetch":"2.7.0"}}' >"$PREFIX/package.json"
start=$(date +%s)
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=warn --cache "$PREFIX/.npm-cache" "$PACKAGE" >"$PREFIX/install.log" 2>&1 || {
  echo "install-verdaccio: npm install $PACKAGE failed; the last lines of $PREFIX/install.log:" >&2
  tail -30 "$PREFIX/install.log" >&2
  exit 1
}
rm -rf "$PREFIX/.npm-cache"
"$PREFIX/node_modules/.bin/verdaccio" --version
echo "$PACKAGE" >"$PREFIX/.installed"
echo "verdaccio installed in $PREFIX in $(( $(date +%s) - start )) s: $PACKAGE"

#!/usr/bin/env bash
# Installs npm packages that builds or tests run (not the project's own
# dependencies) into DIR, a git-ignored cache folder; an install of the
# same packages there is reused. FIELDS are extra package.json fields of
# the installing package, e.g. '"overrides":{"node-fetch":"2.7.0"}', or ''.
#
# Usage: install-npm-tool.sh DIR FIELDS PACKAGE@VERSION...
set -euo pipefail
prefix=${1:?usage: install-npm-tool.sh DIR FIELDS PACKAGE@VERSION...} fields=$2
shift 2
stamp="$* $fields"
[ "$(cat "$prefix/.installed" 2>/dev/null)" = "$stamp" ] && exit 0
for need in node npm; do
  command -v "$need" >/dev/null || { echo "install-npm-tool: $need is missing: install Node 20 with npm" >&2; exit 1; }
done
rm -rf "$prefix"
mkdir -p "$prefix"
echo "{\"name\":\"hashline-build-tools\",\"private\":true${fields:+,$fields}}" >"$prefix/package.json"
start=$(date +%s)
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=warn --cache "$prefix/.npm-cache" "$@" >"$prefix/install.log" 2>&1 || {
  echo "install-npm-tool: npm install $* failed; the last lines of $prefix/install.log:" >&2
  tail -30 "$prefix/install.log" >&2
  exit 1
}
rm -rf "$prefix/.npm-cache"
echo "$stamp" >"$prefix/.installed"
echo "install-npm-tool: $* installed in $prefix in $(( $(date +%s) - start )) s" >&2

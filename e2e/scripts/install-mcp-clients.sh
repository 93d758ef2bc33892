#!/usr/bin/env bash
# Installs the third-party MCP clients the e2e tests drive into e2e/.cache/npm:
# the official TypeScript SDK and the OpenAI Codex CLI, whose package ships
# its own binary. Everything stays under that git-ignored folder, the npm
# cache included; an install of the same versions is reused.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(@openai/codex@0.171.0 @modelcontextprotocol/sdk@1.32.2)
CACHE="$PWD/.cache"
PREFIX="$CACHE/npm"
STAMP="${PACKAGES[*]}"

if [ "$(cat "$PREFIX/.installed" 2>/dev/null)" = "$STAMP" ] &&
  [ -x "$PREFIX/node_modules/.bin/codex" ] && [ -d "$PREFIX/node_modules/@modelcontextprotocol/sdk" ]; then
  echo "MCP clients already installed in $PREFIX: $STAMP"
  exit 0
fi
for need in node npm; do
  command -v "$need" >/dev/null || { echo "install-mcp-clients: $need is missing" >&2; exit 1; }
done

rm -rf "$PREFIX"
mkdir -p "$PREFIX" "$CACHE/npm-cache"
export npm_config_cache="$CACHE/npm-cache"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
echo '{"name":"hashline-mcp-clients-for-tests","private":true}' >"$PREFIX/package.json"
start=$(date +%s)
npm install --prefix "$PREFIX" --no-save --loglevel=warn "${PACKAGES[@]}" >"$CACHE/mcp-clients-install.log" 2>&1 || {
  echo "install-mcp-clients: npm install failed; the last lines of $CACHE/mcp-clients-install.log:" >&2
  tail -40 "$CACHE/mcp-clients-install.log" >&2
  exit 1
}
"$PREFIX/node_modules/.bin/codex" --version
echo "$STAMP" >"$PREFIX/.installed"
echo "MCP clients installed in $PREFIX in $(( $(date +%s) - start )) s: $STAMP"

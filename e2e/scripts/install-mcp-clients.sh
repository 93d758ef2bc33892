#!/usr/bin/env bash
# Installs the third-party MCP clients the e2e tests drive into e2e/.cache/npm:
# the official TypeScript SDK and the terminal agents Codex, Claude Code,
# Gemini CLI and opencode, at pinned versions (Codex, Claude Code and
# opencode ship native binaries in their packages). Everything stays under
# that git-ignored folder, the npm cache included. Each package's installed
# version is checked: when all are there the script does nothing, and
# otherwise one npm install brings the folder to exactly this list.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  @modelcontextprotocol/sdk@1.32.2
  @openai/codex@0.171.0
  @anthropic-ai/claude-code@2.1.328
  @google/gemini-cli@0.61.0
  opencode-ai@1.18.33
)
# The commands the tests run, each checked after the install.
BINS=(codex claude gemini opencode)
CACHE="$PWD/.cache"
PREFIX="$CACHE/npm"

# missing prints name@version of each package that is missing or at
# another version.
missing() {
  for spec in "${PACKAGES[@]}"; do
    name="${spec%@*}" want="${spec##*@}"
    have=$(node -p "require('$PREFIX/node_modules/$name/package.json').version" 2>/dev/null || true)
    [ "$have" = "$want" ] || echo "$spec"
  done
  for bin in "${BINS[@]}"; do
    [ -x "$PREFIX/node_modules/.bin/$bin" ] || echo ".bin/$bin"
  done
}

for need in node npm; do
  command -v "$need" >/dev/null || { echo "install-mcp-clients: $need is missing" >&2; exit 1; }
done
todo=$(missing)
if [ -z "$todo" ]; then
  echo "MCP clients already installed in $PREFIX: ${PACKAGES[*]}"
  exit 0
fi
echo "install-mcp-clients: to install: $(echo $todo)"

mkdir -p "$PREFIX" "$CACHE/npm-cache"
export npm_config_cache="$CACHE/npm-cache"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
echo '{"name":"hashline-mcp-clients-for-tests","private":true}' >"$PREFIX/package.json"
start=$(date +%s)
# One install of the whole list: npm keeps what is already at the right
# version and removes what the list no longer names.
npm install --prefix "$PREFIX" --no-save --loglevel=warn "${PACKAGES[@]}" >"$CACHE/mcp-clients-install.log" 2>&1 || {
  echo "install-mcp-clients: npm install failed; the last lines of $CACHE/mcp-clients-install.log:" >&2
  tail -40 "$CACHE/mcp-clients-install.log" >&2
  exit 1
}
todo=$(missing)
if [ -n "$todo" ]; then
  echo "install-mcp-clients: still missing after npm install: $(echo $todo)" >&2
  exit 1
fi
for bin in "${BINS[@]}"; do
  echo "$bin: $("$PREFIX/node_modules/.bin/$bin" --version 2>&1 | head -1)"
done
echo "MCP clients installed in $PREFIX in $(( $(date +%s) - start )) s: ${PACKAGES[*]}"

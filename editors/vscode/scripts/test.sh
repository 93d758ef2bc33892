#!/usr/bin/env bash
# The VS Code part of `make test`: this platform's .vsix, the extension's unit
# tests (tool plumbing, finding the server, and package.json against
# `hashline-ls describe`), then the real VS Code test in code-server and
# headless Chromium with that .vsix installed.
#
# With HASHLINE_REQUIRE_EDITORS set (CI), anything missing fails the run;
# otherwise a missing Node, code-server or Chromium skips with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."

skip_or_fail() {
  if [ -n "${HASHLINE_REQUIRE_EDITORS:-}" ]; then
    echo "FAIL VS Code tests: $1 (HASHLINE_REQUIRE_EDITORS is set)" >&2
    exit 1
  fi
  echo "SKIP VS Code tests: $1"
  exit 0
}

command -v node >/dev/null && command -v npm >/dev/null || skip_or_fail "node and npm are not installed"
case "$(node --version)" in
  v2[0-9].*) ;;
  *) skip_or_fail "Node $(node --version) is too old: the extension's tools need Node 20" ;;
esac

# This platform's .vsix, with the hashline-ls it carries: the real VS Code
# test installs it, and the unit tests check package.json against that
# binary's describe.
target=$(node -p 'process.platform + "-" + process.arch')
case "$target" in
  linux-x64) server=linux_amd64 ;;
  linux-arm64) server=linux_arm64 ;;
  *) skip_or_fail "the real VS Code test runs on Linux only (code-server and Chromium as Debian has them), not on $target" ;;
esac
echo "== VS Code extension: the $target .vsix"
bash ../../scripts/release/build.sh "$server"
bash scripts/package.sh "$target"
export HASHLINE_BIN="$PWD/bin/$target/hashline-ls"

echo "== VS Code extension: unit tests"
npm test --silent
echo "== VS Code extension: real VS Code test (code-server 4.100.3, headless Chromium)"
npm run test:vscode --silent

#!/usr/bin/env bash
# The VS Code part of `make test`: the extension's unit tests (tool plumbing,
# and package.json against `hashline-ls describe`), then the real VS Code test
# in code-server and headless Chromium.
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

# Install the packages the lock names when they are missing or older than it.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=warn
fi

# One server binary for both test runs, built from this checkout.
bin_dir="$(mktemp -d)"
trap 'rm -rf "$bin_dir"' EXIT
(cd ../.. && go build -o "$bin_dir/hashline-ls" ./cmd/hashline-ls)
export HASHLINE_BIN="$bin_dir/hashline-ls"

echo "== VS Code extension: unit tests"
npm test --silent
echo "== VS Code extension: real VS Code test (code-server 4.100.3, headless Chromium)"
npm run test:vscode --silent

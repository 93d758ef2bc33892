#!/usr/bin/env bash
# The Go tests cross-compiled for linux/arm64 and run under qemu-user.
#
# Usage: scripts/qemu-test.sh [PACKAGE...]   (default: every package with
#        tests but e2e, then e2e's tests of the real clients, below)
#
# Installs nothing: it needs Debian's qemu-user, gcc-aarch64-linux-gnu and
# g++-aarch64-linux-gnu (.ci/run installs them). When one is missing it says
# so and exits 0, or 1 where HASHLINE_REQUIRE_EDITORS is set, as in CI.
#
# The test programs are built as scripts/release/build.sh builds the arm64
# server (the same compilers and flags, so the grammars' cgo build is
# shared) and each runs under qemu-aarch64 in its package's folder (go test
# -exec). The tests that run hashline-ls as a user does run the release
# binary, under qemu too (HASHLINE_BIN); those that run their own test
# program again do so through qemu (HASHLINE_TEST_EXEC), since an arm64
# program runs here only through it (a container has no binfmt_misc).
# Of e2e, whose test program is this machine's, the real clients drive the
# arm64 server: the Neovim plugin in each Neovim build, the MCP SDK's
# client, the four terminal agents, a person typing while edits land. No
# race detector: make test runs the tests with it natively.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/emulated.sh
need_tools qemu-test "apt-get install qemu-user gcc-aarch64-linux-gnu g++-aarch64-linux-gnu" qemu-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-g++

work=$PWD/bin/.qemu
mkdir -p "$work"
began=$(date +%s)

bash scripts/release/build.sh linux_arm64 >"$work/server.log" 2>&1 || { cat "$work/server.log" >&2; exit 1; }
# Go's signal-based preemption can hang a Go program under qemu-user (the
# first GC's stop-the-world never ends: golang/go#36981, #70329), so every
# arm64 program here runs without it: the wrapper says so itself, since
# the tests start it with an environment of their own.
printf '#!/bin/sh\nexec qemu-aarch64 -E GODEBUG=asyncpreemptoff=1 %q "$@"\n' "$PWD/dist/servers/linux_arm64/hashline-ls" >"$work/hashline-ls"
chmod +x "$work/hashline-ls"
export QEMU_SET_ENV=GODEBUG=asyncpreemptoff=1
export HASHLINE_BIN=$work/hashline-ls HASHLINE_TEST_EXEC=qemu-aarch64
echo "qemu-test: $(grep -m1 'built' "$work/server.log") and checked"

pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  mapfile -t pkgs < <(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./... | grep -vx 'hashline-ls/e2e')
fi

log=$work/test.log
rc=0
CGO_ENABLED=1 GOARCH=arm64 CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ \
  go test -exec qemu-aarch64 -trimpath -tags netgo,osusergo -buildmode=pie \
  -ldflags='-linkmode=external -extldflags=-static-pie' \
  -count=1 -timeout 20m -v "${pkgs[@]}" >"$log" 2>&1 || rc=$?
if [ $# -eq 0 ]; then
  e2e_clients "$log" TestNeovimPlugin "${mcp_clients[@]}" 'TestTyping.*' || rc=$?
fi
grep -E '^(ok|FAIL|panic)|--- FAIL' "$log" || true
pass=$(grep -c '^\s*--- PASS' "$log" || true)
skipped=$(grep -c '^\s*--- SKIP' "$log" || true)
fail=$(grep -c '^\s*--- FAIL' "$log" || true)
echo "qemu-test: $pass passed, $skipped skipped by the tests, $fail failed (subtests included), in $(( $(date +%s) - began )) s; all of it in $log"
[ "$rc" = 0 ] && [ "$fail" = 0 ] || { echo "qemu-test: failed (exit $rc)" >&2; exit 1; }

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
packages=$work/packages.log
rc=0
CGO_ENABLED=1 GOARCH=arm64 CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ \
  go test -exec qemu-aarch64 -trimpath -tags netgo,osusergo -buildmode=pie \
  -ldflags='-linkmode=external -extldflags=-static-pie' \
  -count=1 -timeout 20m -v "${pkgs[@]}" >"$packages" 2>&1 || rc=$?
cp "$packages" "$log"
# A Go program under qemu-user can hang at random in the runtime, not in
# its own code (golang/go#70329 and #36981, both open; the dump of the last
# such hang here showed the first garbage collection stopping the world for
# ever). So an e2e test that fails here is run once more, and said to be:
# its first run stays in the log, with the goroutine dump a hung MCP
# handshake prints, and it passes only if its second run does. Nothing else
# runs twice: the package tests above, and every e2e test in make test
# (natively, with -race) and under Wine, count their first run.
retried=()
counted=("$packages")
if [ $# -eq 0 ]; then
  e2e=$work/e2e.log
  : >"$e2e"
  if e2e_clients "$e2e" TestNeovimPlugin "${mcp_clients[@]}" 'TestTyping.*'; then
    counted+=("$e2e")
  else
    mapfile -t retried < <(sed -n 's/^--- FAIL: \(Test[A-Za-z0-9_]*\) .*/\1/p' "$e2e" | sort -u)
    echo "qemu-test: e2e's first run under qemu-user failed: ${retried[*]:-no test named}"
    show_failures "$e2e"
    again=$work/e2e-again.log
    : >"$again"
    if [ ${#retried[@]} -eq 0 ] || ! e2e_clients "$again" "${retried[@]}"; then rc=1; fi
    # The first run counts for the tests that passed in it, the second
    # for the ones run again.
    first=$work/e2e-passed.log
    grep -vE '^[[:space:]]*--- FAIL|^FAIL' "$e2e" >"$first" || true
    counted+=("$first" "$again")
    { echo "qemu-test: the first run of e2e, whose failed tests ran again below:"; cat "$e2e"; echo "qemu-test: e2e's failed tests, run again:"; } >>"$log"
    e2e=$again
  fi
  cat "$e2e" >>"$log"
fi
grep -hE '^(ok|FAIL|panic)|--- FAIL' "${counted[@]}" || true
pass=$(cat "${counted[@]}" | grep -c '^\s*--- PASS' || true)
skipped=$(cat "${counted[@]}" | grep -c '^\s*--- SKIP' || true)
fail=$(cat "${counted[@]}" | grep -c '^\s*--- FAIL' || true)
echo "qemu-test: $pass passed, $skipped skipped by the tests, $fail failed (subtests included), in $(( $(date +%s) - began )) s; all of it in $log"
if [ ${#retried[@]} -gt 0 ] && [ "$fail" = 0 ] && [ "$rc" = 0 ]; then
  echo "qemu-test: ${retried[*]} failed on the first run under qemu-user and passed on the second (both runs are in the log)"
fi
[ "$rc" = 0 ] && [ "$fail" = 0 ] || { for f in "${counted[@]}"; do show_failures "$f"; done; echo "qemu-test: failed (exit $rc)" >&2; exit 1; }

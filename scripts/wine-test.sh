#!/usr/bin/env bash
# The Go tests cross-compiled for windows/amd64 and run under Wine.
#
# Usage: scripts/wine-test.sh [PACKAGE...]      (default: every package with tests)
#
# Installs nothing: it needs Debian's wine64 (wine 8), gcc-mingw-w64-x86-64 and
# g++-mingw-w64-x86-64 (.ci/run installs them). When one is missing it says
# so and exits 0, or 1 where HASHLINE_REQUIRE_EDITORS is set, as in CI.
#
# The prefix is made by scripts/wine/prefix.sh. What else Wine 8 lacks is
# made up for here, in the test programs only: FileDispositionInformationEx,
# with which Go deletes files beneath a folder's handle (os.RemoveAll,
# os.Root.Remove; Wine answers STATUS_NOT_IMPLEMENTED where Windows before
# 10 1607 answers STATUS_INVALID_INFO_CLASS). Each test program turns on
# the standard library's own fallback, the path Go takes on FAT and on
# older Windows (below); hashline-ls.exe itself runs as built.
# The tests Wine cannot run are skipped by name: scripts/wine/skip.txt.
# Last, the real MCP clients' tests of e2e drive hashline-ls.exe (below).
#
# Wine's output goes to files, never into a pipe. The prefix, the test
# programs and their logs are kept in bin/.wine/ (a dot folder, which
# go ./... passes by), so a second run starts warm.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

. scripts/emulated.sh
need_tools wine-test "apt-get install wine wine64 gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64" wine wineserver x86_64-w64-mingw32-gcc x86_64-w64-mingw32-g++

work=$root/bin/.wine
mkdir -p "$work/tests" "$work/logs" "$work/overlay"
began=$(date +%s)

# hashline-ls.exe itself, for the tests that run the program as a user does
# (HASHLINE_BIN): built, and checked under Wine, by scripts/build.sh, and so
# before this script's own wineserver starts.
start=$(date +%s)
bash scripts/build.sh windows amd64 "$work/tests/hashline-ls.exe" >"$work/logs/exe.log" 2>&1 || { cat "$work/logs/exe.log" >&2; exit 1; }
echo "wine-test: $(tail -1 "$work/logs/exe.log") in $(( $(date +%s) - start )) s"
export HASHLINE_BIN="Z:$work/tests/hashline-ls.exe"

start=$(date +%s)
. scripts/wine/prefix.sh
echo "wine-test: prefix ready in $(( $(date +%s) - start )) s"

goroot=Z:$(go env GOROOT)
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  mapfile -t pkgs < <(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...)
fi

# skip PKG: the -test.skip pattern of the package (each name anchored at
# each level: Test/sub is ^Test$/^sub$), or * for all of it.
skip() {
  awk -v p="$1" '!/^#/ && NF >= 2 && $1 == p {
    if ($2 == "*") { print "*"; exit }
    n = split($2, part, "/"); pat = ""
    for (i = 1; i <= n; i++) pat = pat (i > 1 ? "/" : "") "^" part[i] "$"
    printf "%s%s", sep, pat; sep = "|"
  }' scripts/wine/skip.txt
}

# Each test program gets one more file (-overlay), which turns on the
# standard library's own fallback for deletes: it sets
# internal/syscall/windows.TestDeleteatFallback, reached by linkname (so
# -checklinkname=0). A file added to each package under test, not to
# package os, leaves the standard library's compiled packages as they are.
rm -f "$work/overlay/"*
printf '{"Replace":{' >"$work/overlay/overlay.json"
sep=
while IFS=$'\t' read -r dir name; do
  hook=$work/overlay/$name.go.txt
  [ -f "$hook" ] || cat >"$hook" <<GO
package $name

import (
	_ "os"
	_ "unsafe"
)

// Wine 8 has no FileDispositionInformationEx: delete as Go does where
// Windows lacks it.
//
//go:linkname wineDeleteatFallback internal/syscall/windows.TestDeleteatFallback
var wineDeleteatFallback bool

func init() { wineDeleteatFallback = true }
GO
  printf '%s"%s/zz_wine_deleteat_test.go":"%s"' "$sep" "$dir" "$hook" >>"$work/overlay/overlay.json"
  sep=,
done < <(go list -f '{{.Dir}}{{"\t"}}{{.Name}}' "${pkgs[@]}")
printf '}}\n' >>"$work/overlay/overlay.json"

# The test programs, built in one go command so they share its work;
# -trimpath, as scripts/build.sh builds, shares the grammars' cgo cache,
# and -static links libstdc++ and libgcc in, as there.
start=$(date +%s)
log=$work/logs/build.log
if ! CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ \
  go test -c -trimpath -ldflags='-extldflags=-static -checklinkname=0' -overlay "$work/overlay/overlay.json" -o "$work/tests/" "${pkgs[@]}" >"$log" 2>&1; then
  grep -v 'warning:\|^ *[0-9]* |\|^ *|\|In function\|parser.c\|scanner.c' "$log" >&2 || true
  echo "wine-test: building the test programs failed (above; all of it in $log)" >&2
  exit 1
fi
echo "wine-test: test programs built in $(( $(date +%s) - start )) s"

# run PKG runs the package's test program and writes its line of the
# summary to $work/logs/NAME.result: ok, SKIP or FAIL first.
run() {
  local pkg=$1 rel dir name exe pat out start rc=0 pass skipped fail listed counts
  rel=${pkg#hashline-ls}; rel=${rel#/}; dir=$root/${rel:-.}
  name=$(basename "$pkg")
  exe=$work/tests/$name.test.exe
  pat=$(skip "$rel")
  if [ "$pat" = "*" ]; then
    echo "SKIP $pkg: $(awk -v p="$rel" '$1 == p && $2 == "*" { $1 = $2 = ""; sub(/^ +/, ""); print }' scripts/wine/skip.txt)" >"$work/logs/$name.result"
    return
  fi
  [ -f "$exe" ] || { echo "FAIL $pkg: no test program" >"$work/logs/$name.result"; return; }
  # Every name the list gives must name a test of the package.
  if [ -n "$pat" ]; then
    (cd "$dir" && wine "$exe" -test.list . >"$work/logs/$name.list" 2>&1) || true
    for t in $(awk -v p="$rel" '!/^#/ && $1 == p { print $2 }' scripts/wine/skip.txt); do
      grep -qx "${t%%/*}" "$work/logs/$name.list" || { echo "FAIL $pkg: scripts/wine/skip.txt names $t, which is no test there" >"$work/logs/$name.result"; return; }
    done
  fi
  out=$work/logs/$name.log
  start=$(date +%s)
  # The editors and the corpus are optional here: the ones CI requires are
  # Linux programs. GOROOT names the Go tree the tests read real code from,
  # which they cannot ask the go command for.
  (cd "$dir" && env -u HASHLINE_REQUIRE_EDITORS GOROOT="$goroot" timeout 900 wine "$exe" -test.v -test.count=1 -test.timeout=12m ${pat:+-test.skip "$pat"} >"$out" 2>&1) || rc=$?
  pass=$(grep -c '^\s*--- PASS' "$out" || true)
  skipped=$(grep -c '^\s*--- SKIP' "$out" || true)
  fail=$(grep -c '^\s*--- FAIL' "$out" || true)
  listed=$(awk -v p="$rel" '!/^#/ && $1 == p' scripts/wine/skip.txt | wc -l)
  counts="$pass passed, $skipped skipped by the tests, $listed left out by the list"
  if [ "$rc" = 0 ] && [ "$fail" = 0 ]; then
    echo "ok   $pkg  $counts, in $(( $(date +%s) - start )) s" >"$work/logs/$name.result"
  else
    { echo "FAIL $pkg  $counts, $fail failed (exit $rc), in $(( $(date +%s) - start )) s: $out"
      grep -E '^\s*--- FAIL|^panic|^FAIL' "$out" | head -20 || true; } >"$work/logs/$name.result"
  fi
}

# The packages run JOBS at a time (WINE_TEST_JOBS, 3 by default): a test
# program under Wine spends most of its time waiting on wineserver, not
# computing.
jobs=${WINE_TEST_JOBS:-3}
start=$(date +%s)
for pkg in "${pkgs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run "$pkg" &
done
wait
failed=() total_pass=0 total_skip=0 total_fail=0 total_listed=0
for pkg in "${pkgs[@]}"; do
  result=$work/logs/$(basename "$pkg").result
  cat "$result"
  case "$(head -c 4 "$result")" in
    ok*) ;;
    SKIP) continue ;;
    *) failed+=("$pkg") ;;
  esac
  read -r pass skipped listed < <(sed -n '1s/.*  \([0-9]*\) passed, \([0-9]*\) skipped by the tests, \([0-9]*\) left out.*/\1 \2 \3/p' "$result")
  total_pass=$((total_pass + ${pass:-0})) total_skip=$((total_skip + ${skipped:-0})) total_listed=$((total_listed + ${listed:-0}))
  fails=$(grep -c '^\s*--- FAIL' "$work/logs/$(basename "$pkg").log" 2>/dev/null || true)
  total_fail=$((total_fail + ${fails:-0}))
done
echo "wine-test: $total_pass passed, $total_skip skipped by the tests, $total_fail failed (subtests included); $total_listed left out by scripts/wine/skip.txt; the tests ran in $(( $(date +%s) - start )) s, $(( $(date +%s) - began )) s in all"

# Of e2e, whose test program is this machine's: the MCP clients (the
# TypeScript SDK's, Claude Code, Codex, Gemini CLI, opencode; Linux builds
# of them) start hashline-ls.exe under Wine, found on PATH as hashline-ls
# as the README configures them. The editors' tests stay out: an editor
# and its server run on one system, and these editors are Linux programs.
# Only when no package is named.
if [ $# -eq 0 ]; then
  mkdir -p "$work/path"
  printf '#!/bin/sh\nexport WINEPREFIX=%q WINEDEBUG=-all\nexec wine %q "$@"\n' "$WINEPREFIX" "$work/tests/hashline-ls.exe" >"$work/path/hashline-ls"
  chmod +x "$work/path/hashline-ls"
  start=$(date +%s)
  log=$work/logs/e2e-clients.log
  rm -f "$log"
  if HASHLINE_BIN=$work/path/hashline-ls e2e_clients "$log" "${mcp_clients[@]}"; then
    echo "wine-test: the MCP clients' tests against hashline-ls.exe: ${#mcp_clients[@]} passed, in $(( $(date +%s) - start )) s"
  else
    grep -E '^(--- FAIL|FAIL|panic)|did not pass' "$log" || true
    echo "wine-test: the MCP clients' tests against hashline-ls.exe failed: $log"
    failed+=("hashline-ls/e2e (the MCP clients)")
  fi
fi
[ ${#failed[@]} -eq 0 ] || { echo "wine-test: failed: ${failed[*]}" >&2; exit 1; }

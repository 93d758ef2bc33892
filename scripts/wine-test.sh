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
# made up for here, never in the product: FileDispositionInformationEx,
# with which Go deletes files beneath a folder's handle (os.RemoveAll,
# os.Root.Remove; Wine answers STATUS_NOT_IMPLEMENTED where Windows before
# 10 1607 answers STATUS_INVALID_INFO_CLASS). The test builds add one file
# to package os (-overlay) that turns on the standard library's own
# fallback, the path Go takes on FAT and on older Windows.
# The tests Wine cannot run are skipped by name: scripts/wine/skip.txt.
#
# Wine's output goes to files, never into a pipe. The prefix, the test
# programs and their logs are kept in bin/.wine/ (a dot folder, which
# go ./... passes by), so a second run starts warm.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

missing=()
for tool in wine wineserver x86_64-w64-mingw32-gcc x86_64-w64-mingw32-g++; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  msg="wine-test: ${missing[*]} missing: apt-get install wine64 gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64"
  if [ -n "${HASHLINE_REQUIRE_EDITORS:-}" ]; then echo "FAIL $msg (HASHLINE_REQUIRE_EDITORS is set)" >&2; exit 1; fi
  echo "SKIP $msg"
  exit 0
fi

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

cat >"$work/overlay/os_deleteat_fallback.go.txt" <<'GO'
package os

import "internal/syscall/windows"

// Wine 8 has no FileDispositionInformationEx: delete as Go does where
// Windows lacks it.
func init() { windows.TestDeleteatFallback = true }
GO
printf '{"Replace":{"%s/src/os/zz_wine_deleteat_fallback.go":"%s"}}\n' "$(go env GOROOT)" "$work/overlay/os_deleteat_fallback.go.txt" >"$work/overlay/overlay.json"

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

# The test programs, built in one go command so they share its work;
# -trimpath, as scripts/build.sh builds, shares the grammars' cgo cache,
# and -static links libstdc++ and libgcc in, as there.
start=$(date +%s)
log=$work/logs/build.log
if ! CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ \
  go test -c -trimpath -ldflags=-extldflags=-static -overlay "$work/overlay/overlay.json" -o "$work/tests/" "${pkgs[@]}" >"$log" 2>&1; then
  grep -v 'warning:\|^ *[0-9]* |\|^ *|\|In function\|parser.c\|scanner.c' "$log" >&2 || true
  echo "wine-test: building the test programs failed (above; all of it in $log)" >&2
  exit 1
fi
echo "wine-test: test programs built in $(( $(date +%s) - start )) s"

failed=() total_pass=0 total_skip=0 total_fail=0 total_listed=0
for pkg in "${pkgs[@]}"; do
  rel=${pkg#hashline-ls}; rel=${rel#/}; dir=$root/${rel:-.}
  name=$(basename "$pkg")
  exe=$work/tests/$name.test.exe
  pat=$(skip "$rel")
  if [ "$pat" = "*" ]; then
    echo "SKIP $pkg: $(awk -v p="$rel" '$1 == p && $2 == "*" { $1 = $2 = ""; sub(/^ +/, ""); print }' scripts/wine/skip.txt)"
    continue
  fi
  [ -f "$exe" ] || { echo "wine-test: no test program for $pkg" >&2; exit 1; }
  # Every name the list gives must name a test of the package.
  if [ -n "$pat" ]; then
    (cd "$dir" && wine "$exe" -test.list . >"$work/logs/$name.list" 2>&1) || true
    for t in $(awk -v p="$rel" '!/^#/ && $1 == p { print $2 }' scripts/wine/skip.txt); do
      grep -qx "${t%%/*}" "$work/logs/$name.list" || { echo "wine-test: scripts/wine/skip.txt names $rel $t, which is no test there" >&2; exit 1; }
    done
  fi
  out=$work/logs/$name.log
  start=$(date +%s)
  rc=0
  # The editors and the corpus are optional here: the ones CI requires are
  # Linux programs.
  (cd "$dir" && env -u HASHLINE_REQUIRE_EDITORS timeout 900 wine "$exe" -test.v -test.count=1 -test.timeout=12m ${pat:+-test.skip "$pat"} >"$out" 2>&1) || rc=$?
  pass=$(grep -c '^\s*--- PASS' "$out" || true)
  skipped=$(grep -c '^\s*--- SKIP' "$out" || true)
  fail=$(grep -c '^\s*--- FAIL' "$out" || true)
  listed=$(awk -v p="$rel" '!/^#/ && $1 == p' scripts/wine/skip.txt | wc -l)
  total_pass=$((total_pass + pass)) total_skip=$((total_skip + skipped)) total_fail=$((total_fail + fail)) total_listed=$((total_listed + listed))
  counts="$pass passed, $skipped skipped by the tests, $listed left out by the list"
  if [ "$rc" = 0 ] && [ "$fail" = 0 ]; then
    echo "ok   $pkg  $counts, in $(( $(date +%s) - start )) s"
  else
    echo "FAIL $pkg  $counts, $fail failed (exit $rc), in $(( $(date +%s) - start )) s: $out"
    grep -E '^\s*--- FAIL|^panic|^FAIL' "$out" | head -20 || true
    failed+=("$pkg")
  fi
done
echo "wine-test: $total_pass passed, $total_skip skipped by the tests, $total_fail failed (subtests included); $total_listed left out by scripts/wine/skip.txt; $(( $(date +%s) - began )) s in all"
[ ${#failed[@]} -eq 0 ] || { echo "wine-test: failed: ${failed[*]}" >&2; exit 1; }

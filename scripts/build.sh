#!/usr/bin/env bash
# Cross-builds hashline-ls for another platform, with the tree-sitter
# grammars (cgo), and checks what came out.
#
# Usage: scripts/build.sh OS ARCH OUT
#   windows amd64  a PE32+ console program with the C runtime linked in:
#                  its import table names only KERNEL32.dll and msvcrt.dll
#                  (no libstdc++ or libgcc DLL); needs Debian's
#                  gcc-mingw-w64-x86-64 and g++-mingw-w64-x86-64 (the YAML
#                  grammar's scanner is C++). Where wine is installed, the
#                  program then runs a read and a block edit under Wine
#                  (the Go grammar at work); without wine that check is
#                  skipped with the reason, or fails where
#                  HASHLINE_REQUIRE_EDITORS is set (CI).
# Exits 3 when the platform's C compiler is missing, 1 on any other failure.
# OUT is written only when the build and the checks pass.
set -euo pipefail
cd "$(dirname "$0")/.."

os=${1:?usage: build.sh OS ARCH OUT} arch=${2:?usage: build.sh OS ARCH OUT} out=${3:?usage: build.sh OS ARCH OUT}
case "$os/$arch" in
  windows/amd64) cc=x86_64-w64-mingw32-gcc cxx=x86_64-w64-mingw32-g++ pkg=mingw-w64-x86-64 ;;
  *) echo "build.sh: no cross build for $os/$arch here" >&2; exit 1 ;;
esac
for tool in "$cc" "$cxx"; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing: apt-get install gcc-$pkg g++-$pkg" >&2; exit 3; }
done

# -trimpath, -s and -w leave out this machine's paths and the debug tables;
# -static links libstdc++ and libgcc in. The grammars' generated C raises
# warnings that say nothing about this build: they are shown only when it
# fails.
log=$(mktemp) tmp="$out.tmp$$"
trap 'rm -f "$log" "$tmp"' EXIT
if ! CGO_ENABLED=1 GOOS=$os GOARCH=$arch CC=$cc CXX=$cxx \
  go build -trimpath -ldflags '-s -w -extldflags=-static' -o "$tmp" ./cmd/hashline-ls >"$log" 2>&1; then
  cat "$log" >&2
  echo "build.sh: go build for $os/$arch failed (above)" >&2
  exit 1
fi

# The DLLs it imports, from its import table: a DLL beyond these would be
# missing on a user's machine.
dlls=$(x86_64-w64-mingw32-objdump -p "$tmp" | sed -n 's/^\tDLL Name: //p' | tr 'A-Z' 'a-z' | sort -u | tr '\n' ' ')
for dll in $dlls; do
  case "$dll" in
    kernel32.dll | msvcrt.dll) ;;
    *) echo "build.sh: $out imports $dll, which Windows does not have" >&2; exit 1 ;;
  esac
done
head -c 2 "$tmp" | grep -q MZ || { echo "build.sh: $out is not a Windows program" >&2; exit 1; }

# A read, then a block edit (PUT 3*: resolves the function through the Go
# grammar), under Wine, whose output goes to files: see scripts/wine/prefix.sh.
if ! command -v wine >/dev/null; then
  if [ -n "${HASHLINE_REQUIRE_EDITORS:-}" ]; then
    echo "build.sh: wine is missing, so the $os/$arch program cannot be run (HASHLINE_REQUIRE_EDITORS is set): apt-get install wine64" >&2
    exit 1
  fi
  echo "$os/$arch: wine is missing (apt-get install wine64): the program was checked by its headers only"
else
  . scripts/wine/prefix.sh
  dir=$(mktemp -d)
  trap 'rm -f "$log" "$tmp"; rm -rf "$dir"; wineserver -k >/dev/null 2>&1 || true' EXIT
  printf 'package main\n\nfunc f() int {\n\treturn 1\n}\n' >"$dir/a.go"
  printf 'PUT 3*:\n+func f() int {\n+\treturn 2\n+}\n' >"$dir/ops"
  case $tmp in /*) exe=$tmp ;; *) exe=$PWD/$tmp ;; esac
  (cd "$dir" && wine "$exe" read a.go >read.out 2>&1) || { cat "$dir/read.out" >&2; echo "build.sh: the read under Wine failed" >&2; exit 1; }
  tag=$(sed -n '1s/^\[a\.go#\([0-9A-F]\{4\}\)\]\r\{0,1\}$/\1/p' "$dir/read.out")
  [ -n "$tag" ] || { cat "$dir/read.out" >&2; echo "build.sh: the read under Wine gave no [a.go#TAG] header" >&2; exit 1; }
  (cd "$dir" && wine "$exe" edit a.go --tag "$tag" --ops ops >edit.out 2>&1) || { cat "$dir/edit.out" >&2; echo "build.sh: the block edit under Wine failed" >&2; exit 1; }
  if [ "$(cat "$dir/a.go")" != "$(printf 'package main\n\nfunc f() int {\n\treturn 2\n}')" ]; then
    echo "build.sh: the $os/$arch program did not apply the block edit under Wine; a.go is now:" >&2
    cat "$dir/a.go" >&2
    exit 1
  fi
  (cd "$dir" && wine "$exe" version >version.out 2>&1)
  echo "$os/$arch: $(tr -d '\r' <"$dir/version.out") ran a read and a block edit under Wine"
fi
mkdir -p "$(dirname "$out")"
mv "$tmp" "$out"
echo "$os/$arch: $out: $(stat -c %s "$out") bytes, imports $dlls"

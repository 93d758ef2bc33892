#!/usr/bin/env bash
# Cross-builds hashline-ls for Windows x64 into OUT, for the tests that run
# the program as a user does: the build of scripts/release/build.sh (the
# one every Windows package and archive is made from), with its checks of
# the binary and its read and block edit under Wine.
#
# Usage: scripts/build.sh windows amd64 OUT
# Exits 3 when mingw-w64 is missing, 1 on any other failure. OUT is
# written only when the build and the checks pass.
set -euo pipefail
cd "$(dirname "$0")/.."

os=${1:?usage: build.sh OS ARCH OUT} arch=${2:?usage: build.sh OS ARCH OUT} out=${3:?usage: build.sh OS ARCH OUT}
[ "$os/$arch" = windows/amd64 ] || { echo "build.sh: no cross build for $os/$arch here: scripts/release/build.sh builds every release target" >&2; exit 1; }
for tool in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-g++; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing: apt-get install gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64" >&2; exit 3; }
done
bash scripts/release/build.sh windows_amd64
mkdir -p "$(dirname "$out")"
cp dist/servers/windows_amd64/hashline-ls.exe "$out.tmp$$"
mv "$out.tmp$$" "$out"
echo "$os/$arch: $out: $(stat -c %s "$out") bytes"

#!/usr/bin/env bash
# Builds the hashline-ls a platform-specific .vsix carries, into
# bin/<target>/hashline-ls, and checks it: `file` must name the target's
# machine and a static link, and the binary must run a block edit, which
# needs the tree-sitter grammars (natively, or under qemu-user).
#
# Usage: build-server.sh linux-x64|linux-arm64
# Exits 3 when the target's C compiler is missing, so package.sh can skip
# that target; any other failure exits 1.
#
# Why static-pie: glibc, libstdc++ (the YAML grammar's scanner is C++) and
# the grammars are linked in, so the binary runs on any Linux of its
# machine, whatever glibc it has (a build on Debian 12 linked dynamically
# would need glibc 2.34 or later). netgo and osusergo keep name and user
# lookups in Go: glibc's NSS cannot be loaded by a static binary. -trimpath,
# -s and -w leave out the build machine's paths and the debug tables.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: build-server.sh linux-x64|linux-arm64}
case "$target" in
  linux-x64) goarch=amd64 triple=x86_64-linux-gnu machine='x86-64' qemu=qemu-x86_64 ;;
  linux-arm64) goarch=arm64 triple=aarch64-linux-gnu machine='ARM aarch64' qemu=qemu-aarch64 ;;
  *)
    echo "build-server: no bundled hashline-ls for $target; the extension there runs the one hashline.serverPath names" >&2
    exit 1
    ;;
esac

if [ "$(go env GOHOSTOS)/$(go env GOHOSTARCH)" = "linux/$goarch" ]; then
  cc=gcc cxx=g++ run=()
else
  cc=$triple-gcc cxx=$triple-g++ run=("$qemu")
fi
for tool in "$cc" "$cxx"; do
  if ! command -v "$tool" >/dev/null; then
    echo "build-server: $tool is missing, so there is no $target build: apt-get install gcc-$triple g++-$triple" >&2
    exit 3
  fi
done
command -v file >/dev/null || { echo "build-server: file is missing: apt-get install file" >&2; exit 1; }

out="bin/$target/hashline-ls"
mkdir -p "bin/$target"
# The grammars' generated C raises warnings that say nothing about this
# build; keep them out of the log unless the build fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! (cd ../.. && CGO_ENABLED=1 GOOS=linux GOARCH=$goarch CC=$cc CXX=$cxx \
  go build -trimpath -tags netgo,osusergo -buildmode=pie \
  -ldflags '-s -w -linkmode=external -extldflags=-static-pie' \
  -o "editors/vscode/$out" ./cmd/hashline-ls) >"$log" 2>&1; then
  cat "$log" >&2
  echo "build-server: go build for $target failed (above)" >&2
  exit 1
fi

desc=$(file -b "$out")
echo "$target: $out: $desc"
case "$desc" in
  *"$machine"*static-pie\ linked*) ;;
  *) echo "build-server: $out is not a static-pie $machine executable" >&2; exit 1 ;;
esac

# A block edit (PUT 3*:) resolves the function through the Go grammar.
if [ ${#run[@]} -gt 0 ] && ! command -v "${run[0]}" >/dev/null; then
  if [ -n "${HASHLINE_REQUIRE_EDITORS:-}" ]; then
    echo "build-server: ${run[0]} is missing, so the $target binary cannot be run (HASHLINE_REQUIRE_EDITORS is set): apt-get install qemu-user" >&2
    exit 1
  fi
  echo "$target: ${run[0]} is missing (apt-get install qemu-user), so the binary was checked with file only"
  exit 0
fi
bin="$PWD/$out"
dir=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$dir"' EXIT
printf 'package main\n\nfunc f() int {\n\treturn 1\n}\n' >"$dir/a.go"
tag=$(cd "$dir" && "${run[@]}" "$bin" read a.go | sed -n '1s/^\[a\.go#\([0-9A-F]\{4\}\)\]$/\1/p')
printf 'PUT 3*:\n+func f() int {\n+\treturn 2\n+}\n' | (cd "$dir" && "${run[@]}" "$bin" edit a.go --tag "$tag" >/dev/null)
if [ "$(cat "$dir/a.go")" != "$(printf 'package main\n\nfunc f() int {\n\treturn 2\n}')" ]; then
  echo "build-server: the $target binary did not apply a block edit; a.go is now:" >&2
  cat "$dir/a.go" >&2
  exit 1
fi
echo "$target: $("${run[@]}" "$bin" version) ran a block edit${run:+ under ${run[0]}}"

#!/usr/bin/env bash
# Builds hashline-ls for release targets into dist/servers/<os>_<arch>/,
# once per target; `make vsix`, `make release` and `make npm` all package
# these same binaries. Each is checked by scripts/checkbin (its machine, the
# libraries it loads, the grammars' entry points, on macOS its minimum
# version and signature) and, where this machine can run it, by a block
# edit (natively, under qemu-user, under Wine).
#
# Usage: build.sh [TARGET...]   TARGET is linux_amd64, linux_arm64,
#        darwin_arm64, darwin_amd64 or windows_amd64 (default: all five)
#
# Every target is linked with its C library inside (static-pie on Linux,
# -static on Windows; macOS has only its system libraries), so a binary runs
# on any release of its OS from the oldest it names. netgo and osusergo keep
# name and user lookups in Go. -trimpath leaves out this machine's paths; -w
# leaves out DWARF, and the symbol table stays, so checkbin can find every
# grammar. A missing cross compiler fails with the command that installs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux_amd64 linux_arm64 darwin_arm64 darwin_amd64 windows_amd64)

need() { # need TOOL INSTALL
  command -v "$1" >/dev/null || { echo "build: $1 is missing: $2" >&2; exit 1; }
}

# macOS: zig cc as the cross compiler, linked against text stubs (.tbd) of
# the three system libraries beside libSystem that Go's standard library
# imports (libresolv; CoreFoundation and Security for certificates), each
# listing only the symbols Go imports. The external linker runs zig with
# the target's version in its triple: that sets the binary's minimum macOS
# (12, Go's own), which -mmacosx-version-min does not.
darwin_env() { # darwin_env ARCH: sets cc, cxx and ldflags
  local zig triple
  zig=$(bash scripts/release/install-zig.sh | tail -1)
  case "$1" in
    arm64) triple=aarch64-macos.12.0 ;;
    amd64) triple=x86_64-macos.12.0 ;;
  esac
  local sdk="$work/sdk"
  if [ ! -d "$sdk" ]; then
    mkdir -p "$sdk/lib" "$sdk/Frameworks/CoreFoundation.framework" "$sdk/Frameworks/Security.framework"
    stub "/usr/lib/libresolv.9.dylib" >"$sdk/lib/libresolv.tbd"
    stub "/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation" \
      >"$sdk/Frameworks/CoreFoundation.framework/CoreFoundation.tbd"
    stub "/System/Library/Frameworks/Security.framework/Versions/A/Security" \
      >"$sdk/Frameworks/Security.framework/Security.tbd"
  fi
  extld="$work/ld-$1"
  printf '#!/bin/sh\nexec %s c++ -target %s "$@"\n' "$zig" "$triple" >"$extld"
  chmod +x "$extld"
  cc="$zig cc -target $triple" cxx="$zig c++ -target $triple"
  ldflags="-w -extld=$extld '-extldflags=-F $sdk/Frameworks -L $sdk/lib'"
  export ZIG_GLOBAL_CACHE_DIR="$root/.cache/zig-cache" ZIG_LOCAL_CACHE_DIR="$root/.cache/zig-cache"
}

# stub INSTALL_NAME: a .tbd for the library Go's standard library names by
# that path, exporting the symbols it imports from it (cgo_import_dynamic).
stub() {
  local syms
  syms=$(grep -rh "^//go:cgo_import_dynamic .* \"$1\"" "$(go env GOROOT)/src" | awk '{print "_" $3}' | sort -u | paste -sd, | sed 's/,/, /g')
  [ -n "$syms" ] || { echo "build: Go's standard library imports nothing from $1" >&2; exit 1; }
  printf -- "--- !tapi-tbd\ntbd-version: 4\ntargets: [ x86_64-macos, arm64-macos ]\ninstall-name: '%s'\nexports:\n  - targets: [ x86_64-macos, arm64-macos ]\n    symbols: [ %s ]\n...\n" "$1" "$syms"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for target in "${targets[@]}"; do
  goos=${target%_*} goarch=${target#*_}
  exe=hashline-ls flags=() run=()
  case "$target" in
    linux_amd64 | linux_arm64)
      triple=$([ "$goarch" = amd64 ] && echo x86_64-linux-gnu || echo aarch64-linux-gnu)
      if [ "$(go env GOHOSTOS)/$(go env GOHOSTARCH)" = "linux/$goarch" ]; then
        cc=gcc cxx=g++
      else
        cc=$triple-gcc cxx=$triple-g++
        run=("qemu-$([ "$goarch" = amd64 ] && echo x86_64 || echo aarch64)")
        need "${run[0]}" "apt-get install qemu-user"
      fi
      need "$cc" "apt-get install gcc-$triple"
      need "$cxx" "apt-get install g++-$triple"
      flags=(-buildmode=pie) ldflags="-w -linkmode=external -extldflags=-static-pie"
      ;;
    darwin_arm64 | darwin_amd64) darwin_env "$goarch" ;;
    windows_amd64)
      need wine "apt-get install wine wine64"
      cc=x86_64-w64-mingw32-gcc cxx=x86_64-w64-mingw32-g++ exe=hashline-ls.exe
      need "$cc" "apt-get install gcc-mingw-w64-x86-64"
      need "$cxx" "apt-get install g++-mingw-w64-x86-64"
      ldflags="-w -extldflags=-static"
      run=(bash "$root/scripts/release/wine.sh")
      ;;
    *) echo "build: unknown target $target: use linux_amd64, linux_arm64, darwin_arm64, darwin_amd64 or windows_amd64" >&2; exit 1 ;;
  esac
  out="dist/servers/$target/$exe"
  mkdir -p "dist/servers/$target"
  start=$(date +%s)
  # The grammars' generated C raises warnings that say nothing about this
  # build; they stay in the log unless the build fails.
  log="$work/build-$target.log"
  if ! CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC=$cc CXX=$cxx \
    go build -trimpath -tags netgo,osusergo "${flags[@]}" -ldflags "$ldflags" -o "$out" ./cmd/hashline-ls >"$log" 2>&1; then
    cat "$log" >&2
    echo "build: go build for $target failed (above)" >&2
    exit 1
  fi
  echo "$target: built $out ($(stat -c %s "$out") bytes) in $(( $(date +%s) - start )) s"
  go run ./scripts/checkbin -target "$target" "$out"
  if [ "$goos" = darwin ]; then
    echo "$target: no Mac here to run it; checked as a file only"
  else
    bash scripts/release/smoke.sh "$out" "${run[@]}"
  fi
done

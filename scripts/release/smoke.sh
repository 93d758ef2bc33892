#!/usr/bin/env bash
# Runs a built hashline-ls on a Go file: a read, then a block edit (PUT 3*:
# resolves the function through the Go grammar) with the read's tag, and
# checks the file afterwards. Every output goes through files, not pipes:
# Wine's helper processes keep a pipe open after the program exits.
#
# Usage: smoke.sh BINARY [RUNNER...]   RUNNER: qemu-aarch64, or bash wine.sh
set -euo pipefail
bin=$(realpath "$1")
shift
run=("$@")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/ws"
printf 'package main\n\nfunc f() int {\n\treturn 1\n}\n' >"$dir/ws/a.go"
printf 'PUT 3*:\n+func f() int {\n+\treturn 2\n+}\n' >"$dir/ops"

hl() { # hl OUT ARGS...: runs the binary in the workspace, stdout into OUT
  local out=$1
  shift
  if ! (cd "$dir/ws" && "${run[@]}" "$bin" "$@" <"$dir/in" >"$out" 2>"$dir/err"); then
    echo "smoke: ${run[*]:+${run[*]} }hashline-ls $* failed:" >&2
    cat "$out" "$dir/err" >&2
    exit 1
  fi
}
: >"$dir/in"
hl "$dir/version" version
hl "$dir/read" read a.go
tag=$(sed -n '1s/^\[a\.go#\([0-9A-F]\{4\}\)\]\r\{0,1\}$/\1/p' "$dir/read")
[ -n "$tag" ] || { echo "smoke: the read printed no [a.go#TAG] header:" >&2; cat "$dir/read" >&2; exit 1; }
cp "$dir/ops" "$dir/in"
hl "$dir/edit" edit a.go --tag "$tag"
if [ "$(cat "$dir/ws/a.go")" != "$(printf 'package main\n\nfunc f() int {\n\treturn 2\n}')" ]; then
  echo "smoke: the block edit did not land; a.go is now:" >&2
  cat "$dir/ws/a.go" >&2
  exit 1
fi
under=""
[ ${#run[@]} -eq 0 ] || under=" under $(basename "${run[-1]}" .sh)"
echo "$(basename "$(dirname "$bin")"): $(tr -d '\r' <"$dir/version") read a.go (tag $tag) and ran a block edit$under"

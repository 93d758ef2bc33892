#!/usr/bin/env bash
# `make release`: an archive per target in dist/, from the binaries
# `make servers` built, each holding one folder with the binary, README.md
# and LICENSE, and dist/SHA256SUMS over them:
#
#   dist/hashline-ls_<version>_<os>_<arch>.tar.gz  (.zip for Windows)
#
# Usage: archive.sh VERSION
# Files carry the last commit's time and no owner, so the same tree gives
# the same archives.
set -euo pipefail
cd "$(dirname "$0")/../.."
version=${1:?usage: archive.sh VERSION}
command -v zip >/dev/null || { echo "release: zip is missing (the Windows archive is a .zip): apt-get install zip" >&2; exit 1; }

stamp=$(git log -1 --format=%ct 2>/dev/null || date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -f dist/hashline-ls_*.tar.gz dist/hashline-ls_*.zip dist/SHA256SUMS

for target in linux_amd64 linux_arm64 darwin_arm64 darwin_amd64 windows_amd64; do
  exe=hashline-ls
  [ "$target" = windows_amd64 ] && exe=hashline-ls.exe
  built="dist/servers/$target/$exe"
  [ -f "$built" ] || { echo "release: $built is missing: make servers builds it" >&2; exit 1; }
  name="hashline-ls_${version}_$target"
  mkdir "$work/$name"
  cp "$built" "$work/$name/$exe"
  chmod 755 "$work/$name/$exe"
  cp README.md LICENSE "$work/$name/"
  chmod 644 "$work/$name/README.md" "$work/$name/LICENSE"
  find "$work/$name" -exec touch -d "@$stamp" {} +
  if [ "$target" = windows_amd64 ]; then
    out="dist/$name.zip"
    (cd "$work" && zip -q -X -r - "$name") >"$out"
    listed=$(unzip -Z1 "$out" | sort | paste -sd' ')
  else
    out="dist/$name.tar.gz"
    tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$name" | gzip -n -9 >"$out"
    listed=$(tar -tzf "$out" | sort | paste -sd' ')
  fi
  want="$name/ $name/LICENSE $name/README.md $name/$exe"
  [ "$listed" = "$want" ] || { echo "release: $out holds $listed, want $want" >&2; exit 1; }
  echo "release: $out: $(stat -c %s "$out") bytes"
done
(cd dist && sha256sum hashline-ls_*.tar.gz hashline-ls_*.zip >SHA256SUMS && sha256sum --quiet -c SHA256SUMS)
echo "release: dist/SHA256SUMS: $(wc -l <dist/SHA256SUMS) archives"

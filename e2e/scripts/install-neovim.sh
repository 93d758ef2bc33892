#!/usr/bin/env bash
# Installs Debian's Neovim from trixie (0.10.x) and sid (0.12.x or later)
# into e2e/.cache/neovim/{trixie,sid}, beside the machine's own Neovim, for
# the plugin's end-to-end tests. The machine's apt sources, lists and
# packages are left alone: each suite gets a private apt configuration
# (APT_CONFIG) whose sources, lists and cache live under the cache folder,
# its packages are fetched with `apt-get download` and unpacked with
# `dpkg -x`, and the binary is pointed at the glibc it came with by
# patchelf (bookworm's, unpacked the same way) rather than through
# LD_LIBRARY_PATH, which every child process would inherit. A build that
# runs is reused.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE="$PWD/.cache/neovim"
ARCH_LIB=usr/lib/x86_64-linux-gnu
# What neovim needs beyond bookworm, taken from the same suite as neovim;
# its tree-sitter library is looked up, since its soname moves.
DEPS=(neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 libluajit-5.1-common libmsgpack-c2
  libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv libutf8proc3)

for need in apt-get apt-cache dpkg; do
  command -v "$need" >/dev/null || { echo "install-neovim: $need is missing" >&2; exit 1; }
done
mkdir -p "$CACHE"
LOG="$CACHE/install.log"
: >"$LOG"

# apt_for SUITE: exports an APT_CONFIG that reads only SUITE's main.
apt_for() {
  local suite=$1 dir="$CACHE/apt/$1"
  mkdir -p "$dir/parts" "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/prefs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" >"$dir/sources.list"
  cat >"$dir/apt.conf" <<EOF
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "$dir/parts";
Dir::Etc::Preferences "$dir/prefs/none";
Dir::Etc::PreferencesParts "$dir/prefs";
Dir::State::Lists "$dir/lists";
Dir::Cache "$dir/cache";
Acquire::Languages "none";
EOF
  export APT_CONFIG="$dir/apt.conf"
  apt-get update -qq >>"$LOG" 2>&1 || { echo "install-neovim: apt-get update of $suite failed; see $LOG" >&2; tail -20 "$LOG" >&2; exit 1; }
}

# unpack SUITE DEST PKG...: downloads each package of SUITE and unpacks it into DEST.
unpack() {
  local suite=$1 dest=$2
  shift 2
  local debs="$CACHE/debs/$suite"
  rm -rf "$debs" "$dest"
  mkdir -p "$debs" "$dest"
  (cd "$debs" && apt-get download "$@" >>"$LOG" 2>&1) || {
    echo "install-neovim: apt-get download from $suite failed; see $LOG" >&2
    tail -20 "$LOG" >&2
    exit 1
  }
  for deb in "$debs"/*.deb; do
    dpkg -x "$deb" "$dest"
  done
}

start=$(date +%s)
patchelf="$CACHE/patchelf/usr/bin/patchelf"
for suite in trixie sid; do
  dest="$CACHE/$suite"
  if "$dest/usr/bin/nvim" --version >/dev/null 2>&1; then
    echo "Neovim from $suite already in $dest: $("$dest/usr/bin/nvim" --version | head -1)"
    continue
  fi
  if [ ! -x "$patchelf" ]; then
    apt_for bookworm
    unpack bookworm "$CACHE/patchelf" patchelf
  fi
  apt_for "$suite"
  ts=$(apt-cache depends neovim 2>>"$LOG" | sed -n 's/^ *Depends: \(libtree-sitter[0-9.]*\)$/\1/p' | head -1)
  [ -n "$ts" ] || { echo "install-neovim: $suite's neovim names no libtree-sitter" >&2; exit 1; }
  unpack "$suite" "$dest" "${DEPS[@]}" "$ts"
  "$patchelf" --set-interpreter "$dest/$ARCH_LIB/ld-linux-x86-64.so.2" --force-rpath \
    --set-rpath "$dest/$ARCH_LIB" "$dest/usr/bin/nvim"
  echo "Neovim from $suite installed in $dest: $("$dest/usr/bin/nvim" --version | head -1)"
done
rm -rf "$CACHE/debs" "$CACHE/apt"
echo "Neovim builds ready in $(( $(date +%s) - start )) s"

#!/bin/bash
# Build helper.

set -euo pipefail

build() {
  local target="$1"
  if [ -z "$target" ]; then
    echo "no target" >&2
    return 1
  fi
  go build "$target"
}

for f in *.go; do
  echo "$f"
done

case "$1" in
  build)
    build "$2"
    ;;
  *)
    echo "usage"
    ;;
esac

cat <<EOT
heredoc text
EOT

one() { echo one; }

#!/bin/bash
# Documents build; the interpreter line above stays out.
build() {
  echo build
}

# Separated by a blank line.

clean() {
  echo clean
}

# Above a one-line command.
set -e

# Above a multi-line command that is no function.
for f in a b; do
  echo "$f"
done

# Documents deploy.
# Its second line.
function deploy {
  echo deploy
}

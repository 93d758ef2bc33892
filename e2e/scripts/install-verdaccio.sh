#!/usr/bin/env bash
# Installs verdaccio, the npm registry the npx test starts on loopback to
# publish the packages `make npm` writes, into the git-ignored
# .cache/verdaccio at the repository root, once. 6.8.0 is the newest that
# runs on Node 20 (later ones want Node 22), once node-fetch is pinned to
# 2.7.0 in the installing package.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-npm-tool.sh "$PWD/.cache/verdaccio" '"overrides":{"node-fetch":"2.7.0"}' verdaccio@6.8.0
echo "verdaccio $("$PWD/.cache/verdaccio/node_modules/.bin/verdaccio" --version) in .cache/verdaccio"

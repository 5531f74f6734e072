#!/bin/sh
# Installs the npm packages the playground and its browser tests use (three.js,
# playwright-core; package.json at the project root pins them, with the glTF
# validator, so one install never removes another's packages) into the
# project's own node_modules. Quick when they are already there.
#   scripts/web-deps.sh          install when missing (needs npm and the registry)
#   scripts/web-deps.sh --check  exit 0 when installed, 2 when not
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
installed() {
    [ -f "$root/node_modules/three/build/three.module.js" ] &&
        [ -f "$root/node_modules/playwright-core/package.json" ]
}
if [ "${1:-}" = "--check" ]; then
    installed && exit 0
    exit 2
fi
installed && exit 0
command -v npm >/dev/null 2>&1 || { echo "npm not found: install Debian's npm" >&2; exit 2; }
npm install --prefix "$root" --no-audit --no-fund --no-package-lock

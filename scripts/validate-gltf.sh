#!/bin/sh
# Checks .gltf/.glb files with the Khronos glTF-Validator (the npm package
# gltf-validator), installed into the project's own node_modules.
#   scripts/validate-gltf.sh --install     install it (needs npm and the registry)
#   scripts/validate-gltf.sh FILE...       print each report's summary; exit 1 when
#                                          any file has errors, 2 when not installed
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
version=2.0.0-dev.3.10
if [ "${1:-}" = "--install" ]; then
    command -v npm >/dev/null 2>&1 || { echo "npm not found" >&2; exit 2; }
    npm install --prefix "$root" --no-save --no-audit --no-fund "gltf-validator@$version"
    exit 0
fi
if ! command -v node >/dev/null 2>&1 || [ ! -f "$root/node_modules/gltf-validator/package.json" ]; then
    echo "gltf-validator is not installed: run $0 --install" >&2
    exit 2
fi
exec node "$root/tests/js/validate.mjs" "$@"

#!/bin/sh
# Installs the Debian packages ikit's build, tests and tools need.
# Quick when they are already present; needs root (or sudo) otherwise.
set -eu

packages="cmake make gcc g++ clang libclang-rt-dev wasi-libc pkg-config libcjson-dev libxml2-dev libcairo2-dev python3-dev python3-pip python3-setuptools python3-numpy python3-cffi python3-pytest python3-distributed liborocos-kdl-dev lld libclang-rt-14-dev-wasm32 nodejs chromium"

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "ikit: installing Debian packages:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "ikit: missing packages:$missing; install them as root (apt-get install$missing)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null

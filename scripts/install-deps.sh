#!/bin/sh
# Installs the Debian packages ikit's build, tests and tools need.
# Quick when they are already present; needs root (or sudo) otherwise.
#   install-deps.sh           the packages every build needs
#   install-deps.sh blender   Debian's Blender (3.4 on Debian 12, some hundreds of MB
#                             with its libraries), for the add-on (blender/)
#                             and its tests; optional: `make test` asks for it
#                             and goes on without it where it cannot be installed
set -eu

if [ "${1:-}" = blender ]; then
    packages="blender"
else
    packages="cmake ninja-build make gcc g++ clang clang-format libclang-rt-dev wasi-libc pkg-config libcjson-dev libxml2-dev libcairo2-dev python3-dev python3-pip python3-venv python3-setuptools python3-numpy python3-cffi python3-pytest python3-distributed liborocos-kdl-dev libfcl-dev lld libclang-rt-14-dev-wasm32 nodejs chromium"
fi

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

# apt-get, waiting for the package manager's locks: another run holding
# them (an unattended upgrade, a second terminal) makes us say so and wait
# up to 10 minutes instead of failing at once (dpkg's lock through apt's
# own DPkg::Lock::Timeout; the package lists' lock, which that option does
# not cover in Debian 12's apt, by trying again every 5 seconds).
apt_waiting() {
    waited=0
    while :; do
        if out=$($sudo apt-get -o DPkg::Lock::Timeout=600 "$@" 2>&1); then
            return 0
        fi
        case "$out" in
        *"Could not get lock"* | *"Unable to lock"*)
            if [ "$waited" -ge 600 ]; then
                echo "$out" >&2
                return 1
            fi
            [ "$waited" -eq 0 ] &&
                echo "ikit: another package manager holds apt's lock; waiting for it (up to 10 minutes)..." >&2
            sleep 5
            waited=$((waited + 5))
            ;;
        *)
            echo "$out" >&2
            return 1
            ;;
        esac
    done
}

apt_waiting update -qq
# shellcheck disable=SC2086
apt_waiting install -y -qq --no-install-recommends $missing

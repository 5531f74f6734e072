#!/bin/sh
# A parent project that includes ikit's source tree with add_subdirectory
# and links ikit::ikit and ikit::io: ikit must build only its libraries (no
# tests, benchmarks or ikc, so no cairo), leave the parent's build type
# unset and put none of its own flags (warnings, C99) on the parent's targets.
#   embed.sh SOURCE_DIR CC
set -eu
source=$1 cc=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ikit-embed.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$work/parent"
cat >"$work/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(parent C)
add_subdirectory("$source" ikit)
add_executable(leg "$source/examples/two_bone_leg.c")
target_link_libraries(leg PRIVATE ikit::ikit)
add_executable(chain_info "$source/examples/chain_info.c")
target_link_libraries(chain_info PRIVATE ikit::io)
file(WRITE "\${CMAKE_BINARY_DIR}/parent-build-type.txt" "[\${CMAKE_BUILD_TYPE}]")
CMAKE
cmake -S "$work/parent" -B "$work/build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    >"$work/log" 2>&1 || { cat "$work/log"; fail "configuring the parent"; }
[ "$(cat "$work/build/parent-build-type.txt")" = "[]" ] ||
    fail "ikit set the parent's build type: $(cat "$work/build/parent-build-type.txt")"
grep -q "^CAIRO_FOUND" "$work/build/CMakeCache.txt" && fail "cairo was looked for"
targets=$(cmake --build "$work/build" --target help)
for t in ikit ikit_io leg chain_info; do
    echo "$targets" | grep -q "^\.\.\. $t\$" || fail "no target $t"
done
extra=$(echo "$targets" | grep -E '^\.\.\. (test_|bench_|ikc|example_|ikit_headers)' || true)
[ -z "$extra" ] || fail "ikit built more than its libraries: $extra"
leg_command=$(grep '"command".*two_bone_leg\.c' "$work/build/compile_commands.json")
case $leg_command in
*-Wshadow* | *-std=* | *-Werror*) fail "ikit's flags reached the parent's target: $leg_command" ;;
esac

cmake --build "$work/build" --target leg chain_info >>"$work/log" 2>&1 || { cat "$work/log"; fail "building"; }
out=$("$work/build/leg") || { echo "$out"; fail "leg: the ankle did not reach"; }
echo "$out" | grep -q "^ankle reached the target\$" || { echo "$out"; fail "leg"; }
out=$("$work/build/chain_info" "$source/examples/tentacle.chain") || fail "chain_info: $out"
[ "$out" = "tentacle: 12 joints, 1 targets; tip at rest at (0.000, 3.300, 0.000)" ] || fail "chain_info: $out"
echo "embed test passed"

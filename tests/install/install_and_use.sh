#!/bin/sh
# Installs this build of ikit into a temporary prefix, then builds the
# README's example (examples/two_bone_leg.c) against the installed copy,
# as users do: with find_package(ikit) in CMake and with pkg-config and cc,
# each against the static and (when built with IKIT_SHARED) the shared
# libraries. Runs each program and checks that the ankle reached its target,
# that it reports the version and scalar type of this build, and how it is
# linked (a static program needs no libikit.so; a shared one does).
#   install_and_use.sh BUILD_DIR EXAMPLES_DIR CC VERSION DOUBLE(0|1) SHARED(0|1)
set -eu
build=$1 examples=$2 cc=$3 version=$4 double=$5 shared=$6

work=$(mktemp -d "${TMPDIR:-/tmp}/ikit-install.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
libdir=$(dirname "$(find "$prefix" -name ikit.pc)")/..
for f in include/ikit/ikit.h include/ikit/version.h include/ikit/gltf.h; do
    [ -f "$prefix/$f" ] || fail "$f not installed"
done
for f in libikit.a libikit_io.a; do
    [ -f "$libdir/$f" ] || fail "$f not installed"
done
[ -f "$libdir/cmake/ikit/ikitConfig.cmake" ] || fail "CMake package not installed"
kinds=static
if [ "$shared" = 1 ]; then
    kinds="static shared"
    minor=$(echo "$version" | cut -d. -f1-2)
    for lib in libikit libikit_io; do
        [ -f "$libdir/$lib.so.$version" ] || fail "$lib.so.$version not installed"
        [ -L "$libdir/$lib.so.$minor" ] || fail "$lib.so.$minor (the soname link) not installed"
        [ -L "$libdir/$lib.so" ] || fail "$lib.so (the link for -l) not installed"
    done
else
    echo "note: shared libraries not built (configure with -DIKIT_SHARED=ON); checking static only"
fi
if [ "$double" = 1 ]; then scalar=double; else scalar=float; fi

# check_linking PROGRAM KIND LIBRARY: a static program needs no LIBRARY.so, a shared one does.
check_linking() {
    needs=$(readelf -d "$1" | grep NEEDED || true)
    case $2 in
    static) echo "$needs" | grep -q "$3" && fail "$1 should not need $3.so: $needs" ;;
    shared) echo "$needs" | grep -q "$3.so.$minor" || fail "$1 should need $3.so.$minor: $needs" ;;
    esac
    return 0
}

# check_program NAME KIND: runs it, checks its output and its dependencies.
check_program() {
    program=$1 kind=$2
    out=$("$program") || { echo "$out"; fail "$program: the ankle did not reach"; }
    echo "$out" | grep -q "^ikit $version ($scalar), headers $version\$" || { echo "$out"; fail "$program: version or scalar"; }
    echo "$out" | grep -q "^ankle reached the target\$" || { echo "$out"; fail "$program: no reach"; }
    check_linking "$program" "$kind" libikit
    echo "ok: $program ($kind): $(echo "$out" | sed -n 2p)"
}

for kind in $kinds; do
    # CMake: the example's own CMakeLists.txt, as a user would build it.
    if [ "$kind" = shared ]; then shared_libs=ON; else shared_libs=OFF; fi
    cmake -S "$examples" -B "$work/cmake-$kind" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
        -DBUILD_SHARED_LIBS=$shared_libs -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" \
        >"$work/cmake-$kind.log" 2>&1 || { cat "$work/cmake-$kind.log"; fail "find_package(ikit) ($kind)"; }
    cmake --build "$work/cmake-$kind" >>"$work/cmake-$kind.log" 2>&1 ||
        { cat "$work/cmake-$kind.log"; fail "building the example with CMake ($kind)"; }
    check_program "$work/cmake-$kind/two_bone_leg" "$kind"
    # ikit::io: the tentacle has 12 joints, the tip 3.3 m above the root.
    out=$("$work/cmake-$kind/chain_info" "$examples/tentacle.chain") || fail "chain_info ($kind): $out"
    [ "$out" = "tentacle: 12 joints, 1 targets; tip at rest at (0.000, 3.300, 0.000)" ] || fail "chain_info ($kind): $out"
    check_linking "$work/cmake-$kind/chain_info" "$kind" libikit_io
    echo "ok: chain_info ($kind): $out"

    # pkg-config and cc. Static: the whole program linked statically.
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    [ "$(pkg-config --modversion ikit)" = "$version" ] || fail "pkg-config --modversion ikit"
    if [ "$kind" = static ]; then
        link="-static $(pkg-config --static --libs ikit)"
    else
        link="$(pkg-config --libs ikit) -Wl,-rpath,$(pkg-config --variable=libdir ikit)"
    fi
    # shellcheck disable=SC2046,SC2086
    "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror $(pkg-config --cflags ikit) "$examples/two_bone_leg.c" \
        -o "$work/pc-$kind" $link || fail "building the example with pkg-config ($kind)"
    check_program "$work/pc-$kind" "$kind"
done

# ikit-io through pkg-config, linked as the linker chooses (shared when
# installed; Debian ships cJSON shared only, so no fully static program).
# shellcheck disable=SC2046
"$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror $(pkg-config --cflags ikit-io) "$examples/chain_info.c" \
    -o "$work/pc-chain_info" $(pkg-config --libs ikit-io) -Wl,-rpath,"$(pkg-config --variable=libdir ikit-io)" ||
    fail "building chain_info with pkg-config ikit-io"
out=$("$work/pc-chain_info" "$examples/tentacle.chain") || fail "chain_info (pkg-config): $out"
[ "$out" = "tentacle: 12 joints, 1 targets; tip at rest at (0.000, 3.300, 0.000)" ] || fail "chain_info (pkg-config): $out"
echo "ok: chain_info (pkg-config ikit-io): $out"

echo "install test passed"

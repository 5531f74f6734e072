#!/bin/sh
# Builds the browser playground into OUT (default build/web): the core layers,
# the chain-file reader and web/ikit_web.c compiled to one WebAssembly module
# with Debian's clang and wasm-ld (wasi-libc for libc and libm; no
# Emscripten), then the page, its JavaScript and three.js (from the
# project's node_modules, scripts/web-deps.sh) copied beside it.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/web}
cd "$root"
command -v clang >/dev/null 2>&1 || { echo "clang not found (Debian: clang)" >&2; exit 2; }
command -v wasm-ld >/dev/null 2>&1 || command -v wasm-ld-14 >/dev/null 2>&1 ||
    { echo "wasm-ld not found (Debian: lld)" >&2; exit 2; }
./scripts/web-deps.sh

# The library sources: every core layer (the rig layer's full_body.c and
# body_mass.c, the page's full-body mode, among them), and of the io layer the chain-file,
# BVH, glTF and URDF readers (URDF on the io layer's own XML reader) with the
# asset loader and what they need (the glTF writer uses cJSON: left out).
sources=""
for f in src/math/*.c src/skeleton/*.c src/anim/*.c src/solve/*.c src/rig/*.c src/robot/*.c src/motion/*.c; do
    [ -e "$f" ] && sources="$sources $f"
done
sources="$sources
src/io/chain_file.c src/io/chain_file_solve.c src/io/text_scan.c src/io/rest_check.c
src/io/file_read.c web/ikit_web.c web/planar_keys.c web/body_clip.c web/bench_cases.c web/body_full.c
    src/io/bvh_read.c src/io/bvh_pose.c web/robot_arm.c web/robot_cell.c src/io/urdf_chain.c src/io/urdf_read.c src/io/xml_read.c web/body_limbs.c
    web/body_mesh.c web/body_floor.c web/figure_file.c src/io/asset.c src/io/gltf_read.c src/io/gltf_accessor.c
    src/io/gltf_anim.c src/io/gltf_mesh.c src/io/gltf_skin.c src/io/json_doc.c src/io/big_block.c src/io/utf8.c"
obj="$out/obj"
mkdir -p "$obj" "$out/three"

# Compile what changed (an object older than its source or any header is rebuilt).
cflags="--target=wasm32-wasi -std=c99 ${IKIT_WASM_OPT:--O2} -fno-math-errno -Wall -Wextra -Wpedantic -Werror -Iinclude"
newest_header=$(ls -t include/ikit/*.h src/*/*.h web/*.h | head -n 1)
objects=""
for f in $sources; do
    o="$obj/$(echo "$f" | tr / _).o"
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then
        # shellcheck disable=SC2086
        clang $cflags -c "$f" -o "$o"
    fi
    objects="$objects $o"
done

# Link: a WASI reactor the page calls into (no main; _initialize, called once,
# runs wasi-libc's constructors, which the io layer's file readers bring: as a
# command module every export ran them on each call), the ikw_ functions
# exported by name, memory exported, unused code dropped.
# shellcheck disable=SC2086
clang --target=wasm32-wasi -O2 -mexec-model=reactor -Wl,--gc-sections -Wl,--strip-all \
    -Wl,-z,stack-size=262144 -o "$out/ikit.wasm" $objects -lm

cp web/index.html web/style.css web/*.js "$out/"
cp examples/tail.chain "$out/tail.chain"
cp examples/six_axis_arm.urdf "$out/six_axis_arm.urdf"
cp node_modules/three/build/three.module.js node_modules/three/build/three.core.js "$out/three/"
cp node_modules/three/LICENSE "$out/three/LICENSE"
mkdir -p "$out/three/addons/loaders" "$out/three/addons/utils"
cp node_modules/three/examples/jsm/loaders/GLTFLoader.js "$out/three/addons/loaders/"
cp node_modules/three/examples/jsm/utils/BufferGeometryUtils.js node_modules/three/examples/jsm/utils/SkeletonUtils.js \
    "$out/three/addons/utils/"
echo "built $out/ikit.wasm ($(wc -c <"$out/ikit.wasm") bytes)"

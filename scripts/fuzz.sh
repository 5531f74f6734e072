#!/bin/sh
# Builds the libFuzzer entry points with clang and runs each for a bounded
# time, seeded from the real assets in ../shared/data (when present) and the
# project's own examples. Usage: scripts/fuzz.sh [build-dir] [seconds-each]
set -eu
build=${1:-build}/fuzz
seconds=${2:-30}
data=${IKIT_DATA:-../shared/data}

CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKIT_FUZZ=ON \
    -DIKIT_TESTS=OFF -DIKIT_BENCH=OFF >/dev/null
cmake --build "$build" -j 2

# Motion capture files are megabytes of frames; the fuzzer learns faster from
# their hierarchy with the first three frames, written into the build tree.
small_bvh_seeds() {
    mkdir -p "$build/seeds"
    for f in "$data"/bvh/*.bvh; do
        [ -f "$f" ] || continue
        out="$build/seeds/$(basename "$f")"
        awk 'BEGIN { keep = -1 }
             /^Frames:/ { print "Frames: 3"; next }
             /^Frame Time:/ { print; keep = 3; next }
             keep < 0 { print; next }
             keep > 0 { print; keep-- }' "$f" >"$out"
        echo "$out"
    done
}

# Seed files for an entry point, by its name (files of 1 MB or more would
# slow every run down; the smaller rigs cover the same structures).
seeds_for() {
    case "$1" in
        fuzz_bvh) small_bvh_seeds ;;
        fuzz_gltf) find "$data"/gltf -name '*.gltf' -size -1024k 2>/dev/null || true ;;
        fuzz_glb) find "$data"/gltf -name '*.glb' -size -1024k 2>/dev/null || true ;;
        fuzz_chain) ls examples/*.chain 2>/dev/null || true ;;
        fuzz_urdf) ls "$data"/urdf/*.urdf 2>/dev/null || true ;;
    esac
}

found=0
for bin in "$build"/fuzz_*; do
    [ -x "$bin" ] || continue
    found=1
    name=$(basename "$bin")
    corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    for f in $(seeds_for "$name"); do cp "$f" "$corpus/" 2>/dev/null || true; done
    echo "==> $name for ${seconds}s"
    "$bin" -max_total_time="$seconds" -max_len=4194304 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=0 "$corpus" 2>"$build/$name.log" ||
        { tail -n 40 "$build/$name.log"; exit 1; }
    grep -E "^Done [0-9]+ runs" "$build/$name.log" | tail -n 1 || true
done
[ "$found" -eq 1 ] || echo "no fuzz entry points yet"

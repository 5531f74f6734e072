#!/bin/sh
# Builds the libFuzzer entry points with clang and runs each one, from a seed
# corpus the project writes itself (build/fuzz/make_fuzz_seeds: tiny valid
# glTF, GLB, BVH, chain, mapping, height-field and URDF files, skins and clips
# included), the project's examples, the real assets under 16 KB in
# ../shared/data (when present: a 50 KB GLB alone cut fuzz_glb from 38,000
# to 4,000 executions a second), and a dictionary of the format's keywords
# (fuzz/*.dict).
#
# Usage: scripts/fuzz.sh [build-dir] [seconds-each]
#   FUZZ_RUNS=N in the environment runs each entry point for N executions
#   instead of a time (make fuzz-long: 10 million each); FUZZ_ONLY=fuzz_glb
#   runs that one alone.
# Prints each entry point's execution count and rate at the end.
set -eu
build=${1:-build}/fuzz
seconds=${2:-30}
runs=${FUZZ_RUNS:-}
only=${FUZZ_ONLY:-}
data=${IKIT_DATA:-../shared/data}

CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKIT_FUZZ=ON \
    -DIKIT_TESTS=OFF -DIKIT_BENCH=OFF >/dev/null
cmake --build "$build" -j 2
rm -rf "$build/seeds"
"$build/make_fuzz_seeds" "$build/seeds"

# Motion capture files are megabytes of frames; the fuzzer learns faster from
# their hierarchy with the first three frames, written into the build tree.
small_bvh_seeds() {
    mkdir -p "$build/seeds/real_bvh"
    for f in "$data"/bvh/*.bvh; do
        [ -f "$f" ] || continue
        out="$build/seeds/real_bvh/$(basename "$f")"
        awk 'BEGIN { keep = -1 }
             /^Frames:/ { print "Frames: 3"; next }
             /^Frame Time:/ { print; keep = 3; next }
             keep < 0 { print; next }
             keep > 0 { print; keep-- }' "$f" >"$out"
        echo "$out"
    done
}

# Seed files for an entry point, by its name: the generated ones first.
seeds_for() {
    ls "$build/seeds/$1"/* 2>/dev/null || true
    case "$1" in
        fuzz_bvh) small_bvh_seeds ;;
        fuzz_gltf) find "$data"/gltf -name '*.gltf' -size -16k 2>/dev/null || true ;;
        fuzz_json) ls "$build/seeds/fuzz_gltf"/* 2>/dev/null || true ;;
        fuzz_glb) find "$data"/gltf -name '*.glb' -size -16k 2>/dev/null || true ;;
        fuzz_chain) ls examples/*.chain 2>/dev/null || true ;;
        fuzz_urdf) find "$data"/urdf -name '*.urdf' -size -16k 2>/dev/null || true ;;
        fuzz_stl) find "$data"/urdf -name '*.stl' -size -64k 2>/dev/null || true ;;
        fuzz_scene) ls examples/*.scene.json examples/*.moveit.scene 2>/dev/null || true ;;
        fuzz_xml)
            ls "$build/seeds/fuzz_urdf"/* examples/*.urdf 2>/dev/null || true
            find "$data"/urdf -name '*.urdf' -size -16k 2>/dev/null || true
            ;;
    esac
}

dict_for() {
    case "$1" in
        fuzz_gltf | fuzz_glb) echo fuzz/gltf.dict ;;
        *) echo "fuzz/${1#fuzz_}.dict" ;;
    esac
}

if [ -n "$runs" ]; then limit="-runs=$runs"; else limit="-max_total_time=$seconds"; fi
found=0
summary=""
for bin in "$build"/fuzz_*; do
    [ -x "$bin" ] || continue
    found=1
    name=$(basename "$bin")
    [ -z "$only" ] || [ "$only" = "$name" ] || continue
    corpus="$build/corpus/$name"
    dict=$(dict_for "$name")
    mkdir -p "$corpus"
    for f in $(seeds_for "$name"); do cp "$f" "$corpus/" 2>/dev/null || true; done
    [ -f "$dict" ] && dict_option="-dict=$dict" || dict_option=""
    echo "==> $name ($limit)"
    # stderr of the target closed (-close_fd_mask=2): readers that print
    # every rejected input (the height field) would spend their time there;
    # libFuzzer keeps its own report.
    "$bin" "$limit" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -close_fd_mask=2 $dict_option \
        -print_final_stats=1 "$corpus" 2>"$build/$name.log" ||
        { tail -n 40 "$build/$name.log"; exit 1; }
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$name.log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$build/$name.log" | tail -n 1)
    echo "    $execs executions, $rate per second"
    summary="$summary$name $execs executions, $rate/s
"
done
[ "$found" -eq 1 ] || echo "no fuzz entry points yet"
printf '%s' "$summary" >"$build/summary.txt"

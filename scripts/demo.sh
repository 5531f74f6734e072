#!/bin/sh
# `make demo` after `make deps`: everything built in BUILD/release (the
# Release build `make all` makes) showing one progress line instead of the
# compiler's 700, which go to BUILD/release/build.log (on a failure its path
# and last lines are shown); then `ikc demo -o out`, whose own output ends
# with what it wrote where and what to open first; then where ikc and the
# log are.
#   demo.sh [BUILD] [JOBS]
set -eu
build=${1:-build}
jobs=${2:-2}
dir=$build/release
log=$dir/build.log
status=$dir/build.status
mkdir -p "$dir"

# On a terminal a short progress line (it must not wrap, or the carriage
# return would redraw only its last row) is redrawn in place; elsewhere (a CI
# log, a pipe) only the result follows.
tty=0
[ -t 1 ] && tty=1
echo "ikit: building everything in $dir; the compiler's output goes to $log"
[ "$tty" = 1 ] && printf 'ikit: building ...'
start=$(date +%s)

fail() {
    [ "$tty" = 1 ] && printf '\n'
    echo "ikit: $1 failed. The full log is $log; its last lines:" >&2
    tail -n 25 "$log" >&2
    exit 1
}

# The percentage from make's "[ 45%] Building C object ..." lines.
progress() {
    while IFS= read -r text; do
        case $text in
        "["*"%]"*)
            if [ "$tty" = 1 ]; then
                pct=${text%%\%]*}
                pct=${pct##*[ []}
                printf '\rikit: building ... %3s%%' "$pct"
            fi
            ;;
        esac
    done
}

cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1 || fail "configuring the build (cmake)"
rm -f "$status"
# Run from `make demo`, the build's own make would think itself a sub-make
# and fill the log with "Entering directory" lines: it is told it is not.
unset MAKELEVEL MAKEFLAGS MFLAGS
{
    code=0
    cmake --build "$dir" -j "$jobs" 2>&1 || code=$?
    echo "$code" >"$status"
} | tee -a "$log" | progress
[ "$(cat "$status" 2>/dev/null)" = 0 ] || fail "the build"
rm -f "$status"
seconds=$(($(date +%s) - start))
done_line="ikit: built in $((seconds / 60)) min $((seconds % 60)) s"
if [ "$tty" = 1 ]; then printf '\r%s\033[K\n' "$done_line"; else echo "$done_line"; fi
echo

ikc=$dir/ikc
case $ikc in /*) ;; *) ikc=./$ikc ;; esac
code=0
"$ikc" demo -o out || code=$?
if [ "$code" != 0 ]; then
    echo "ikit: ikc demo failed (exit code $code; see the messages above)" >&2
    exit "$code"
fi
echo "The tool itself is $ikc ($ikc --help lists its commands); the build's log is $log."

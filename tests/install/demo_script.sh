#!/bin/sh
# scripts/demo.sh (what `make demo` runs after `make deps`) on a small
# stand-in project: a dozen C files and an `ikc` that records how it was
# called, built by the script's own cmake lines. Checks what a newcomer sees:
#   - a build that works: two lines about the build (where its log is, how
#     long it took), none of the compiler's; the compiler's lines in the log
#     (and no sub-make's "Entering directory" lines among them);
#     then `ikc demo -o out` run, its output shown, and where ikc and the log are;
#   - on a terminal (through `script`), the progress line redrawn with
#     percentages up to 100 %;
#   - a source that does not compile: a failing exit, the log's path and the
#     compiler's error among the last lines shown, ikc not run;
#   - ikc failing: its exit code passed on, with a line saying so.
#   demo_script.sh SOURCE_DIR
set -eu
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/ikit-demo-script.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }
proj=$work/proj
mkdir -p "$proj/scripts"
cp "$src/scripts/demo.sh" "$proj/scripts/demo.sh"
cd "$proj"

parts=""
i=0
while [ $i -lt 12 ]; do
    printf 'int part%d(void) { return %d; }\n' $i $i >"part$i.c"
    parts="$parts part$i.c"
    i=$((i + 1))
done
cat >ikc.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int part0(void);
int main(int argc, char **argv) {
    FILE *f = fopen("ikc-args", "w");
    int i;
    for (i = 1; i < argc; ++i) fprintf(f, "%s%s", i > 1 ? " " : "", argv[i]);
    fclose(f);
    printf("stand-in demo ran\n");
    return getenv("STANDIN_EXIT") ? atoi(getenv("STANDIN_EXIT")) : part0();
}
EOF
cat >CMakeLists.txt <<EOF
cmake_minimum_required(VERSION 3.16)
project(standin C)
add_library(parts STATIC $parts)
add_executable(ikc ikc.c)
target_link_libraries(ikc PRIVATE parts)
EOF

# 1. A build that works, its output not a terminal, run as `make demo` runs
# it (under a make: MAKELEVEL set).
code=0
MAKELEVEL=1 MAKEFLAGS=w sh scripts/demo.sh build 2 >out.txt 2>&1 || code=$?
[ "$code" = 0 ] || { cat out.txt; fail "demo.sh exited $code on a project that builds"; }
log=build/release/build.log
[ "$(grep -c 'Building C object' "$log")" -ge 13 ] || fail "the log lacks the compiler's lines: $(cat "$log")"
! grep -q 'Entering directory' "$log" || fail "the build's make took itself for a sub-make: $(cat "$log")"
! grep -q 'Building C object\|Entering directory' out.txt || fail "the compiler's lines reached the screen: $(cat out.txt)"
[ "$(sed -n 1p out.txt)" = "ikit: building everything in build/release; the compiler's output goes to $log" ] ||
    fail "first line: $(sed -n 1p out.txt)"
sed -n 2p out.txt | grep -q '^ikit: built in [0-9]* min [0-9]* s$' || fail "second line: $(sed -n 2p out.txt)"
[ "$(cat ikc-args)" = "demo -o out" ] || fail "ikc ran as 'ikc $(cat ikc-args)', not 'ikc demo -o out'"
grep -q '^stand-in demo ran$' out.txt || fail "the demo's own output is not shown"
tail -n 1 out.txt | grep -q "^The tool itself is ./build/release/ikc .*the build's log is $log\.$" ||
    fail "last line: $(tail -n 1 out.txt)"
[ "$(wc -l <out.txt)" -le 6 ] || fail "$(wc -l <out.txt) lines around a one-line demo: $(cat out.txt)"

# 2. On a terminal: the progress line, redrawn, reaches 100 %.
if command -v script >/dev/null 2>&1; then
    rm -rf build
    script -qec "sh scripts/demo.sh build 2" /dev/null >tty.txt 2>&1 || { cat tty.txt; fail "demo.sh on a terminal"; }
    tr '\r' '\n' <tty.txt >tty-lines.txt
    grep -q '^ikit: building \.\.\. *100%' tty-lines.txt || fail "no progress line reaching 100 %: $(cat tty-lines.txt)"
    [ "$(grep -c '^ikit: building \.\.\. *[0-9]*%' tty-lines.txt)" -ge 5 ] || fail "the progress line was not redrawn"
    ! grep -q 'Building C object' tty.txt || fail "the compiler's lines reached the terminal"
else
    echo "note: script (util-linux) not found; the terminal's progress line is not checked"
fi

# 3. A source that does not compile.
echo 'int broken = ;' >>part7.c
rm -f ikc-args
code=0
sh scripts/demo.sh build 2 >out.txt 2>err.txt || code=$?
[ "$code" != 0 ] || fail "demo.sh exited 0 with a broken source"
grep -q "^ikit: the build failed\. The full log is $log; its last lines:$" err.txt || fail "no log path: $(cat err.txt)"
grep -q 'part7\.c.*error' err.txt || fail "the compiler's error is not among the lines shown: $(cat err.txt)"
[ ! -e ikc-args ] || fail "ikc ran after a failed build"
sed -i '$d' part7.c

# 4. ikc failing.
code=0
STANDIN_EXIT=6 sh scripts/demo.sh build 2 >out.txt 2>err.txt || code=$?
[ "$code" = 6 ] || fail "demo.sh exited $code when ikc demo exited 6"
grep -q '^ikit: ikc demo failed (exit code 6' err.txt || fail "ikc's failure is not said: $(cat err.txt)"
echo "demo.sh: quiet build with its log, progress on a terminal, failures shown with the log's last lines"

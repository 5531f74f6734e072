#!/bin/sh
# scripts/install-deps.sh (what `make demo` and `make test` run first) while
# another package manager holds apt's lock, with stand-ins for dpkg-query
# (one package missing), apt-get (the lock held for its first N calls) and
# sleep (no wait) first on PATH:
#   - held for 3 calls: says once that it waits, tries again, installs, exit 0;
#   - held for good: gives up after its 10 minutes (120 tries 5 s apart) with
#     apt's own message and a failing exit;
#   - another apt failure: apt's message at once, a failing exit, no waiting.
#   apt_lock_wait.sh SOURCE_DIR
set -eu
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/ikit-apt-lock.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
    echo "skipped: the script's root path is tested (not running as root)"
    exit 0
fi
mkdir "$work/bin"
cat >"$work/bin/dpkg-query" <<'STUB'
#!/bin/sh
# every package installed but clang-format
for last; do :; done
[ "$last" = clang-format ] && exit 1
echo "install ok installed"
STUB
cat >"$work/bin/apt-get" <<'STUB'
#!/bin/sh
# the lock held for the first $HELD calls (-1: always), then $THEN
calls=$(($(cat "$WORK/calls" 2>/dev/null || echo 0) + 1))
echo "$calls" >"$WORK/calls"
echo "apt-get $*" >>"$WORK/log"
if [ "$HELD" -lt 0 ] || [ "$calls" -le "$HELD" ]; then
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
    exit 100
fi
[ "$THEN" = ok ] && exit 0
echo "E: Unable to locate package clang-format" >&2
exit 100
STUB
cat >"$work/bin/sleep" <<'STUB'
#!/bin/sh
echo "sleep $*" >>"$WORK/log"
STUB
chmod +x "$work/bin/"*

# run HELD THEN: the script's exit code in $work/rc, its stderr in $work/err
run() {
    rm -f "$work/calls" "$work/log"
    status=0
    WORK=$work HELD=$1 THEN=$2 PATH="$work/bin:$PATH" sh "$src/scripts/install-deps.sh" >"$work/out" 2>"$work/err" ||
        status=$?
    echo "$status" >"$work/rc"
}

run 3 ok
[ "$(cat "$work/rc")" -eq 0 ] || fail "lock held 3 times: exit $(cat "$work/rc"): $(cat "$work/err")"
[ "$(grep -c "waiting for it" "$work/err")" -eq 1 ] || fail "lock held 3 times: not said once: $(cat "$work/err")"
grep -q "apt-get .*install .*clang-format" "$work/log" || fail "lock held 3 times: never installed: $(cat "$work/log")"
[ "$(grep -c '^sleep' "$work/log")" -eq 3 ] || fail "lock held 3 times: $(grep -c '^sleep' "$work/log") waits"

run -1 ok
[ "$(cat "$work/rc")" -ne 0 ] || fail "lock held for good: exit 0"
grep -q "Could not get lock" "$work/err" || fail "lock held for good: apt's message not shown: $(cat "$work/err")"
waits=$(grep -c '^sleep 5' "$work/log")
[ "$waits" -eq 120 ] || fail "lock held for good: $waits waits of 5 s, expected 120 (10 minutes)"

run 0 fail
[ "$(cat "$work/rc")" -ne 0 ] || fail "apt failing otherwise: exit 0"
grep -q "Unable to locate package" "$work/err" || fail "apt failing otherwise: message not shown: $(cat "$work/err")"
grep -q "waiting" "$work/err" && fail "apt failing otherwise: said it waits"
grep -q '^sleep' "$work/log" && fail "apt failing otherwise: waited"
echo "apt lock test passed"

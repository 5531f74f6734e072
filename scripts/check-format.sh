#!/bin/sh
# Every C source and header the project tracks, checked against .clang-format
# (clang-format 14, Debian 12). With `fix`: reformatted in place (make format).
#   scripts/check-format.sh [fix]
set -eu
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
    echo "clang-format not found (make deps installs it)" >&2
    exit 1
fi
if [ "${1:-}" = fix ]; then
    git ls-files '*.c' '*.h' | xargs clang-format -i
    exit 0
fi
# clang-format --dry-run reports each change as FILE:LINE:COLUMN: warning: ...
unformatted=$(git ls-files '*.c' '*.h' | xargs clang-format --dry-run 2>&1 |
    sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$unformatted" ]; then
    echo "$unformatted" >&2
    echo "these files are not formatted as .clang-format says; make format fixes them" >&2
    exit 1
fi
echo "clang-format: every C file formatted"

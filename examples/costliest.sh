#!/bin/sh
# The five workloads that cost the most this month, most first: compute is
# GPU-hours x 16 + core-hours, as sp-group --rollup ranks them.
#
#   examples/costliest.sh [--demo] [sp-fetch option ...]
#
# Your own work by default; add --all-users or -u user for others'.
# --demo reads the built-in synthetic history instead (the demo is a
# fixed history, so "this month" does not apply to it).  A stage that
# fails stops the script with its own message and exit status 2: each
# step writes a file, so no failure hides behind a pipe.
set -eu

if [ "${1-}" = --demo ]; then
	shift
	fetch() { sp-fetch --demo "$@"; }
else
	fetch() { sp-fetch -S "$(date +%Y-%m-01)" "$@"; }
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

fetch "$@" >"$tmp/jobs" || exit 2
sp-group --rollup "$tmp/jobs" >"$tmp/rollup" || exit 2

# Columns are found by their names in the header, never by position.
awk -F '\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
NR > 6 { exit }
{
	printf "%-24s %-8s %5d runs %9.1f GPU-h %9.1f core-h %5.1f%%\n",
	    $c["label"], $c["user"], $c["runs"], $c["gpu_h"], $c["core_h"],
	    100 * $c["share"]
}' "$tmp/rollup"

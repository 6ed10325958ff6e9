#!/bin/sh
# Every workload whose newest --mem is below the peak its own history
# reached: the next run asks for less memory than an earlier run used.
#
#   examples/mem-below-peak.sh [--demo] [sp-fetch option ...]
#
# A peak counts only where MaxRSS stayed within that run's limit: a
# figure above a limit that did not kill the job is not a footprint
# (MaxRSS reads high where shared pages are counted once per process).
# sp-size --mem says what to ask for instead (the peak + 30%).
set -eu

if [ "${1-}" = --demo ]; then
	shift
	fetch() { sp-fetch --demo "$@"; }
else
	fetch() { sp-fetch -S now-30days "$@"; }
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# Each step into a file: a stage that fails stops the script (exit 2,
# its own message), never an empty answer behind a pipe.
fetch "$@" >"$tmp/jobs" || exit 2
sp-group "$tmp/jobs" >"$tmp/grouped" || exit 2

awk -F '\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["open"] == 1 { next }
{
	k = $c["workload_key"]
	rss = $c["max_rss_b"]
	limit = $c["mem_limit_node_b"]
	if (rss != "" && limit != "" && rss + 0 <= limit + 0 && rss + 0 > peak[k]) {
		peak[k] = rss + 0
		peak_job[k] = $c["jobid"]
	}
	# The newest run: the latest submit, then the highest job id.
	when = $c["submit"] SUBSEP sprintf("%020d", $c["jobid_raw"])
	if (!(k in newest) || when > newest[k]) {
		newest[k] = when
		asked[k] = limit
		asked_job[k] = $c["jobid"]
	}
}
END {
	gib = 1024 * 1024 * 1024
	for (k in peak)
		if (asked[k] != "" && asked[k] + 0 < peak[k])
			printf "%s\tnewest --mem %.1f GiB (job %s) is below the peak of %.1f GiB (job %s)\n",
			    k, asked[k] / gib, asked_job[k], peak[k] / gib, peak_job[k]
}' "$tmp/grouped" | LC_ALL=C sort

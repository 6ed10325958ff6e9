#!/bin/sh
# slurmpast --json picked apart with jq(1): the critical failures across
# runs with what to do, the #SBATCH line of every --mem raise, and the
# findings of one job.
#
#   examples/json-jq.sh [--demo] [jobid]
#
# slurmpast --json writes JSON Lines, one object per record, each tagged
# with its "section"; the keys are the record's column names, and
# unknown values are null, never 0.  slurmpast's exit status 1 is a
# critical finding (an answer); 2 is an error, which stops the script
# with slurmpast's own message rather than an empty heading.
set -u

demo=
if [ "${1-}" = --demo ]; then
	demo=--demo
	shift
fi
job=${1-}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# ask FILE ARG...: slurmpast ARG... into FILE; any error ends the script.
ask() {
	out=$1
	shift
	# shellcheck disable=SC2086 # $demo is one word or none
	slurmpast $demo "$@" >"$out"
	[ $? -le 1 ] || exit 2
}

ask "$tmp/all" --patterns --sizing --json
echo "Critical failures across runs:"
jq -r 'select(.section == "patterns" and .severity == "critical") |
    "  \(.workload): \(.code): \(.action)"' "$tmp/all"

echo "Memory requests to raise, ready to paste:"
jq -r 'select(.section == "sizing" and .flag == "--mem" and
    .verdict == "raise") |
    "  # \(.workload), now \(.requested_text): \(.basis)\n  \(.sbatch)"' "$tmp/all"

if [ -n "$job" ]; then
	ask "$tmp/job" --json "$job"
	echo "Job $job:"
	jq -r '"  \(.state), \(.elapsed_s)s of \(.timelimit_s // "no limit")s",
	    (.findings[] | "  \(.severity) \(.code)")' "$tmp/job"
fi

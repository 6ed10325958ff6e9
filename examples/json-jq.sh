#!/bin/sh
# slurmpast --json picked apart with jq(1): the critical failures across
# runs with what to do, the #SBATCH line of every --mem raise, and the
# findings of one job.
#
#   examples/json-jq.sh [--demo] [jobid]
#
# Each --json section is JSON Lines, one object per record, its keys the
# record's column names; unknown values are null, never 0.
set -u

demo=
if [ "${1-}" = --demo ]; then
	demo=--demo
	shift
fi
job=${1-}

echo "Critical failures across runs:"
slurmpast $demo --patterns --json |
	jq -r 'select(.severity == "critical") | "  \(.workload): \(.code): \(.action)"'

echo "Memory requests to raise, ready to paste:"
slurmpast $demo --sizing --json |
	jq -r 'select(.flag == "--mem" and .verdict == "raise") |
	    "  # \(.workload), now \(.requested): \(.basis)\n  \(.sbatch)"'

if [ -n "$job" ]; then
	echo "Job $job:"
	slurmpast $demo --json "$job" |
		jq -r '"  \(.state), \(.elapsed_s)s of \(.timelimit_s // "no limit")s",
		    (.findings[] | "  \(.severity) \(.code)")'
fi

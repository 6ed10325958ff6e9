#!/bin/sh
# Before each submission: what the history says the batch script should
# ask for, shown as a diff; written into the script and submitted only
# when asked.  For a person at the prompt, or an agent that submits on
# someone's behalf.
#
#   examples/advise-before-sbatch.sh [--submit] [-u user] script
#                                    [--demo | sp-fetch option ...]
#
# The history is read once (the last 30 days, or sp-fetch's options:
# -S, -M, --input dump, --demo), and both the diff and the rewrite come
# from it, so what is written is what was shown.  Without --submit
# nothing is written or submitted.  With it, the script is rewritten in
# place (the original kept as script~) and handed to sbatch, whose
# status is the script's.  A script whose workload has no history is not
# submitted: sp-size says which names do have one, and a first run is
# submitted with sbatch itself.
set -eu

usage() {
	echo "usage: advise-before-sbatch.sh [--submit] [-u user] script" \
	    "[--demo | sp-fetch option ...]" >&2
	exit 2
}

submit=0 user=${USER:-}
while [ $# -gt 0 ]; do
	case $1 in
	--submit) submit=1; shift ;;
	-u) [ $# -ge 2 ] || usage; user=$2; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
script=$1
shift
[ -n "$user" ] || { echo "advise-before-sbatch.sh: give -u user" >&2; exit 2; }

if [ "${1-}" = --demo ]; then
	shift
	# The demo's cluster is not this one: ask this site nothing.
	SLURMPAST_NO_SITE=1
	export SLURMPAST_NO_SITE
	fetch() { sp-fetch --demo -u "$user" "$@"; }
else
	fetch() { sp-fetch -S now-30days -u "$user" "$@"; }
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# Each step into a file: a stage that fails stops here (exit 2, its own
# message), never an empty answer behind a pipe.
fetch "$@" >"$tmp/jobs" || exit 2
sp-group "$tmp/jobs" >"$tmp/grouped" || exit 2

# What would change, as a diff (nothing when the script is as advised).
sp-size --script "$script" -u "$user" --diff "$tmp/grouped" || exit 2
[ "$submit" -eq 1 ] || exit 0

sp-size --script "$script" -u "$user" --in-place "$tmp/grouped" || exit 2
exec sbatch "$script"

#!/bin/sh
# What every workload of a whole cluster should ask for next time, the
# history sharded by user across a Slurm array and the parts merged.
#
# Every workload belongs to one user (the user is the first part of its
# workload_key), and sp-size's answer for a workload rests on that
# workload's runs alone: so each array task can fetch and size a few
# users' history, and the parts, each sorted by workload_key, merge into
# the answer one machine would have given for the whole cluster.  (All
# but the risk beside each advice: where a workload's own replay is too
# short, it is the part's runs at the same evidence level, not the whole
# cluster's; see sp-size(1).)
#
#   examples/shard-by-user.sh submit [TASKS]   from a login node (default 8)
#   examples/shard-by-user.sh task             what each array task runs
#   examples/shard-by-user.sh merge            once the tasks are done
#   examples/shard-by-user.sh --demo [TASKS]   all three here, on the demo,
#                                              checked against one run
#
# SHARD_DIR (default ./shards) holds the user list, the parts and the
# result, advice.tsv; SINCE (default now-30days) is the window.
set -eu

dir=${SHARD_DIR:-$PWD/shards}
since=${SINCE:-now-30days}
tab=$(printf '\t')

# by_workload HEADER <advice: the header to the file HEADER, the records
# to standard output sorted by workload_key (a workload's flags keep
# sp-size's order: sort -s).
by_workload() {
	IFS= read -r header
	printf '%s\n' "$header" >"$1"
	LC_ALL=C sort -s -t "$tab" -k"$(key "$1")"
}

# without_risk <advice: the records without the replay's risk columns.
without_risk() {
	awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++)
			keep[i] = $i !~ /^risk(_cut_off|_judged)?$/ }
		{ out = ""; sep = ""
		  for (i = 1; i <= NF; i++) if (keep[i]) { out = out sep $i; sep = OFS }
		  print out }'
}

# key HEADER: the sort key of the workload_key column, found by its name.
key() {
	col=$(tr '\t' '\n' <"$1" | grep -nx workload_key | cut -d: -f1)
	echo "$col,$col"
}

# shard I N <users: the users of task I of N, comma-separated.
shard() {
	awk -v i="$1" -v n="$2" '(NR - 1) % n == i' | paste -sd, -
}

# merge: the parts, each sorted, merged under the one header.
merge() {
	{
		cat "$dir/header"
		LC_ALL=C sort -m -s -t "$tab" -k"$(key "$dir/header")" \
			"$dir"/part-*.tsv
	} >"$dir/advice.tsv"
}

case ${1-} in
submit)
	mkdir -p "$dir"
	sacctmgr -nP show user format=User | sort -u >"$dir/users"
	tasks=${2:-8}
	SHARD_DIR=$dir SINCE=$since
	export SHARD_DIR SINCE
	sbatch --array=0-$((tasks - 1)) --job-name=slurmpast-shard \
		--time=01:00:00 --mem=4G --output="$dir/task-%a.log" \
		"$0" task
	;;
task)
	users=$(shard "$SLURM_ARRAY_TASK_ID" "$SLURM_ARRAY_TASK_COUNT" \
		<"$dir/users")
	[ -n "$users" ] || exit 0
	i=$SLURM_ARRAY_TASK_ID
	sp-fetch -u "$users" -S "$since" | sp-group | sp-size |
		by_workload "$dir/header.$i" >"$dir/part-$i.tmp"
	# No header: a stage failed, and said why in this task's log.
	[ -s "$dir/header.$i" ] || exit 1
	mv "$dir/header.$i" "$dir/header"	# the same in every task
	mv "$dir/part-$i.tmp" "$dir/part-$i.tsv"
	;;
merge)
	merge
	echo "$dir/advice.tsv: $(($(wc -l <"$dir/advice.tsv") - 1)) advice records"
	;;
--demo)
	# Each task asks the demo for its users' records, as a task asks
	# sacct (sp-fetch -u); the whole demo is the users' list, and the
	# advice the merge must equal.
	tasks=${2:-2}
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	sp-fetch --demo >"$dir/demo.tsv"
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "user") u = i; next }
		{ print $u }' "$dir/demo.tsv" | sort -u >"$dir/users"
	i=0
	while [ "$i" -lt "$tasks" ]; do
		users=$(shard "$i" "$tasks" <"$dir/users")
		if [ -n "$users" ]; then
			sp-fetch --demo -u "$users"
		else
			head -1 "$dir/demo.tsv"	# a task with no user
		fi | sp-group | sp-size | by_workload "$dir/header" \
			>"$dir/part-$i.tsv"
		echo "task $i: ${users:-no users}, $(wc -l <"$dir/part-$i.tsv") advice records"
		i=$((i + 1))
	done
	merge
	sp-group <"$dir/demo.tsv" | sp-size |
		by_workload "$dir/header.whole" >"$dir/whole.body"
	cat "$dir/header.whole" "$dir/whole.body" >"$dir/whole.tsv"
	without_risk <"$dir/advice.tsv" >"$dir/advice.norisk"
	without_risk <"$dir/whole.tsv" >"$dir/whole.norisk"
	if cmp -s "$dir/advice.norisk" "$dir/whole.norisk"; then
		echo "merged: $(($(wc -l <"$dir/advice.tsv") - 1)) advice records, the same as one run over the whole history"
	else
		echo "merged advice differs from one run over the whole history:"
		diff "$dir/whole.norisk" "$dir/advice.norisk" | head
		exit 1
	fi
	;;
*)
	echo "usage: shard-by-user.sh submit [tasks] | task | merge | --demo [tasks]" >&2
	exit 2
	;;
esac

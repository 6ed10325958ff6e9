#!/bin/bash
# mix.sh - submit the job mix (jobs of every fate, as root and as the two
# normal users), wait until accounting holds all of them, and write the
# manifest $SP_CLUSTER_DIR/manifest.tsv that fetch.bats checks against.
#
# The mix runs once per cluster directory: a complete manifest whose jobs
# accounting still knows is reused.  `mix.sh --force` runs it again.
# Every wait is bounded and says what it waited for when it gives up.
#
# Manifest columns (one row per job or array task; empty = not checked):
#   key       what the job is for (the checks find jobs by it)
#   jobid     as sacct prints it (123, or 123_4 for an array task)
#   user name state exit_code signal
#   attempts  allocation attempts accounting keeps (2 for the requeue)
#   mem_node_b mem_total_b   the memory limit asked for, bytes
#   gpus nnodes cancelled_by
set -eu -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

[ "$(id -u)" = 0 ] || spc_die "mix.sh needs root"
[ -f "$SLURM_CONF" ] || spc_die "no cluster in $SPC (run up.sh first)"

MANIFEST=$SPC/manifest.tsv
SUBMITTED=$SPC/mix.submitted
MIB=1048576
COLUMNS_LINE="key	jobid	user	name	state	exit_code	signal	attempts	mem_node_b	mem_total_b	gpus	nnodes	cancelled_by"

# A failed mix cancels what it submitted, so the next try starts clean.
mix_die() {
	printf '%s\n' "mix: $*" >&2
	[ -s "$SUBMITTED" ] && scancel $(cat "$SUBMITTED") 2>/dev/null
	exit 1
}

# A manifest is reusable when it is complete (written last, by rename) and
# accounting still says what it says (a purged database would not).
manifest_usable() {
	[ -s "$MANIFEST" ] || return 1
	[ "$(head -n 1 "$MANIFEST")" = "$COLUMNS_LINE" ] || return 1
	fates_match "$MANIFEST" >&2 || {
		spc_log "accounting no longer matches $MANIFEST: running the mix again"
		return 1
	}
}

# sub USER sbatch-args...: prints the job id.
sub() {
	sub_try "$@" || mix_die "sbatch as $1 failed: sbatch ${*:2}"
}

# The same, false (and nothing recorded) when sbatch refuses the job.
sub_try() {
	local user=$1 out
	shift
	if [ "$user" = root ]; then
		out=$(cd "$SPC/work/root" && sbatch --parsable "$@") || return 1
	else
		out=$(cd "$SPC/work/$user" && runuser -u "$user" -- \
			env SLURM_CONF="$SLURM_CONF" sbatch --parsable "$@") ||
			return 1
	fi
	out=${out%%;*}
	echo "$out" >>"$SUBMITTED"
	printf '%s\n' "$out"
}

# What this Slurm records as a NODE_FAIL job's exit code (see above).
nodefail_exit() {
	local v
	v=$(sinfo --version 2>/dev/null | awk '{ split($2, a, "."); print a[1] }')
	case $v in ''|*[!0-9]*) echo 0 ;; *) [ "$v" -ge 24 ] && echo 1 || echo 0 ;; esac
}

rows=()
# row key jobid user name state exit signal [attempts mem_node mem_total gpus nnodes cancelled_by]
row() {
	local IFS=$'\t'
	local f=("$@")
	while [ "${#f[@]}" -lt 13 ]; do f+=(""); done
	[ -n "${f[7]}" ] || f[7]=1
	# A name holding a tab or newline is stored escaped, as the record
	# format writes it, so the manifest stays one line per job.
	f[3]=$(printf '%s' "${f[3]}" | sed -e 's/\\/\\\\/g' -e 's/\t/\\t/g')
	rows+=("${f[*]}")
}

job_state() {
	squeue -h -j "$1" -o %T 2>/dev/null | head -n 1
}

# wait_running JOBID WHAT: until squeue says RUNNING (bounded).
wait_running() {
	local i
	for i in $(seq 1 300); do
		[ "$(job_state "$1")" = RUNNING ] && return 0
		sleep 0.2
	done
	mix_die "job $1 ($2) not RUNNING after 60 s: state '$(job_state "$1")'"
}

mem_mode=$(cat "$SPC/etc/memory-mode" 2>/dev/null || echo cgroup)
if [ "$mem_mode" = cgroup ]; then
	OOM_STATE=OUT_OF_MEMORY OOM_EXIT=0 OOM_SIGNAL=125
else
	OOM_STATE=FAILED OOM_EXIT=0 OOM_SIGNAL=9
fi

# Grows by 10 MiB every 0.2 s, so the 1-second sampler sees the climb
# before the limit stops it.  Each string a length of its own: perl 5.42
# (Debian unstable) shares one constant string among all its copies, and
# a job pushing the same one never grew past 16 MiB.
grow() {
	echo "perl -e 'my @a; for (1..$1) { push @a, q(x) x (10485760 + \$_); select(undef, undef, undef, 0.2) } sleep 2'"
}

run_mix() {
	local t=5 j a i

	# NODE_FAIL first, alone on n4, so setting n4 down fails nothing else.
	local nodefail
	nodefail=$(sub root -A physics -J node_fail -t $t -w n4 --exclusive --no-requeue --wrap='sleep 300')
	# Slurm 22.05 records a node failure's exit code as 0, 24.11 as 1.
	row node_fail "$nodefail" root node_fail NODE_FAIL "$(nodefail_exit)" 0

	# The two time-outs decide how long the mix takes (61-87 s).
	j=$(sub spalice -J timeout -t 1 --wrap='sleep 300')
	row timeout "$j" spalice timeout TIMEOUT 0 0
	j=$(sub spbob -J timeout_step -t 1 --wrap='srun sleep 300')
	row timeout_step "$j" spbob timeout_step TIMEOUT 0 0

	local requeue cancel_run cancel_pend cancel_held
	# Long enough to be caught running; short once requeued.
	requeue=$(sub spalice -J requeue -t $t --requeue \
		--wrap='if [ "${SLURM_RESTART_COUNT:-0}" -gt 0 ]; then sleep 2; else sleep 120; fi')
	cancel_run=$(sub spbob -J cancel_running -t $t --wrap='sleep 300')
	cancel_pend=$(sub spalice -J cancel_pending -t $t --begin=now+1hour --wrap='sleep 1')
	cancel_held=$(sub root -A chemistry -J cancel_held -t $t -H --wrap='sleep 1')

	j=$(sub root -A physics -J completed -t $t --wrap='sleep 2; echo done')
	row completed "$j" root completed COMPLETED 0 0
	j=$(sub spalice -J exit1 -t $t --wrap='sleep 1; exit 1')
	row exit1 "$j" spalice exit1 FAILED 1 0
	j=$(sub spbob -J exit3 -t $t --wrap='sleep 1; exit 3')
	row exit3 "$j" spbob exit3 FAILED 3 0
	j=$(sub root -A chemistry -J exit7 -t $t --wrap='sleep 1; exit 7')
	row exit7 "$j" root exit7 FAILED 7 0
	j=$(sub spalice -J signal -t $t --wrap='sleep 1; kill -USR1 $$')
	row signal "$j" spalice signal FAILED 0 10

	j=$(sub root -A physics -J oom -t $t --mem=200M --wrap="$(grow 100)")
	row oom "$j" root oom "$OOM_STATE" "$OOM_EXIT" "$OOM_SIGNAL" 1 $((200 * MIB)) $((200 * MIB))
	# Tasks 1 and 2 peak near 100 and 180 MiB; 3 and 4 pass the 200 MiB limit.
	a=$(sub spalice -J oom_array -t $t --mem=200M --array=1-4 \
		--wrap='perl -e '\''my @a; for (1..($ENV{SLURM_ARRAY_TASK_ID} * 8)) { push @a, q(x) x (10485760 + $_); select(undef, undef, undef, 0.1) } sleep 2'\''')
	for i in 1 2; do
		row "oom_array_$i" "${a}_$i" spalice oom_array COMPLETED 0 0 1 $((200 * MIB)) $((200 * MIB))
	done
	for i in 3 4; do
		row "oom_array_$i" "${a}_$i" spalice oom_array "$OOM_STATE" "$OOM_EXIT" "$OOM_SIGNAL" 1 $((200 * MIB)) $((200 * MIB))
	done

	j=$(sub spbob -J multistep -t $t --wrap='srun true; srun sleep 1; srun false')
	row multistep "$j" spbob multistep FAILED 1 0
	j=$(sub spalice -J sleeper -t $t -c 4 --gres=gpu:2 --mem=100M --wrap='sleep 20')
	row sleeper "$j" spalice sleeper COMPLETED 0 0 1 $((100 * MIB)) $((100 * MIB)) 2 1
	# Two busy workers that each stop after 4 s of their own user CPU, so
	# the total does not depend on how crowded this machine's cores are
	# (asking for the time costs a system call: only every million turns).
	j=$(sub root -A physics -J burner -t $t -c 2 --mem-per-cpu=256M \
		--wrap='for k in 1 2; do perl -e "while ((times)[0] < 4) { for (1..1e6) {} }" & done; wait')
	row burner "$j" root burner COMPLETED 0 0 1 $((512 * MIB)) $((512 * MIB)) "" 1
	# dd bs=1 for a fixed three seconds of wall clock, not a fixed amount
	# of work: how much CPU a count of bytes costs depends on the
	# processor, and the checks read shares of the job's own figures.
	j=$(sub spbob -J dd -t $t --wrap='timeout 3 dd if=/dev/zero of=/dev/null bs=1; true')
	row dd "$j" spbob dd COMPLETED 0 0
	j=$(sub spalice -J gpu1 -t $t --gres=gpu:1 --wrap='sleep 3')
	row gpu1 "$j" spalice gpu1 COMPLETED 0 0 "" "" "" 1 1
	j=$(sub root -A chemistry -J gpu3 -t $t -N 1 --gpus=3 --wrap='sleep 3')
	row gpu3 "$j" root gpu3 COMPLETED 0 0 "" "" "" 3 1
	j=$(sub root -A chemistry -J twonode -t $t -N 2 --ntasks-per-node=1 --mem=300M \
		--wrap='srun sleep 3')
	row twonode "$j" root twonode COMPLETED 0 0 1 $((300 * MIB)) $((600 * MIB)) "" 2
	# The deadline cannot be met by a 1-minute limit: Slurm 22.05 ends
	# it at once; 24.11 refuses it at submission, so there it is held
	# with a deadline just past its limit, which passes while it waits.
	j=$(sub_try spbob -J deadline -t 1 --deadline=now+30 --wrap='sleep 5') ||
		j=$(sub spbob -J deadline -t 1 -H --deadline=now+65 --wrap='sleep 5')
	row deadline "$j" spbob deadline DEADLINE 1 0

	# Names sp-group folds into one workload, and two that do not fold.
	j=$(sub spalice -J s1e20 -t $t --wrap='sleep 1')
	row fold_s1e20 "$j" spalice s1e20 COMPLETED 0 0
	j=$(sub spalice -J s2e47 -t $t --wrap='sleep 1')
	row fold_s2e47 "$j" spalice s2e47 COMPLETED 0 0
	j=$(sub spbob -J train_lr0.001 -t $t --wrap='sleep 1')
	row fold_lr "$j" spbob train_lr0.001 COMPLETED 0 0

	# Parser traps: sacct's own delimiter in a name and a comment, a tab in
	# a name, a newline in the submitted command line.
	j=$(sub root -A physics -J $'trap|pipe\ttab' -t $t --comment='a | in the comment' \
		--wrap='sleep 1')
	row trap_name "$j" root $'trap|pipe\ttab' COMPLETED 0 0
	j=$(sub spalice -J trap_newline -t $t --wrap=$'echo one\necho two')
	row trap_newline "$j" spalice trap_newline COMPLETED 0 0

	# The actions that need a running or pending job.
	scancel "$cancel_pend" || mix_die "scancel $cancel_pend (pending) failed"
	row cancel_pending "$cancel_pend" spalice cancel_pending CANCELLED 0 0 1 "" "" "" "" 0
	scancel "$cancel_held" || mix_die "scancel $cancel_held (held) failed"
	row cancel_held "$cancel_held" root cancel_held CANCELLED 0 0 1 "" "" "" "" 0

	wait_running "$cancel_run" cancel_running
	sleep 2
	runuser -u spbob -- env SLURM_CONF="$SLURM_CONF" scancel "$cancel_run" ||
		mix_die "scancel $cancel_run (running, as spbob) failed"
	row cancel_running "$cancel_run" spbob cancel_running CANCELLED 0 0 1 "" "" "" "" "$(id -u spbob)"

	wait_running "$requeue" requeue
	sleep 2
	scontrol requeue "$requeue" || mix_die "scontrol requeue $requeue failed"
	row requeue "$requeue" spalice requeue COMPLETED 0 0 2

	wait_running "$nodefail" node_fail
	sleep 3
	scontrol update nodename=n4 state=down reason=slurmpast-mix ||
		mix_die "could not set n4 down"
	for i in $(seq 1 150); do
		[ -z "$(job_state "$nodefail")" ] && break
		case $(job_state "$nodefail") in NODE_FAIL|COMPLETED|FAILED) break ;; esac
		sleep 0.2
	done
	# ReturnToService=2 may bring n4 back by itself as soon as it answers.
	for i in $(seq 1 150); do
		case $(sinfo -h -n n4 -o %T) in
		idle|mixed|allocated) break ;;
		*down*|*drain*) scontrol update nodename=n4 state=resume 2>/dev/null || : ;;
		esac
		sleep 0.2
	done
	case $(sinfo -h -n n4 -o %T) in
	idle|mixed|allocated) ;;
	*) mix_die "n4 not back in service after NODE_FAIL: $(sinfo -h -n n4 -o %T)" ;;
	esac

	wait_all_gone
	wait_accounted
}

# Every job of ours out of the queue: the time-outs end at 61-87 s.
wait_all_gone() {
	local ids i left
	ids=$(printf '%s\n' "${rows[@]}" | cut -f2 | sed 's/_.*//' | sort -u | paste -sd, -)
	for i in $(seq 1 240); do
		left=$(squeue -h -j "$ids" -o '%i %j %T' 2>/dev/null || :)
		[ -z "$left" ] && return 0
		sleep 1
	done
	mix_die "jobs still queued after 240 s: $(printf '%s' "$left" | tr '\n' ';')"
}

# Accounting has every job ended, and the requeue's two attempts; records
# arrive 1-2 s after a job ends.
wait_accounted() {
	local ids i want have
	ids=$(printf '%s\n' "${rows[@]}" | cut -f2 | sed 's/_.*//' | sort -u | paste -sd, -)
	want=$(printf '%s\n' "${rows[@]}" | awk -F'\t' '{ n += $8 } END { print n }')
	for i in $(seq 1 60); do
		have=$(sacct -n -X -P -D -j "$ids" -o jobid,state,end 2>/dev/null |
			awk -F'|' '$3 != "Unknown" && $2 != "RUNNING" && $2 != "PENDING"' | wc -l)
		[ "$have" = "$want" ] && return 0
		sleep 1
	done
	mix_die "accounting has $have of $want ended job attempts after 60 s"
}

# What accounting says against what manifest $1 means (state, exit code,
# signal, who cancelled): prints every difference, false if there is one.
# A cluster that gave a job another fate fails here, before any sp-fetch
# check could blame sp-fetch.
fates_match() {
	local ids
	ids=$(awk -F'\t' 'NR > 1 { sub(/_.*/, "", $2); print $2 }' "$1" | sort -u | paste -sd, -)
	sacct -n -X -P -j "$ids" -o jobid,state,exitcode 2>/dev/null | tr '|' '\t' |
	awk -F'\t' '
		NR == FNR {
			st = $2; by = ""
			if (match(st, / by /)) { by = substr(st, RSTART + 4); st = substr(st, 1, RSTART - 1) }
			split($3, e, ":")
			got[$1] = st " " e[1] ":" e[2] " by \"" by "\""
			next
		}
		FNR == 1 { next }
		{
			want = $5 " " $6 ":" $7 " by \"" $13 "\""
			if (!($2 in got)) {
				printf "mix: job %s (%s) is not in accounting\n", $2, $1; bad = 1
			} else if (got[$2] != want) {
				printf "mix: job %s (%s): accounting says %s, expected %s\n", $2, $1, got[$2], want
				bad = 1
			}
		}
		END { exit bad }' - "$1"
}

main() {
	if [ "${1:-}" != --force ] && manifest_usable; then
		spc_log "mix already complete: $MANIFEST"
		return 0
	fi
	rm -f "$MANIFEST" "$SUBMITTED"
	local start=$SECONDS
	run_mix
	{ printf '%s\n' "$COLUMNS_LINE"; printf '%s\n' "${rows[@]}"; } >"$MANIFEST.tmp"
	fates_match "$MANIFEST.tmp" ||
		mix_die "the cluster gave jobs other fates; logs in $SPC/slurm and $SPC/slurmd"
	mv "$MANIFEST.tmp" "$MANIFEST"
	spc_log "mix done in $((SECONDS - start)) s: $MANIFEST"
}

main "$@"

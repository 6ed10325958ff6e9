#!/usr/bin/env bats
# Jobs still running on a real Slurm 22.05, read live through sstat
# (JobAcctGatherFrequency=task=1 in up.sh: the steps are sampled each
# second), and judged by their workload's history while they run.
# Takes the cluster lock as fetch.bats does (setup.bash's lib.sh) and
# brings the cluster up if needed; no job mix: these jobs are its own,
# and the running ones are cancelled before the lock is given back.
#
# The history: livelong completed after 130 s, livegrow was killed for
# memory at 100M.  Running: livelong again with a 2-minute limit (it
# will outlive it; every reading below must be done before it ends,
# on a machine busy with the rest of the suite), livegrow again at 100M (it will run out of memory),
# livehog holding 180 MiB of its 200M, liveidle sleeping on a GPU.
# The records read while they ran are browsed in a real terminal (tmux)
# afterwards: the dashboard's Running now, with sstat and without.
# Last, liveidle is read again once it has slept past the hang rule's
# floor: computing nothing now, while it holds its GPU.

bats_require_minimum_version 1.5.0
SP_TOP=${SP_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
load ../lib/common
load ../lib/tmux

CLUSTER=$BATS_TEST_DIRNAME
MIB=1048576

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	. "$CLUSTER/lib.sh"
	export SLURM_CONF SPC
	spc_tests_begin "$CLUSTER" || return 1
	submit_and_read >"$BATS_FILE_TMPDIR/submit.err" 2>&1 || {
		echo "# the running jobs could not be read: $(tail -3 "$BATS_FILE_TMPDIR/submit.err")" >&3
		cancel_all
		return 1
	}
}

teardown() {
	term_stop
}

teardown_file() {
	[ "$(id -u)" = 0 ] || return 0
	cancel_all
	spc_tests_end "$CLUSTER"
}

setup() {
	[ "$(id -u)" = 0 ] || skip "the real Slurm cluster needs root"
	D=$BATS_FILE_TMPDIR
	export SLURMPAST_NO_CACHE=1 LC_ALL=C.UTF-8
}

cancel_all() {
	[ -s "$BATS_FILE_TMPDIR/ids" ] && scancel $(tr ',' ' ' <"$BATS_FILE_TMPDIR/ids") 2>/dev/null
	return 0
}

# sub USER sbatch-args...: the job id, kept for the teardown.
sub() {
	local user=$1 out
	shift
	mkdir -p "$SPC/work/$user"
	if [ "$user" = root ]; then
		out=$(cd "$SPC/work/root" && sbatch --parsable -o /dev/null "$@") || return 1
	else
		out=$(cd "$SPC/work/$user" && runuser -u "$user" -- \
			env SLURM_CONF="$SLURM_CONF" sbatch --parsable -o /dev/null "$@") || return 1
	fi
	out=${out%%;*}
	printf '%s%s' "$([ -s "$BATS_FILE_TMPDIR/ids" ] && echo ,)" "$out" >>"$BATS_FILE_TMPDIR/ids"
	printf '%s\n' "$out"
}

# The state accounting holds for a job.
acct_state() {
	sacct -n -X -P -j "$1" -o State 2>/dev/null | head -n 1
}

ended() {
	case $(acct_state "$1") in
	COMPLETED|OUT_OF_MEMORY|FAILED|TIMEOUT|CANCELLED*) return 0 ;;
	esac
	return 1
}

# Running, and accounting knows it (it learns of the start a moment
# after squeue does).
running() {
	[ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ] &&
		[ "$(acct_state "$1")" = RUNNING ]
}

# sstat has sampled every running job's batch step, and livehog holds
# its memory.
sampled() {
	local j
	for j in "$@"; do
		sstat -n -P -j "$j.batch" -o MaxRSS 2>/dev/null | grep -q '[1-9]' || return 1
	done
	sstat -n -P -j "$HOG.batch" -o MaxRSS 2>/dev/null |
		awk '{ v = $1; sub(/K$/, "", v); exit !(v + 0 > 180 * 1024) }'
}

submit_and_read() {
	local D=$BATS_FILE_TMPDIR long grow i
	: >"$D/ids"
	# The window: from just before the first job (the cluster's clock).
	date +%Y-%m-%dT%H:%M:%S >"$D/since"
	sleep 1
	long=$(sub root -A physics -J livelong -t 4 --wrap='sleep 130') || return 1
	grow=$(sub root -A physics -J livegrow -t 3 --mem=100M \
		--wrap="perl -e 'my @a; for (1..30) { push @a, q(x) x (10485760 + \$_); select(undef, undef, undef, 0.2) } sleep 2'") || return 1
	HOG=$(sub spalice -J livehog -t 10 --mem=200M \
		--wrap='python3 -c "import time; b = b\"x\" * (180 * 1048576); time.sleep(600)"') || return 1
	IDLE=$(sub spalice -J liveidle -t 10 --gres=gpu:1 --mem=100M --wrap='sleep 600') || return 1
	spc_wait_for 60 ended "$grow" || { echo "livegrow was never killed: $(acct_state "$grow")"; return 1; }
	GROWING=$(sub root -A physics -J livegrow -t 10 --mem=100M --wrap='sleep 600') || return 1
	spc_wait_for 240 ended "$long" || { echo "livelong never ended: $(acct_state "$long")"; return 1; }
	[ "$(acct_state "$long")" = COMPLETED ] || { echo "livelong: $(acct_state "$long")"; return 1; }
	LONG=$(sub root -A physics -J livelong -t 2 --wrap='sleep 600') || return 1
	for i in "$HOG" "$IDLE" "$GROWING" "$LONG"; do
		spc_wait_for 30 running "$i" || { echo "job $i never ran"; return 1; }
	done
	spc_wait_for 30 sampled "$HOG" "$IDLE" "$GROWING" "$LONG" || {
		echo "sstat never sampled the running jobs"; sstat -a -P -j "$HOG,$IDLE,$GROWING,$LONG"; return 1; }
	printf 'HOG=%s IDLE=%s GROWING=%s LONG=%s\n' "$HOG" "$IDLE" "$GROWING" "$LONG" >"$D/running.ids"
	# Everything read at once, while the jobs run (LONG has two minutes).
	sp-fetch --live --all-users -j "$(cat "$D/ids")" >"$D/live.tsv" 2>"$D/live.err" || return 1
	sp-group <"$D/live.tsv" | sp-size --running >"$D/running.tsv" 2>"$D/running.err"
	echo $? >"$D/running.rc"
	slurmpast --plain --no-logs -a -S "$(cat "$D/since")" >"$D/report.txt" 2>"$D/report.err"
	echo $? >"$D/report.rc"
	slurmpast --json -a -S "$(cat "$D/since")" >"$D/report.json" 2>"$D/report-json.err"
	echo $? >"$D/report-json.rc"
	sp-show --plain --width 100 -j "$HOG" "$D/live.tsv" >"$D/show.txt" 2>"$D/show.err"
	echo $? >"$D/show.rc"
	# sstat gone: every command but it.
	mkdir -p "$D/nosstat"
	for i in /usr/bin/* /usr/sbin/*; do
		[ "${i##*/}" = sstat ] || ln -sf "$i" "$D/nosstat/${i##*/}"
	done
	PATH="$D/nosstat:$SP_BIN" slurmpast --plain --no-logs -a -S "$(cat "$D/since")" \
		>"$D/nosstat.txt" 2>"$D/nosstat.err"
	echo $? >"$D/nosstat.rc"
	# The same records without sstat, for the dashboard.
	PATH="$D/nosstat:$SP_BIN" sp-fetch --live --all-users -j "$(cat "$D/ids")" \
		>"$D/nosstat.tsv" 2>/dev/null
}

ids() {
	. "$BATS_FILE_TMPDIR/running.ids"
}

# COLUMN of the record of job ID in FILE.
col() {
	awk -F'\t' -v id="$1" -v c="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["jobid"] == id && $h["step"] == "" { print $h[c] }' "$3"
}

@test "sp-fetch --live reads the running jobs' memory and CPU from the real sstat" {
	ids
	[ ! -s "$D/live.err" ]
	# livehog: its 180 MiB, at least 90% of its 200M, below the limit.
	rss=$(col "$HOG" live_rss_b "$D/live.tsv")
	[ "$rss" -ge $((180 * MIB)) ]
	[ "$rss" -lt $((200 * MIB)) ]
	[ "$(col "$HOG" live_rss_step "$D/live.tsv")" = batch ]
	[[ "$(col "$HOG" live_at "$D/live.tsv")" =~ ^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$ ]]
	[ "$(col "$HOG" live_why "$D/live.tsv")" = "" ]
	# liveidle sleeps: a figure, and under the hang rule's threshold.
	cpu=$(col "$IDLE" live_cpu_s "$D/live.tsv")
	[ -n "$cpu" ]
	awk -v c="$cpu" 'BEGIN { exit !(c < 10) }'
	# A finished job has no live figure.
	[ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["state"] == "COMPLETED" && $h["live_at"] != ""' "$D/live.tsv")" = "" ]
}

@test "sp-size --running: near its limit, will outlive its --time, will run out of memory" {
	ids
	# Critical findings: exit 1.
	[ "$(cat "$D/running.rc")" = 1 ]
	codes() {
		awk -F'\t' -v id="$1" '$4 == id { print $5 ":" $6 }' "$D/running.tsv" | tr '\n' ' '
	}
	[ "$(codes "$HOG")" = "running:info live-near-mem:warning " ]
	[ "$(codes "$IDLE")" = "running:info " ]
	[ "$(codes "$GROWING")" = "running:info live-oom:critical " ]
	[ "$(codes "$LONG")" = "running:info live-outlive:critical " ]
	grep -q "1 of its workload's 1 completed run took longer than its 00:02:00 limit (the longest 00:02:1[0-9]" "$D/running.tsv"
	grep -q "its workload was killed for memory 1 time, at limits up to 100.0 MiB; this job's limit is 100.0 MiB" "$D/running.tsv"
	grep -q "scontrol update JobId=$LONG TimeLimit=" "$D/running.tsv"
}

@test "slurmpast: the running jobs in the report, live figures and warnings" {
	ids
	[ "$(cat "$D/report.rc")" = 1 ]
	grep -qx 'Running now' "$D/report.txt"
	grep -q "^job $HOG, livehog" "$D/report.txt"
	grep -q "^job $LONG, livelong" "$D/report.txt"
	grep -q '^critical  live-outlive$' "$D/report.txt"
	grep -q '^critical  live-oom$' "$D/report.txt"
	grep -q '^warning   live-near-mem$' "$D/report.txt"
	grep -q "memory 1[89][0-9].[0-9] MiB of its 200.0 MiB limit" "$D/report.txt"
	# The finished runs are reported as ever.
	grep -q 'livegrow' "$D/report.txt"
	# --json: each a record of the section.
	[ "$(jq -r 'select(.section == "running" and .jobid == "'"$LONG"'") | .code' "$D/report.json" | tr '\n' ' ')" = "running live-outlive " ]
}

@test "sp-show of a running job: its memory and CPU so far, said to be live" {
	ids
	[ "$(cat "$D/show.rc")" = 0 ]
	flat=$(tr -s ' \n' ' ' <"$D/show.txt")
	[[ "$flat" == *"memory "*" now 1"[89]?.?" MiB of 200.0 MiB ("9?.?"%) · live, read at "* ]]
	[[ "$flat" == *" core busy · live, read at "* ]]
}

@test "slurmpast without sstat: the report still comes, and says the live figures are missing" {
	ids
	[ "$(cat "$D/nosstat.rc")" = 1 ]
	grep -q "^slurmpast: no live figures for the 4 running jobs (.*): sstat is not on PATH$" "$D/nosstat.err"
	grep -qx 'Running now' "$D/nosstat.txt"
	[ "$(grep -c 'no live figures: sstat is not on PATH' "$D/nosstat.txt")" -eq 4 ]
	# The history's warnings need no live figure.
	grep -q '^critical  live-outlive$' "$D/nosstat.txt"
	grep -q '^critical  live-oom$' "$D/nosstat.txt"
	! grep -q 'live-near-mem' "$D/nosstat.txt"
}

# The screen's lines that head a job or a warning, joined by |.
heads() {
	printf '%s\n' "${lines[@]}" |
		grep -E '^[0-9]+  |^  (critical|warning|info) +[a-z-]+$' |
		sed 's/^  //; s/  */ /g' | paste -sd'|'
}

@test "sp-browse: the running jobs on the first screen and on R, live, with their warnings" {
	ids
	sp-group "$D/live.tsv" >"$BATS_TEST_TMPDIR/grouped.tsv"
	term_exec 160 60 "sp-browse --no-logs '$BATS_TEST_TMPDIR/grouped.tsv'"
	term_wait_for "? keys"
	printf '%s\n' "${lines[@]}" | grep -qx 'Running now: 4 jobs; 2 critical, 1 warning (R shows them)'
	term_keys R
	term_wait_for "running now"
	[ "${lines[0]}" = "slurmpast · running now · 4 jobs" ]
	# The warnings of sp-size --running on the same records.
	[ "$(heads)" = "$HOG livehog|warning live-near-mem|$IDLE liveidle|$GROWING livegrow|critical live-oom|$LONG livelong|critical live-outlive" ]
	local at
	at=$(col "$HOG" live_at "$D/live.tsv")
	printf '%s\n' "${lines[@]}" | grep -Eq "^  time [0-9:.s]+ of 00:10:00 \([0-9.]+%\) · memory 1[89][0-9]\.[0-9] MiB of 200\.0 MiB \(9[0-9]\.[0-9]%\) · CPU .* so far on [0-9]+ cores? · read at $at$"
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

@test "sp-browse without sstat: the live figures missing, said once, the history's warnings made" {
	ids
	sp-group "$D/nosstat.tsv" >"$BATS_TEST_TMPDIR/grouped.tsv"
	term_exec 160 60 "sp-browse --no-logs '$BATS_TEST_TMPDIR/grouped.tsv'"
	term_wait_for "? keys"
	term_keys R
	term_wait_for "running now"
	[ "${lines[1]}" = "No live figures for 4 jobs: sstat is not on PATH" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -ci 'no live figure')" = 1 ]
	[ "$(heads)" = "$HOG livehog|$IDLE liveidle|$GROWING livegrow|critical live-oom|$LONG livelong|critical live-outlive" ]
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

# The hang rule's floor, as the library defines it: the test waits for
# it rather than repeating it.
noop_floor() {
	awk '$1 == "#define" && $2 == "SP_NOOP_MIN_ELAPSED_S" { print int($3 + 0.999) }' \
		"$SP_TOP/lib/ground/sp_const.h"
}

# Job $1 has run for more than $2 seconds, by accounting's clock.
ran_past() {
	local e
	e=$(sacct -n -X -P -j "$1" -o ElapsedRaw 2>/dev/null | head -n 1)
	[ -n "$e" ] && [ "$e" -gt "$2" ]
}

# Last: it waits for liveidle to pass the floor (some minutes after the
# submission; the tests above ran meanwhile).
@test "live-noop: a job asleep on its GPU past the hang rule's floor computes nothing now, said while it runs" {
	ids
	. "$CLUSTER/lib.sh"
	local floor
	floor=$(noop_floor)
	[ -n "$floor" ] && [ "$floor" -gt 0 ]
	running "$IDLE"
	spc_wait_for $((floor + 120)) ran_past "$IDLE" "$((floor + 2))"
	sp-fetch --live --all-users -j "$IDLE" >"$D/idle.tsv" 2>"$D/idle.err"
	[ ! -s "$D/idle.err" ]
	[ -n "$(col "$IDLE" live_at "$D/idle.tsv")" ]
	sp-group <"$D/idle.tsv" >"$D/idle.grouped"
	run sp-size --running <"$D/idle.grouped"
	[ "$status" = 1 ]
	[ "$(awk -F'\t' -v id="$IDLE" '$4 == id { print $5 ":" $6 }' <<<"$output" | tr '\n' ' ')" = "running:info live-noop:critical " ]
	grep -Eq "running for [0-9:]+ with [0-9.]+s of CPU so far, holding 1 GPU \(live, read at [0-9T:-]+\)" <<<"$output"
	grep -q "if it is stuck, scancel $IDLE" <<<"$output"
	# The report's Running now, with the same finding.
	run slurmpast --plain --no-logs -a -S "$(cat "$D/since")"
	[ "$status" = 1 ]
	grep -qx 'Running now' <<<"$output"
	grep -q "^job $IDLE, liveidle" <<<"$output"
	grep -q '^critical  live-noop$' <<<"$output"
}

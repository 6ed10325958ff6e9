#!/usr/bin/env bats
# sp-browse's "Running now" through a real terminal (tmux): the line on
# the first screen, R's screen of each running job so far and its
# warnings (those of sp-size --running, on the same records), a job
# opened from it, the live figures missing (said once), nothing running,
# a history that is not of now, and slurmpast opening the dashboard over
# sacct and sstat.  sacct and sstat are faked (t/fake): the history and
# the three running jobs t/sp-size-running.bats describes.
# t/cluster/live.bats does the same on a real Slurm.

load lib/common
load lib/running
load lib/tmux

setup() {
	fake_running_history
	J=$BATS_TEST_TMPDIR/jobs.tsv
	sp-fetch --live -u alice 2>/dev/null | sp-group >"$J"
	AT=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["live_at"] != "" { print $h["live_at"]; exit }' "$J")
}

teardown() {
	term_stop
}

# The screen's lines that head a job or a warning: "3001  train_5",
# "critical live-near-mem", one a line, joined by |.
heads() {
	printf '%s\n' "${lines[@]}" |
		grep -E '^[0-9]+  |^  (critical|warning|info) +[a-z-]+$' |
		sed 's/^  //; s/  */ /g' | paste -sd'|'
}

@test "sp-browse: the first screen says what runs now; R shows each job so far and its warnings" {
	term_exec 160 70 "sp-browse '$J'"
	term_wait_for "? keys"
	# (under the headline, its window and the replay's line)
	[ "${lines[4]}" = "Running now: 3 jobs; 2 critical, 1 warning (R shows them)" ]
	[[ "${lines[5]}" == "workload "* ]]
	term_keys R
	term_wait_for "running now"
	[ "${lines[0]}" = "slurmpast · running now · 3 jobs" ]
	# Each job, then its warnings most severe first: sp-size --running's.
	[ "$(heads)" = "3001 train_5|critical live-outlive|critical live-oom|warning live-near-mem|3003 train_6|warning live-past-usual|3002 wait_1|critical live-noop" ]
	local want
	want=$(sp-size --running "$J" 2>/dev/null | awk -F'\t' 'NR > 1 && $5 != "running" { print $4 " " $5 }' | paste -sd'|')
	[ "$want" = "3001 live-near-mem|3001 live-outlive|3001 live-oom|3003 live-past-usual|3002 live-noop" ]
	# The figures so far, each against its limit, and when read.
	[ "${lines[1]}" = "3001  train_5" ]
	[ "${lines[2]}" = "  time 01:00:00 of 02:00:00 (50.0%) · memory 30.0 GiB of 32.0 GiB (93.8%) · CPU 01:40:00 so far on 8 cores · read at $AT" ]
	[ "${lines[3]}" = "" ]
	[ "${lines[4]}" = "  critical live-outlive" ]
	# the live reading, the kills apart (live-oom's)
	printf '%s\n' "${lines[@]}" | grep -A1 -x "  warning  live-near-mem" |
		grep -qx "    its memory is 30.0 GiB, 93.8% of its 32.0 GiB limit (live, read at $AT)"
	printf '%s\n' "${lines[@]}" | grep -qx "  time 00:20:00 of 01:00:00 (33.3%) · memory 200.0 MiB of 16.0 GiB (1.2%) · CPU 1.0s so far on 8 cores · read at $AT"
	# Nothing said twice: no line says the figures are missing.
	! printf '%s\n' "${lines[@]}" | grep -qi 'no live figure'
	[[ "${lines[-1]}" == "Enter open  / search  ? keys  q back"*"1/"* ]]
	term_keys q
	term_wait_for "(R shows them)"
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

@test "sp-browse: Enter on a running job opens its post-mortem, live warnings and all, as sp-show" {
	term_exec 100 40 "sp-browse '$J'"
	term_wait_for "? keys"
	term_keys R
	term_wait_for "running now"
	term_keys Enter
	term_wait_for "job 3001"
	[ "${lines[0]}" = "slurmpast · train_5 · job 3001" ]
	[ "${lines[1]}" = "$(sp-show --no-pager --no-color --width 100 -j 3001 "$J" 2>/dev/null | sed -n 1p)" ]
	[ "${lines[1]}" = "3001  train_5  RUNNING not ended: figures so far · critical: live-outlive (+3)" ]
	# A job whose workload has no ended run: its own name.
	term_keys q
	term_wait_for "running now"
	term_keys G Enter
	term_wait_for "job 3002"
	[ "${lines[0]}" = "slurmpast · wait_1 · job 3002" ]
	[ "${lines[1]}" = "$(sp-show --no-pager --no-color --width 100 -j 3002 "$J" 2>/dev/null | sed -n 1p)" ]
	term_keys y
	term_wait_for "nothing to copy: no run of its workload has ended"
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

@test "sp-browse: sstat could not answer: said once, why, and the figures n/a" {
	FAKE_SSTAT_MODE=fail sp-fetch --live -u alice 2>/dev/null | sp-group >"$J"
	term_exec 160 50 "sp-browse '$J'"
	term_wait_for "? keys"
	# The history's warnings need no live figure.
	[ "${lines[4]}" = "Running now: 3 jobs; 1 critical, 1 warning (R shows them)" ]
	term_keys R
	term_wait_for "running now"
	[ "${lines[1]}" = "No live figures for 3 jobs: sstat failed (exit status 1: sstat: fatal: Could not establish a configuration source)" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -ci 'no live figure')" = 1 ]
	[ "${lines[2]}" = "" ]
	[ "${lines[3]}" = "3001  train_5" ]
	[ "${lines[4]}" = "  time 01:00:00 of 02:00:00 (50.0%) · memory n/a of 32.0 GiB · CPU n/a so far on 8 cores" ]
	[ "$(heads)" = "3001 train_5|critical live-outlive|critical live-oom|3003 train_6|warning live-past-usual|3002 wait_1" ]
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

@test "sp-browse: nothing running, no line; R says so in one; a saved history is not of now" {
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv sp-fetch --live -u alice 2>/dev/null | sp-group >"$J"
	term_exec 100 30 "sp-browse '$J'"
	term_wait_for "? keys"
	! printf '%s\n' "${lines[@]}" | grep -q 'Running now'
	term_keys R
	term_wait_for "running now"
	[ "${lines[0]}" = "slurmpast · running now · 0 jobs" ]
	[ "${lines[1]}" = "No job of the window is running." ]
	# Then nothing down to the keys.
	[ "$(printf '%s\n' "${lines[@]:2:27}" | grep -c .)" = 0 ]
	term_keys Q
	term_dead
	# Its records without the live columns: their open records are no
	# job of now, however they are marked.
	sp-fetch -u alice 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/old.tsv"
	[ "$(grep -c RUNNING "$BATS_TEST_TMPDIR/old.tsv")" -gt 0 ]
	term_exec 100 30 "sp-browse '$BATS_TEST_TMPDIR/old.tsv'"
	term_wait_for "? keys"
	! printf '%s\n' "${lines[@]}" | grep -q 'Running now'
	term_keys R
	term_wait_for "running now"
	[ "${lines[1]}" = "No job is shown running: these records were not read with sp-fetch --live, so none is of now." ]
	term_keys Q
	term_dead
}

@test "sp-browse --plain: the line on the jobs running now, under the headline" {
	run --separate-stderr sp-browse --plain "$J"
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "Running now: 3 jobs; 2 critical, 1 warning" ]
	[[ "${lines[4]}" == "workload "* ]]
	run --separate-stderr sp-browse --plain "$SP_TOP/t/sp-browse-running.bats"
	[ "$status" -eq 2 ]
}

@test "slurmpast on a terminal: the dashboard over sacct of now, with what runs now" {
	term_exec 120 40 "slurmpast -u alice -S 2026-01-01"
	term_wait_for "? keys"
	[ "${lines[4]}" = "Running now: 3 jobs; 2 critical, 1 warning (R shows them)" ] ||
		{ printf '%s\n' "${lines[@]}"; return 1; }
	term_keys R
	term_wait_for "running now"
	[ "$(heads)" = "3001 train_5|critical live-outlive|critical live-oom|warning live-near-mem|3003 train_6|warning live-past-usual|3002 wait_1|critical live-noop" ]
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

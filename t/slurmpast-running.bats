#!/usr/bin/env bats
# The jobs running now in slurmpast's report (sp-report running over
# sp-size --running), and a running job's post-mortem (sp-show), with
# sacct and sstat faked (t/fake): t/fake/running-history.psv holds a
# workload's history and three running jobs (t/sp-size-running.bats
# says which), t/fake/running-history-sstat.psv what sstat reads of them.
# t/cluster/live.bats does the same on a real Slurm.

load lib/common
load lib/running

setup() {
	fake_running_history
}

# The moment read made fixed.
fixed() {
	sed 's/read at [0-9T:-]*/read at T/g'
}

# The section titled $1 of a --plain report, up to the next blank line.
section() {
	awk -v t="$1" '$0 == t { on = 1; next } on && /^$/ { exit } on' | fixed
}

@test "slurmpast: a 'Running now' section, each job so far and then its warnings" {
	run --separate-stderr slurmpast --plain -u alice -S 2026-01-01
	[ "$status" -eq 1 ]
	[ "$(section 'Running now' <<<"$output" | grep -v '^          ')" = "job 3001, train_#
critical  live-outlive
critical  live-oom
warning   live-near-mem
job 3003, train_#
warning   live-past-usual
job 3002, wait_#
critical  live-noop" ]
	[ "$(section 'Running now' <<<"$output" | sed -n 2p)" = "          running for 01:00:00 of its 02:00:00 limit (50.0%), 01:00:00 left; memory 30.0 GiB of its 32.0 GiB limit (93.8%) in step batch; CPU 01:40:00 so far on 8 cores (20.8% busy) (live, read at T)" ]
	# After the workloads, before the findings across runs.
	[ "$(grep -n -x -e 'Workloads by compute' -e 'Running now' -e 'Findings across runs' <<<"$output" | cut -d: -f2 | tr '\n' '|')" = "Workloads by compute|Running now|Findings across runs|" ]
}

@test "slurmpast --running: the section alone; --json: each a record" {
	run --separate-stderr slurmpast --plain --running -u alice -S 2026-01-01
	[ "$status" -eq 1 ]
	[ "$(head -n 1 <<<"$output")" = "Running now" ]
	run --separate-stderr slurmpast --json -u alice -S 2026-01-01
	[ "$(jq -r 'select(.section == "running") | .jobid + ":" + .code' <<<"$output" | tr '\n' ' ')" = "3001:running 3001:live-near-mem 3001:live-outlive 3001:live-oom 3003:running 3003:live-past-usual 3002:running 3002:live-noop " ]
}

@test "slurmpast with sstat failing: the report comes, each job says why it has no live figure" {
	FAKE_SSTAT_MODE=fail run --separate-stderr slurmpast --plain -u alice -S 2026-01-01
	[ "$status" -eq 1 ]
	grep -qx 'slurmpast: no live figures for the 3 running jobs (3001, 3003, 3002): sstat failed (exit status 1: sstat: fatal: Could not establish a configuration source)' <<<"$stderr"
	[ "$(section 'Running now' <<<"$output" | grep -c 'no live figures: sstat failed')" -eq 3 ]
	# The history's warnings need no live figure; the live ones are not made.
	[ "$(section 'Running now' <<<"$output" | grep -v '^          ' | tr '\n' '|')" = "job 3001, train_#|critical  live-outlive|critical  live-oom|job 3003, train_#|warning   live-past-usual|job 3002, wait_#|" ]
}

@test "slurmpast: no job running, no section; a dump or the demo, never one" {
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv run --separate-stderr slurmpast --plain -u alice
	! grep -q 'Running now' <<<"$output"
	run --separate-stderr slurmpast --plain --input "$FAKE_SACCT_ROWS"
	! grep -q 'Running now' <<<"$output"
	# A job named: its post-mortem, not the live report (no sstat asked).
	FAKE_SSTAT_LOG=$BATS_TEST_TMPDIR/sstat run --separate-stderr slurmpast --plain -u alice -S 2026-01-01 -j 1101
	[ ! -e "$BATS_TEST_TMPDIR/sstat" ]
}

@test "sp-report running: without a record, one line" {
	printf 'user\tworkload\tworkload_key\tjobid\tcode\tseverity\tevidence\taction\n' >"$BATS_TEST_TMPDIR/none"
	printf 'user\tworkload\tworkload_key\tlabel\n' >"$BATS_TEST_TMPDIR/rollup"
	run --separate-stderr sp-report running --plain --running "$BATS_TEST_TMPDIR/none" --rollup "$BATS_TEST_TMPDIR/rollup"
	[ "$status" -eq 0 ]
	[ "$output" = "No job of the window is running." ]
	run --separate-stderr sp-report running --plain --rollup "$BATS_TEST_TMPDIR/rollup"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-report: running needs --running FILE" ]
}

@test "sp-show of a running job: CPU and memory so far, said to be live, and its warnings" {
	sp-fetch --live -u alice | sp-group >"$BATS_TEST_TMPDIR/jobs"
	run --separate-stderr sp-show --plain --width 80 -j 3001 "$BATS_TEST_TMPDIR/jobs"
	# Critical warnings: exit 1, as for any critical finding.
	[ "$status" -eq 1 ]
	[ "$(grep -o '^  [A-Z]* [a-z-]*:' <<<"$output" | tr '\n' '|')" = "  CRITICAL live-outlive:|  CRITICAL live-oom:|  WARNING live-near-mem:|  INFO open-record:|" ]
	[ "$(sed -n 1p <<<"$output")" = "3001  train_5  RUNNING not ended: figures so far · critical: live-outlive (+3)" ]
	# The gauges' words, wrapped to the width: read as one line.
	flat=$(tr -s ' \n' ' ' <<<"$output" | fixed)
	[[ "$flat" == *"time "*" 01:00:00 of 02:00:00 (50.0%) CPU "*" 01:40:00 of 08:00:00 (20.8%), 1.7 of 8 cores busy · live, read at T memory "*" now 30.0 GiB of 32.0 GiB (93.8%) · live, read at T kernel "* ]]
	# A finished job: its record's peak, nothing live.
	run --separate-stderr sp-show --plain --width 80 -j 1101 "$BATS_TEST_TMPDIR/jobs"
	[ "$status" -eq 0 ]
	[[ "$(tr -s ' \n' ' ' <<<"$output")" == *"peak 40.0 GiB of 48.0 GiB (83.3%) kernel"* ]]
	! grep -q live <<<"$output"
	# Without a live figure: why.
	FAKE_SSTAT_MODE=fail sp-fetch --live -u alice 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/down"
	run --separate-stderr sp-show --plain --width 80 -j 3002 "$BATS_TEST_TMPDIR/down"
	# No live figure, no live warning: the record's own finding alone.
	[ "$status" -eq 0 ]
	[ "$(grep -o '^  [A-Z]* [a-z-]*:' <<<"$output" | tr '\n' '|')" = "  INFO open-record:|" ]
	[[ "$(tr -s ' \n' ' ' <<<"$output")" == *"memory "*"now n/a of 16.0 GiB (n/a) · no live figure: sstat failed (exit status 1: sstat: fatal: Could not establish a configuration source)"* ]]
}

# Issue 30, item 5: the job's own view is the report's, read the same way.
@test "slurmpast JOBID of a running job: its live figures, the report's warnings, its exit" {
	run --separate-stderr slurmpast --plain -u alice -S 2026-01-01
	[ "$status" -eq 1 ]
	report=$(section 'Running now' <<<"$output" |
		awk '/^job 3001,/ { on = 1; next } /^job / { on = 0 } on && /^[a-z]/ { print $2 }' | sort)
	[ "$report" = "$(printf '%s\n' live-near-mem live-oom live-outlive)" ]
	FAKE_SSTAT_LOG=$BATS_TEST_TMPDIR/sstat run --separate-stderr slurmpast --plain -u alice -S 2026-01-01 3001
	[ "$status" -eq 1 ]
	# sstat asked for the job named, once, and its figures shown live
	[ "$(grep -c 3001 "$BATS_TEST_TMPDIR/sstat")" -eq 1 ]
	flat=$(tr -s ' \n' ' ' <<<"$output" | fixed)
	[[ "$flat" == *"01:40:00 of 08:00:00 (20.8%), 1.7 of 8 cores busy · live, read at T"* ]]
	[[ "$flat" == *"now 30.0 GiB of 32.0 GiB (93.8%) · live, read at T"* ]]
	own=$(grep -o '^  [A-Z]* live-[a-z-]*:' <<<"$output" | awk '{ print $2 }' | tr -d : | sort)
	[ "$own" = "$report" ]
	# sstat answered: it runs; no squeue to check
	[[ "$flat" == *"INFO open-record: State=RUNNING, read at T (sstat): its figures are so far, not its end."* ]]
	[[ "$output" != *"Check squeue"* ]]
	# one record of it, though the window and the ids both read it
	run --separate-stderr slurmpast --json -u alice -S 2026-01-01 3001
	[ "$(jq -s 'map(select(.jobid == "3001")) | length' <<<"$output")" -ge 1 ]
	# sstat failing: no live figure, and then squeue is the question
	# (its history's warnings stand: the report's too, without sstat)
	FAKE_SSTAT_MODE=fail run --separate-stderr slurmpast --plain -u alice -S 2026-01-01 3001
	[ "$status" -eq 1 ]
	[[ "$output" == *"Check squeue"* ]]
	[ "$(grep -o '^  [A-Z]* live-[a-z-]*:' <<<"$output" | tr '\n' '|')" = "  CRITICAL live-outlive:|  CRITICAL live-oom:|" ]
}

@test "the headline counts the running jobs' criticals; never 'nothing flagged' above them" {
	run --separate-stderr slurmpast --plain -u alice -S 2026-01-01
	[ "$(sed -n 1p <<<"$output")" = "1 of 4 jobs failed; 2 running jobs critical now" ]
	run --separate-stderr slurmpast --json -u alice -S 2026-01-01
	[ "$(jq -r 'select(.section == "headline") | .running_critical' <<<"$output")" = 2 ]
	# a history whose ended jobs all completed: no "nothing flagged"
	grep -v -e '^1104' "$FAKE_SACCT_ROWS" >"$BATS_TEST_TMPDIR/clean.psv"
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/clean.psv run --separate-stderr slurmpast --plain -u alice -S 2026-01-01
	[ "$(sed -n 1p <<<"$output")" = "3 jobs ended, none failed; 2 running jobs critical now" ]
	# sstat failing: the history's criticals of the running jobs still count
	FAKE_SSTAT_MODE=fail run --separate-stderr slurmpast --plain -u alice -S 2026-01-01
	[ "$(sed -n 1p <<<"$output")" = "1 of 4 jobs failed; 1 running job critical now" ]
	# a dump: nothing running is read, and the headline is as it was
	run --separate-stderr slurmpast --plain --input "$SP_TOP/t/fake/rows.psv"
	[[ "$(sed -n 1p <<<"$output")" != *running* ]]
}

#!/usr/bin/env bats
# sp-size --running: each running job so far, and what its workload's
# history says it will do.  sacct and sstat are faked (t/fake):
# t/fake/running-history.psv holds a workload's three completed runs
# (2.5 h, peaks near 40G at 48G) and one killed for memory at 32G, then
# three running jobs: 3001 of that workload with a 2 h and 32G limit,
# 3003 past every completed run, and 3002 holding two GPUs idle.

load lib/common
load lib/running

setup() {
	fake_running_history
	sp-fetch --live -u alice 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/jobs"
}

# jobid, code, severity, evidence, action; the moment read made fixed.
findings() {
	cut -f 4-8 | sed 's/read at [0-9T:-]*)/read at T)/g'
}

@test "--running: each running job so far, then what its history says" {
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/jobs"
	# A critical warning is the answer a caller must not miss.
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	[ "$(findings <<<"$output" | cut -f 1-3)" = "jobid	code	severity
3001	running	info
3001	live-near-mem	warning
3001	live-outlive	critical
3001	live-oom	critical
3003	running	info
3003	live-past-usual	warning
3002	running	info
3002	live-noop	critical" ]
	[ "$(findings <<<"$output" | awk -F'\t' '$1 == 3001 && $2 == "running" { print $4 }')" = "running for 01:00:00 of its 02:00:00 limit (50.0%), 01:00:00 left; memory 30.0 GiB of its 32.0 GiB limit (93.8%) in step batch; CPU 01:40:00 so far on 8 cores (20.8% busy) (live, read at T)" ]
}

@test "--running: near its limit where its workload was killed for memory" {
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/jobs"
	# The live reading, and apart from it the history of kills: one
	# cause, one finding each, the kills said once.
	[ "$(findings <<<"$output" | awk -F'\t' '$2 == "live-near-mem" { print $4 "|" $5 }')" = "its memory is 30.0 GiB, 93.8% of its 32.0 GiB limit (live, read at T)|it may be killed for memory before it ends; a memory limit cannot be raised while it runs; the next submission: #SBATCH --mem=78G" ]
	[ "$(findings <<<"$output" | awk -F'\t' '$2 == "live-oom" { print $4 }')" = "its workload was killed for memory 1 time, at limits up to 32.0 GiB; this job's limit is 32.0 GiB" ]
}

@test "--running: will outlive its --time, with the runs, the time left and what to ask" {
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/jobs"
	[ "$(findings <<<"$output" | awk -F'\t' '$2 == "live-outlive" { print $4 "|" $5 }')" = "3 of its workload's 3 completed runs took longer than its 02:00:00 limit (the longest 02:35:00, job 1102); 01:00:00 left|an administrator can give it the time now (scontrol update JobId=3001 TimeLimit=05:00:00; a user may only lower a limit); the next submission: #SBATCH --time=05:00:00" ]
}

@test "--running: computing nothing now while it holds GPUs" {
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/jobs"
	[ "$(findings <<<"$output" | awk -F'\t' '$2 == "live-noop" { print $4 "|" $5 }')" = "running for 00:20:00 with 1.0s of CPU so far, holding 2 GPUs (live, read at T)|look at what it waits for (its output, a lock, a peer, input); if it is stuck, scancel 3002" ]
}

@test "--running: past its workload's longest run and largest peak" {
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/jobs"
	[ "$(findings <<<"$output" | awk -F'\t' '$2 == "live-past-usual" { print $4 }')" = "running for 02:50:00, longer than any of its workload's 3 completed runs (the longest 02:35:00); memory 44.0 GiB, above every peak of its workload (the largest 41.0 GiB) (live, read at T)" ]
}

@test "--running without live figures: said, and the history's warnings still made" {
	FAKE_SSTAT_MODE=fail sp-fetch --live -u alice 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/down"
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/down"
	[ "$status" -eq 1 ]
	[ "$(findings <<<"$output" | cut -f 1-2 | tail -n +2 | tr '\t\n' ': ')" = "3001:running 3001:live-outlive 3001:live-oom 3003:running 3003:live-past-usual 3002:running " ]
	[ "$(findings <<<"$output" | awk -F'\t' '$1 == 3002 { print $4 }')" = "running for 00:20:00 of its 01:00:00 limit (33.3%), 00:40:00 left; no live figures: sstat failed (exit status 1: sstat: fatal: Could not establish a configuration source)" ]
	# Records fetched without --live: said so.
	sp-fetch -u alice 2>/dev/null | sp-group | sp-size --running >"$BATS_TEST_TMPDIR/plain" || true
	[ "$(findings <"$BATS_TEST_TMPDIR/plain" | awk -F'\t' '$1 == 3002 { print $4 }')" = "running for 00:20:00 of its 01:00:00 limit (33.3%), 00:40:00 left; no live figures: read without sp-fetch --live" ]
}

@test "--running: no critical warning, exit 0; no job running, the header alone" {
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/running.psv FAKE_SSTAT_ROWS=$SP_TOP/t/fake/running-sstat.psv \
	    sp-fetch --live -u alice 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/few"
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/few"
	[ "$status" -eq 0 ]
	[ "$(findings <<<"$output" | cut -f 1-3 | tail -n +2 | tr '\t\n' ': ')" = "2001:running:info 2001:live-near-mem:warning 2002:running:info 2004_1:running:info 2006:running:info " ]
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv sp-fetch --live -u alice | sp-group >"$BATS_TEST_TMPDIR/none"
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 0 ]
	[ "$output" = "user	workload	workload_key	jobid	code	severity	evidence	action" ]
}

@test "--running --json: each finding a record" {
	run --separate-stderr sp-size --running --json "$BATS_TEST_TMPDIR/jobs"
	[ "$(jq -r 'select(.code == "live-noop") | [.jobid, .severity, .workload_key] | @tsv' <<<"$output")" = "3002	critical	alice/gpu/gpu/wait_#" ]
}

@test "--running is an output of its own" {
	run --separate-stderr sp-size --running --findings "$BATS_TEST_TMPDIR/jobs"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --findings, --running, --cost and --script are different outputs; choose one" ]
	run --separate-stderr sp-size --running --mem "$BATS_TEST_TMPDIR/jobs"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --time, --mem, --cpus-per-task and --gpus choose advice; they do not combine with --running" ]
}

@test "--running: a live figure that is not a number is bad input" {
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "live_rss_b") c = i } NR > 1 && $1 == 3001 { $c = "30G" } 1' \
	    "$BATS_TEST_TMPDIR/jobs" >"$BATS_TEST_TMPDIR/bad"
	run --separate-stderr sp-size --running "$BATS_TEST_TMPDIR/bad"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sp-size: $BATS_TEST_TMPDIR/bad:"*": field 'live_rss_b' is not a number: \"30G\"" ]]
}

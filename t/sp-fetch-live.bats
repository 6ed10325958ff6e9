#!/usr/bin/env bats
# sp-fetch --live: the running jobs' figures of the moment from one sstat
# call.  sacct and sstat are faked (t/fake), each recording how it was
# asked; t/fake/running.psv holds a finished job, four running ones (one
# an array task, one without a step yet, one its gatherer has not
# sampled) and a pending one, t/fake/running-sstat.psv what sstat says
# of them.  t/cluster/live.bats reads a real sstat.

load lib/common

setup() {
	PATH="$SP_TOP/t/fake:$PATH"
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/running.psv
	FAKE_SSTAT_ROWS=$SP_TOP/t/fake/running-sstat.psv
	FAKE_SSTAT_ERR=$SP_TOP/t/fake/running-sstat.err
	FAKE_SSTAT_LOG=$BATS_TEST_TMPDIR/sstat.argv
	SLURMPAST_NO_SITE=1
	export PATH FAKE_SACCT_ROWS FAKE_SSTAT_ROWS FAKE_SSTAT_ERR FAKE_SSTAT_LOG \
		SLURMPAST_NO_SITE
	unset FAKE_SACCT_MODE FAKE_SSTAT_MODE SLURMPAST_TIMEOUT
}

# The columns named, by header, of every record: jobid first.
cols() {
	awk -F'\t' -v want="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; n = split(want, w, " ") }
		{ line = ""
		  for (k = 1; k <= n; k++) line = line (k > 1 ? "\t" : "") $h[w[k]]
		  print line }'
}

sstat_calls() {
	grep -c '^--$' "$FAKE_SSTAT_LOG"
}

LIVE="jobid state live_rss_b live_rss_step live_cpu_s live_why"

@test "--live: the running jobs' figures, unknown with why where sstat gave none" {
	run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	# 2001: its batch step's 30G; CPU 20 min (batch) + 1 h (step 1, two
	# tasks) read now + 10 min of its ended step 0.  2004_1 is asked by
	# its raw id 2005.  A pending job and a finished one: nothing.
	[ "$(cols $LIVE <<<"$output")" = "jobid	state	live_rss_b	live_rss_step	live_cpu_s	live_why
1001	COMPLETED				
2001	RUNNING	32212254720	batch	5400	
2002	RUNNING				no step of it is running yet
2003	PENDING				
2004_1	RUNNING	104857600	batch	300	
2006	RUNNING				its steps have no sample yet (JobAcctGatherFrequency), or this cluster's gatherer takes none" ]
	# One moment for all, as sacct prints times; none where no figure.
	[ "$(cols live_at <<<"$output" | sort -u | wc -l)" -eq 3 ]
	[[ "$(cols jobid live_at <<<"$output" | awk '$1 == 2001 { print $2 }')" =~ ^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$ ]]
	[ "$(cols jobid live_at <<<"$output" | awk '$1 == 2002 { print $2 }')" = "" ]
	# The live columns come last, after every column of the record.
	[ "$(head -n 1 <<<"$output" | tr '\t' '\n' | tail -n 5 | tr '\n' ' ')" = "live_rss_b live_rss_step live_cpu_s live_at live_why " ]
	# Each reason once, naming its jobs.
	[ "$stderr" = "sp-fetch: no live figures for 1 running job (2002): no step of it is running yet
sp-fetch: no live figures for 1 running job (2006): its steps have no sample yet (JobAcctGatherFrequency), or this cluster's gatherer takes none" ]
}

@test "--live: one sstat call for every running job, by raw id, in a pinned environment" {
	FAKE_SSTAT_ENV=$BATS_TEST_TMPDIR/env SACCT_FORMAT=jobid SQUEUE_FORMAT=%i \
	    SLURM_TIME_FORMAT=relative LC_ALL=C.UTF-8 \
	    run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$(sstat_calls)" -eq 1 ]
	[ "$(cat "$FAKE_SSTAT_LOG")" = "--allsteps
--parsable2
--noheader
--format=JobID,MaxRSS,AveCPU,NTasks,TRESUsageInTot
--jobs=2001,2002,2005,2006
--" ]
	[ "$(cat "$BATS_TEST_TMPDIR/env")" = "SLURM_TIME_FORMAT=standard
LC_ALL=C
SACCT_FORMAT=(unset)
SQUEUE_FORMAT=(unset)" ]
}

@test "--live: more running jobs than one argument holds: sstat asked in lists, each job once" {
	# 12,000 running jobs of 8-digit ids: 108 KB of ids, past what one
	# argument should carry; the first and the last have figures.
	awk -F '|' 'NR == 1 { print; next } $1 == "2001" { row = $0 }
		END { for (i = 10000001; i <= 10012000; i++) {
			r = row; gsub(/2001/, i, r); print r } }' \
		"$SP_TOP/t/fake/running.psv" >"$BATS_TEST_TMPDIR/many.psv"
	awk -F '|' 'NR == 1 { print; next } $1 == "2001.batch" {
			r = $0; sub(/^2001/, "10000001", r); print r
			sub(/^10000001/, "10012000", r); print r }' \
		"$SP_TOP/t/fake/running-sstat.psv" >"$BATS_TEST_TMPDIR/many-sstat.psv"
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/many.psv \
	FAKE_SSTAT_ROWS=$BATS_TEST_TMPDIR/many-sstat.psv FAKE_SSTAT_ERR= \
	    run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$(sstat_calls)" -eq 2 ]
	# every id asked, once, no list longer than SP_SSTAT_IDS_BYTES
	[ "$(grep '^--jobs=' "$FAKE_SSTAT_LOG" | sed 's/^--jobs=//' | tr , '\n' | sort | uniq -d | wc -l)" -eq 0 ]
	[ "$(grep '^--jobs=' "$FAKE_SSTAT_LOG" | sed 's/^--jobs=//' | tr , '\n' | wc -l)" -eq 12000 ]
	[ "$(awk '/^--jobs=/ && length($0) > 65536 + 16' "$FAKE_SSTAT_LOG" | wc -l)" -eq 0 ]
	[ "$(cols jobid live_rss_b <<<"$output" | awk 'NR > 1 && $2 != ""' | paste -sd ' ')" = \
	  "10000001	32212254720 10012000	32212254720" ]
}

@test "--live -v says the sstat query" {
	run --separate-stderr sp-fetch --live -u alice -v
	[ "$status" -eq 0 ]
	grep -qx 'sp-fetch: asked: sstat --allsteps --parsable2 --noheader --format=JobID,MaxRSS,AveCPU,NTasks,TRESUsageInTot --jobs=2001,2002,2005,2006' <<<"$stderr"
}

@test "--live with no job running asks sstat nothing, and has the columns" {
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ ! -e "$FAKE_SSTAT_LOG" ]
	[ "$(head -n 1 <<<"$output" | tr '\t' '\n' | tail -n 5 | tr '\n' ' ')" = "live_rss_b live_rss_step live_cpu_s live_at live_why " ]
	# The same records as without --live, the five columns empty.
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv sp-fetch -u alice >"$BATS_TEST_TMPDIR/plain"
	[ "$(tail -n +2 <<<"$output" | sed 's/\t\t\t\t\t$//')" = "$(tail -n +2 "$BATS_TEST_TMPDIR/plain")" ]
}

@test "--live: an sstat without TRESUsageInTot is asked once more without it; AveCPU x NTasks" {
	FAKE_SSTAT_MODE=old run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$(sstat_calls)" -eq 2 ]
	grep -qx -- '--format=JobID,MaxRSS,AveCPU,NTasks' "$FAKE_SSTAT_LOG"
	# Step 1's two tasks at 30 min each: the same hour.
	[ "$(cols jobid live_cpu_s live_rss_b <<<"$output" | awk '$1 == 2001')" = "2001	5400	32212254720" ]
}

@test "--live: sstat failing leaves every running job's figures unknown, said once, the records whole" {
	FAKE_SSTAT_MODE=fail run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-fetch: no live figures for the 4 running jobs (2001, 2002, 2004_1, 2006): sstat failed (exit status 1: sstat: fatal: Could not establish a configuration source)" ]
	[ "$(cols jobid live_rss_b live_why <<<"$output" | awk -F'\t' '$1 == 2001')" = "2001		sstat failed (exit status 1: sstat: fatal: Could not establish a configuration source)" ]
	[ "$(tail -n +2 <<<"$output" | wc -l)" -eq 6 ]
}

@test "--live: sstat that never answers is given up on at the deadline" {
	FAKE_SSTAT_MODE=sleep SLURMPAST_TIMEOUT=0.5 run --separate-stderr timeout 20 sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-fetch: no live figures for the 4 running jobs (2001, 2002, 2004_1, 2006): sstat did not answer within 0.5s (is the controller, slurmctld, up?)" ]
	[ "$(cols jobid live_why <<<"$output" | awk -F'\t' '$1 == "2004_1" { print $2 }')" = "sstat did not answer within 0.5s (is the controller, slurmctld, up?)" ]
}

@test "--live: sstat not on PATH" {
	local d=$BATS_TEST_TMPDIR/bin
	mkdir -p "$d"
	# The fake sacct and what it runs; no sstat.
	cp "$SP_TOP/t/fake/sacct" "$SP_TOP/t/fake/helpformat-24.05" "$d/"
	ln -s "$(command -v awk)" "$d/awk"
	ln -s "$(command -v cat)" "$d/cat"
	run --separate-stderr env PATH="$d:$SP_BIN" sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-fetch: no live figures for the 4 running jobs (2001, 2002, 2004_1, 2006): sstat is not on PATH" ]
}

@test "--live: another user's job is owner-only to sstat" {
	grep -v '^2005' "$FAKE_SSTAT_ROWS" >"$BATS_TEST_TMPDIR/rows"
	{
		cat "$FAKE_SSTAT_ERR"
		echo "sstat: error: slurm_job_step_stat: there was an error with the request to n2 rc = Invalid user id"
		echo "sstat: error: problem getting step_layout for StepId=2005.batch: Invalid user id"
	} >"$BATS_TEST_TMPDIR/err"
	FAKE_SSTAT_ROWS=$BATS_TEST_TMPDIR/rows FAKE_SSTAT_ERR=$BATS_TEST_TMPDIR/err \
	    run --separate-stderr sp-fetch --live -u alice
	[ "$status" -eq 0 ]
	[ "$(cols jobid live_why <<<"$output" | awk -F'\t' '$1 == "2004_1" { print $2 }')" = "sstat answers only a job's owner, or root" ]
	grep -qx "sp-fetch: no live figures for 1 running job (2004_1): sstat answers only a job's owner, or root" <<<"$stderr"
}

@test "--live -M: sstat reads only its own cluster's jobs, and is not asked" {
	run --separate-stderr sp-fetch --live -u alice -M c1
	[ "$status" -eq 0 ]
	[ ! -e "$FAKE_SSTAT_LOG" ]
	[ "$stderr" = "sp-fetch: no live figures for the 4 running jobs (2001, 2002, 2004_1, 2006): sstat reads the jobs of the cluster it runs on, not those of -M or -L" ]
}

@test "--live --json: the figures as numbers, unknown as null" {
	run --separate-stderr sp-fetch --live -u alice --json
	[ "$status" -eq 0 ]
	[ "$(jq -c 'select(.jobid == "2001" or .jobid == "2002") | [.live_rss_b, .live_rss_step, .live_cpu_s, .live_why]' <<<"$output")" = '[32212254720,"batch",5400,null]
[null,null,null,"no step of it is running yet"]' ]
}

@test "--live --steps: a step's record has no live figures of its own" {
	run --separate-stderr sp-fetch --live -u alice --steps
	[ "$status" -eq 0 ]
	[ "$(cols jobid step live_rss_b live_at <<<"$output" | awk -F'\t' '$1 == 2001 && $2 != "" { print $2 "=" $3 $4 }' | tr '\n' ' ')" = "batch= extern= 0= 1= " ]
	[ "$(cols jobid step live_rss_b <<<"$output" | awk -F'\t' '$1 == 2001 && $2 == ""')" = "2001		32212254720" ]
}

@test "--live is refused with --input and --demo" {
	run --separate-stderr sp-fetch --live --input "$FAKE_SACCT_ROWS"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --live reads the jobs running now from sstat: not with --input" ]
	run --separate-stderr sp-fetch --live --demo
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --live reads the jobs running now from sstat: not with --demo" ]
}

@test "--live: the store of finished records never holds a live figure" {
	local h1 store
	h1=$(date -d '-1 hour' +%Y-%m-%dT%H:%M:%S)
	{
		head -n 1 "$FAKE_SACCT_ROWS"
		grep '^1001' "$FAKE_SACCT_ROWS"
		grep '^2001' "$FAKE_SACCT_ROWS" | sed "s/2026-01-06T1[0-9]:[0-9:]*/$h1/g"
	} >"$BATS_TEST_TMPDIR/rows"
	export FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows FAKE_SACCT_WINDOW=1
	sp-fetch --live -a -S 2026-01-01 >"$BATS_TEST_TMPDIR/first" 2>/dev/null
	store=$(ls "$XDG_CACHE_HOME"/slurmpast/*.sacct)
	# sacct's text only: sstat's answer is nowhere in it.
	! grep -q '30G\|32212254720\|live_\|TRESUsageInTot' "$store"
	# The running job is asked of sacct again, and of sstat.
	sp-fetch --live -a -S 2026-01-01 >"$BATS_TEST_TMPDIR/second" 2>/dev/null
	[ "$(cols jobid live_rss_b live_cpu_s <"$BATS_TEST_TMPDIR/second" | tail -n +2)" = "1001		
2001	32212254720	5400" ]
	# Without --live, from the store: the same records, without the five.
	sp-fetch -a -S 2026-01-01 >"$BATS_TEST_TMPDIR/plain"
	cut -f 1-$(($(head -n 1 "$BATS_TEST_TMPDIR/plain" | tr '\t' '\n' | wc -l))) \
	    "$BATS_TEST_TMPDIR/second" | cmp - "$BATS_TEST_TMPDIR/plain"
}

@test "--live: a failed write is a failed run" {
	run --separate-stderr sh -c 'sp-fetch --live -u alice >/dev/full'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sp-fetch: <stdout>: No space left on device" ]]
}

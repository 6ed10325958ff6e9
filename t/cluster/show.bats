#!/usr/bin/env bats
# sp-show on the real Slurm's records of the job mix, with the logs the
# jobs wrote where Slurm put them: the log each job is shown is its own,
# a job that never started is shown none, and the submit lines are read
# as sbatch read them.  Takes the cluster's lock and brings it up as
# fetch.bats does (setup.bash).

bats_require_minimum_version 1.5.0
SP_TOP=${SP_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
load ../lib/common

CLUSTER=$BATS_TEST_DIRNAME
load setup

setup_file() {
	cluster_setup_file
}

teardown_file() {
	cluster_teardown_file
}

setup() {
	[ "$(id -u)" = 0 ] || skip "the real Slurm cluster needs root"
	[ "$(cat "$BATS_FILE_TMPDIR/fetch.rc")" = 0 ] ||
		skip "sp-fetch could not read the mix (fetch.bats says why)"
	export SLURMPAST_NO_SITE=1 LC_ALL=C.UTF-8
	# Not the work directories: the current one is searched too.
	cd "$BATS_TEST_TMPDIR"
}

# show_json KEY: sp-show --json of the mix job KEY (each task of an array).
show_json() {
	sp-show --json -j "$(expect "$1" jobid)" "$RECORDS"
}

@test "a job cancelled while pending is shown no log, not another job's" {
	for key in cancel_pending cancel_held; do
		run show_json "$key"
		[ "$status" -eq 0 ]
		printf '%s\n' "$output" | jq -e '.log.status == "not-started" and
			.log.files == [] and .log.expected.path == null' ||
			{ echo "$key: $output"; return 1; }
		run sp-show --no-color -j "$(expect "$key" jobid)" "$RECORDS"
		[[ "$output" == *"never started"* ]]
		[[ "$output" == *"the job never started, so it wrote none"* ]]
		[[ "$output" != *"inferred"* ]]
	done
}

@test "every log a job of the mix is shown is its own" {
	# Slurm's default name is slurm-%j.out, slurm-%A_%a.out for a task.
	sp-show --json "$RECORDS" | jq -r '
		.jobid as $id | .array_job as $a | .array_task as $t |
		.log.files[] | [$id, (.path | sub(".*/"; "")),
			(if $t == null then "slurm-\($id).out"
			 else "slurm-\($a)_\($t).out" end)] | @tsv' >logs.tsv
	[ -s logs.tsv ]
	run awk -F '\t' '$2 != $3' logs.tsv
	[ -z "$output" ]
}

@test "perl -e inside --wrap is not sbatch's --error" {
	# Found by its conventional name, or (Slurm 24.11 on, whose record
	# has StdOut: a full path in 24.11, bare in 26.05) by the record's
	# slurm-%A_%a.out; never by -e's "perl".
	for i in 1 2 3 4; do
		run show_json "oom_array_$i"
		printf '%s\n' "$output" | jq -e '
			(.submit_line | test("--wrap=perl -e ")) and
			.log.expected.path == null and .log.status == "found" and
			(.log.files[0].how == "conventional" or
			 (.log.files[0].how == "stdout" and
			  (.stdout | test("^(.*/)?slurm-%A_%a[.]out$"))))' ||
			{ echo "oom_array_$i: $output"; return 1; }
	done
}

@test "the multi-step job's log lines are drawn, their escapes decoded" {
	id=$(expect multistep jobid)
	run sp-show --no-color --width 80 -j "$id" "$RECORDS"
	[ "$status" -eq 0 ]
	[[ "$output" == *"│ srun: error: "*"task 0: Exited with exit code 1"* ]]
	[[ "$output" != *'\n'* ]]
	# The record form keeps the line break escaped, as the format says.
	run sp-show --findings -j "$id" "$RECORDS"
	[[ "$output" == *'.out:\nsrun: error: '* ]]
}

@test "a failed job that exited non-zero always has a finding" {
	for key in exit1 exit3 exit7 multistep; do
		run sp-show --findings -j "$(expect "$key" jobid)" "$RECORDS"
		[ "${#lines[@]}" -ge 2 ] || { echo "$key: $output"; return 1; }
	done
}

@test "the array named by its id: one view, its tasks by state and the killed ones" {
	a=$(expect oom_array_1 jobid)
	a=${a%_*}
	oom=$(expect oom_array_3 state)
	run sp-show --no-color --width 80 -j "$a" "$RECORDS"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "$a  oom_array  array, 4 tasks · critical: "* ]]
	[ "${lines[2]}" = "tasks         2 COMPLETED · 2 $oom" ]
	if [ "$oom" = OUT_OF_MEMORY ]; then
		[[ "$output" == *"killed        2 for memory: ${a}_[3-4]"* ]]
	else
		[[ "$output" == *"killed        2 by a signal: ${a}_[3-4]"* ]]
	fi
	[ "$(printf '%s\n' "$output" | grep -c "^${a}_[1-4]  ")" -eq 4 ]
	# --table: the four tasks' rows, a peak within each limit.
	run sp-show --table -j "$a" "$RECORDS"
	[ "${#lines[@]}" -eq 5 ]
	awk -F '\t' 'NR > 1 && !($7 > 0 && $7 <= 1) { exit 1 }' <<<"$output"
}

@test "the rules fire only where they apply: a sleep's timeout, a 5-minute job, a 200M kill" {
	# Issue 15, item 10: 61-87 s of sleep, no CPU, is no timeout-real.
	run sp-show --findings --no-logs -j "$(expect timeout jobid)" "$RECORDS"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' 'NR > 1 { print $5 "/" $6 }')" = "timeout/warning" ]
	[[ "$output" != *"while working"* && "$output" != *"Raise --time"* ]]
	# Item 11: jobs asked 00:05:00 and ran seconds; 00:05:00 is the
	# smallest step, so "a tighter --time=00:05:00" is no change.
	for key in completed exit1 fold_s1e20 sleeper; do
		run sp-show --findings --no-logs -j "$(expect "$key" jobid)" "$RECORDS"
		[[ "$output" != *"--time=00:05:00"* ]] || { echo "$key: $output"; return 1; }
	done
	# Item 7: killed at 200M, the next --mem is in MiB, never 1G.
	for key in oom oom_array_3; do
		run sp-show --findings --no-logs -j "$(expect "$key" jobid)" "$RECORDS"
		[[ "$output" != *"--mem=1G"* && "$output" != *"--mem to 1G"* ]] ||
			{ echo "$key: $output"; return 1; }
	done
	if [ "$(expect oom state)" = OUT_OF_MEMORY ]; then
		run sp-show --findings --no-logs -j "$(expect oom jobid)" "$RECORDS"
		[[ "$output" == *"Raise --mem to 300M (the size that was killed plus 30%"* ]]
	fi
}

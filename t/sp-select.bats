#!/usr/bin/env bats
# sp-select: sacct's selection options over job records, --keys and
# --workloads, and its refusals.

load lib/common

# Six records covering every option: two users, a job asked of two
# partitions, an empty (unknown) QOS, two clusters.
records() {
	printf 'jobid\tuser\tuid\taccount\tpartition\tstate\tname\tnodelist\tqos\tcluster\tworkload_key\n'
	printf '1\talice\t1000\tlab\tgpu\tCOMPLETED\ttrain_s1\tg[001-002]\tnormal\tc1\talice/gpu/gpu/train_s#\n'
	printf '2\talice\t1000\tlab\tgpu\tFAILED\ttrain_s2\tg003\tnormal\tc1\talice/gpu/gpu/train_s#\n'
	printf '3\tbob\t1001\tvision\tcpu\tTIMEOUT\tprep\tc[01-04]\tlong\tc1\tbob/cpu/cpu/prep\n'
	printf '4\tbob\t1001\tvision\tcpu,gpu\tPENDING\tprep\t\t\tc2\tbob/cpu/cpu/prep\n'
	printf '5\tcarol\t1002\tlab\tcpu\tOUT_OF_MEMORY\teval\tc02\tnormal\tc2\tcarol/cpu/cpu/eval\n'
	printf '6\tcarol\t1002\tlab\tcpu\tCANCELLED\teval\tc03\tnormal\tc1\tcarol/cpu/cpu/eval\n'
}

setup() {
	records >"$BATS_TEST_TMPDIR/jobs"
	JOBS=$BATS_TEST_TMPDIR/jobs
}

# The job ids sp-select ARGS... passes, space-separated.
ids() {
	sp-select "$@" "$JOBS" | awk -F '\t' 'NR > 1 { printf "%s%s", s, $1; s = " " }'
}

@test "no option: every record, byte for byte" {
	sp-select "$JOBS" | cmp - "$JOBS"
	sp-select <"$JOBS" | cmp - "$JOBS"
}

@test "-u: login names or uids, a comma list" {
	[ "$(ids -u bob)" = "3 4" ]
	[ "$(ids -u 1002,alice)" = "1 2 5 6" ]
	[ "$(ids --user=nobody)" = "" ]
}

@test "-A, -q, -M: lists; an unknown (empty) field matches nothing; -M all" {
	[ "$(ids -A vision)" = "3 4" ]
	[ "$(ids --accounts lab -q long)" = "" ]
	[ "$(ids -q normal,long)" = "1 2 3 5 6" ]
	[ "$(ids -M c2)" = "4 5" ]
	[ "$(ids -M all)" = "1 2 3 4 5 6" ]
	[ "$(ids -M all,c2)" = "1 2 3 4 5 6" ]
}

@test "-r: a job asked of several partitions matches any of them" {
	[ "$(ids -r gpu)" = "1 2 4" ]
	[ "$(ids --partition cpu)" = "3 4 5 6" ]
}

@test "-s: sacct's names and abbreviations, any case; --failed" {
	[ "$(ids -s TO,oom)" = "3 5" ]
	[ "$(ids -s completed -s ca)" = "1 6" ]
	[ "$(ids -s PD)" = "4" ]
	[ "$(ids --failed)" = "2 3 5" ]
	[ "$(ids --failed -u carol)" = "5" ]
}

@test "--name: the job's own name, exactly" {
	[ "$(ids --name prep)" = "3 4" ]
	[ "$(ids --name train_s1,eval)" = "1 5 6" ]
	[ "$(ids --name 'train_s#')" = "" ]
}

@test "-N: any node of the record's list in the hostlist" {
	[ "$(ids -N g002)" = "1" ]
	[ "$(ids -N 'c[02-03]')" = "3 5 6" ]
	[ "$(ids -N 'g[003,009],c04')" = "2 3" ]
}

@test "-j: every id form sacct prints, lists split outside brackets" {
	sp-fetch --demo 2>/dev/null >"$BATS_TEST_TMPDIR/demo"
	run sp-select -j '52581003_[1,5],53449206' "$BATS_TEST_TMPDIR/demo"
	[ "$(printf '%s\n' "${lines[@]:1}" | cut -f1 | tr '\n' ' ')" = \
	    "52581003_1 52581003_5 53449206 " ]
	# an array's own id stands for every task of it
	[ "$(sp-select -j 52581003 "$BATS_TEST_TMPDIR/demo" | sed 1d | wc -l)" -eq 142 ]
	[ "$(ids -j 3,5 -M c2)" = "5" ]
	run --separate-stderr sp-select -j '12_[3' "$JOBS"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-select: '12_[3' is not a job id (123, 123_4, 123_[1-3,7], 123+1)" ]
}

@test "--keys: each chosen record's workload, once, first seen first" {
	run sp-select --failed --keys "$JOBS"
	[ "$status" -eq 0 ]
	[ "$output" = "workload_key
alice/gpu/gpu/train_s#
bob/cpu/cpu/prep
carol/cpu/cpu/eval" ]
}

@test "--workloads: every run of the workloads a file lists" {
	sp-select -s TO --keys "$JOBS" >"$BATS_TEST_TMPDIR/keys"
	[ "$(ids --workloads "$BATS_TEST_TMPDIR/keys")" = "3 4" ]
	# any stage's records will do: the advice of one workload, say
	printf 'flag\tworkload_key\n--mem\tcarol/cpu/cpu/eval\n' >"$BATS_TEST_TMPDIR/advice"
	[ "$(ids --workloads "$BATS_TEST_TMPDIR/advice" -M c1)" = "6" ]
}

@test "--json and --plain write the chosen records" {
	run sp-select -u bob --json "$JOBS"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .jobid <<<"${lines[1]}")" = 4 ]
	[ "$(jq -r .qos <<<"${lines[1]}")" = null ]
}

@test "the demo: bob's failed jobs are the demo's, judged by state" {
	sp-fetch --demo 2>/dev/null >"$BATS_TEST_TMPDIR/demo"
	want=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["user"] == "bob" && $c["state"] ~ /^(FAILED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|BOOT_FAIL|DEADLINE)$/' \
		"$BATS_TEST_TMPDIR/demo" | wc -l)
	[ "$want" -gt 50 ]
	got=$(sp-select -u bob --failed "$BATS_TEST_TMPDIR/demo" | sed 1d | wc -l)
	[ "$got" -eq "$want" ]
}

@test "refusals: one line each, exit 2" {
	check() {
		local want=$1
		shift
		run --separate-stderr sp-select "$@" "$JOBS"
		[ "$status" -eq 2 ] || { echo "$*: status $status"; return 1; }
		[ -z "$output" ] || { echo "$*: stdout $output"; return 1; }
		[ "$stderr" = "sp-select: $want" ] ||
			{ echo "$*: $stderr"; return 1; }
	}
	check "-u: an empty value in the list" -u ''
	check "-r: an empty value in the list" -r 'a,,b'
	check "-N: no node named" -N ''
	check "-s and --failed both choose states: give one" -s F --failed
	check "-s and --failed both choose states: give one" --failed -s F
	check "-s: unknown state 'DONE' (sacct's states: CD COMPLETED, F FAILED, TO TIMEOUT, OOM OUT_OF_MEMORY, CA CANCELLED, NF NODE_FAIL, ...; see sacct(1))" -s DONE
	check "--keys and --workloads are different outputs: choose one" --keys --workloads x
	check "--workloads: no file named" --workloads ''
}

@test "a column an option needs and the input lacks is named" {
	printf 'jobid\tuser\n1\talice\n' >"$BATS_TEST_TMPDIR/thin"
	run --separate-stderr sp-select -q normal "$BATS_TEST_TMPDIR/thin"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-select: $BATS_TEST_TMPDIR/thin: no column 'qos' (pipe through sp-fetch first)" ]
	run --separate-stderr sp-select --keys "$BATS_TEST_TMPDIR/thin"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-select: $BATS_TEST_TMPDIR/thin: no column 'workload_key' (pipe through sp-group first)" ]
	# an option that reads no missing column is fine
	run --separate-stderr sp-select -u alice "$BATS_TEST_TMPDIR/thin"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
}

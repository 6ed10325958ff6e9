#!/usr/bin/env bats
# sp-hang: allocations that computed nothing, on hand-written job
# records: the records passed through, --summary in every form, and the
# error paths.

load lib/common

# A 42-hour cancelled evaluation on 2 GPUs; a blocked timeout and its
# computing twin; a failed 10-minute CPU hang; a data mover (340 GiB in
# 30 minutes); an OOM that explains itself; an open record; a step.
records() {
	printf 'jobid\tuser\tpartition\tname\tstate\tcancelled_by\texit_code\telapsed_s\ttimelimit_s\ttotal_cpu_s\talloc_cpus\talloc_gpus\tread_b\twrite_b\tstep\topen\n'
	printf '5100057\tyz\ttest\tnode-evaluation\tCANCELLED\t940740146\t0\t151200\t129600\t0.54\t8\t2\t\t\t\t0\n'
	printf '5100001\tyz\ttest\tcot-exp\tTIMEOUT\t\t0\t1826\t1800\t0.5\t6\t1\t\t\t\t0\n'
	printf '5100002\tyz\ttest\tcot-exp\tCOMPLETED\t\t0\t1826\t1800\t1780\t6\t1\t\t\t\t0\n'
	printf '5100003\tyz\ttest\tprep\tFAILED\t\t1\t600\t3600\t2\t4\t0\t\t\t\t0\n'
	printf '5100004\tyz\ttest\tcopy\tCOMPLETED\t\t0\t1800\t7200\t3.1\t16\t0\t268435456000\t96636764160\t\t0\n'
	printf '5100005\tyz\ttest\tbig\tOUT_OF_MEMORY\t\t0\t900\t3600\t1\t8\t0\t\t\t\t0\n'
	printf '5100006\tyz\ttest\trun\tRUNNING\t\t\t9000\t36000\t0\t8\t0\t\t\t\t1\n'
	printf '5100001.batch\tyz\ttest\tbatch\tTIMEOUT\t\t0\t1826\t\t0.5\t6\t1\t\t\tbatch\t0\n'
}

setup() {
	IN="$BATS_TEST_TMPDIR/jobs.tsv"
	records >"$IN"
}

@test "sp-hang: the records that computed nothing pass through" {
	run --separate-stderr sp-hang "$IN"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[ "$stderr" = "sp-hang: left out 1 open record (never ended)" ]
	[ "${#lines[@]}" -eq 5 ]
	[ "${lines[0]}" = "$(printf 'jobid\tuser\tpartition\tname\tstate\tcancelled_by\texit_code\telapsed_s\ttimelimit_s\ttotal_cpu_s\talloc_cpus\talloc_gpus\tread_b\twrite_b\tstep\topen\tkind\twhy\theld_gpu_h\theld_core_h')" ]
	[ "${lines[1]}" = "$(printf '5100057\tyz\ttest\tnode-evaluation\tCANCELLED\t940740146\t0\t151200\t129600\t0.54\t8\t2\t\t\t\t0\thung\theld 2 GPUs for 42:00:00 with 0.54s of CPU, then was cancelled by uid 940740146\t84\t336')" ]
	[ "${lines[2]}" = "$(printf '5100001\tyz\ttest\tcot-exp\tTIMEOUT\t\t0\t1826\t1800\t0.5\t6\t1\t\t\t\t0\tblocked\tblocked, not slow: held 1 GPU for 00:30:26 with 0.50s of CPU until its 00:30:00 limit\t0.507222\t3.043333')" ]
	[ "${lines[3]}" = "$(printf '5100003\tyz\ttest\tprep\tFAILED\t\t1\t600\t3600\t2\t4\t0\t\t\t\t0\thung\theld 4 cores for 00:10:00 with 2.0s of CPU, then failed with exit code 1\t0\t0.666667')" ]
	[ "${lines[4]}" = "$(printf '5100004\tyz\ttest\tcopy\tCOMPLETED\t\t0\t1800\t7200\t3.1\t16\t0\t268435456000\t96636764160\t\t0\tmoving-data\tmoving data, not hung: read 250.0 GiB and wrote 90.0 GiB in 00:30:00 (193.4 MiB/s) with 3.1s of CPU\t0\t8')" ]
}

@test "sp-hang --plain: the run, not its every column" {
	run --separate-stderr sp-hang --plain "$IN"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	expected="jobid    user  name             state      elapsed     kind         held_gpu_h  held_core_h  why
5100057  yz    node-evaluation  CANCELLED  1-18:00:00  hung               84.0        336.0  held 2 GPUs for 42:00:00 with 0.54s of CPU, then was cancelled by uid 940740146
5100001  yz    cot-exp          TIMEOUT      00:30:26  blocked             0.5          3.0  blocked, not slow: held 1 GPU for 00:30:26 with 0.50s of CPU until its 00:30:00 limit
5100003  yz    prep             FAILED       00:10:00  hung                0.0          0.7  held 4 cores for 00:10:00 with 2.0s of CPU, then failed with exit code 1
5100004  yz    copy             COMPLETED    00:30:00  moving-data         0.0          8.0  moving data, not hung: read 250.0 GiB and wrote 90.0 GiB in 00:30:00 (193.4 MiB/s) with 3.1s of CPU"
	[ "$output" = "$expected" ]
}

@test "sp-hang --summary: counts as records, one shape" {
	run --separate-stderr sp-hang --summary "$IN"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[ -z "$stderr" ]
	expected="$(printf '%s\n' \
'section	workload_key	workload	jobid	state	runs	count	elapsed_s	held_gpu_h	held_core_h	share	why' \
'record					6	6		85.014444	352.753333	1	every closed allocation in the input' \
'hangs					6	3		84.507222	339.71	0.994034	3 allocations ran over 00:05:00 with under 10 CPU-seconds of work' \
'unjudged					6	0		0	0	0	not judged: ran over 00:05:00 with no CPU time recorded (total_cpu_s), so whether they computed nothing is unknown' \
'noticed					6	1		0	0.666667	0	ended within 00:15:00: already noticed' \
'long					6	2		84.507222	339.043333	0.994034	ran longer than 00:15:00: the cost is in these' \
'blocked					6	1		0.507222	3.043333	0.00596631	timed out having computed nothing: blocked, not slow; a longer --time buys a longer hang' \
'moving					6	1		0	8	0	not counted: idle CPU explained by the data moved (340.0 GiB)' \
'explained					6	1		0	2	0	not counted: the state says why (OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE)' \
'open					6	1					left out: never ended (running or pending)' \
'worst	yz/test/gpu/node-evaluation	node-evaluation	5100057	CANCELLED		1	151200	84	336	0.988067	held 2 GPUs for 42:00:00 with 0.54s of CPU, then was cancelled by uid 940740146' \
'worst	yz/test/gpu/cot-exp	cot-exp	5100001	TIMEOUT		1	1826	0.507222	3.043333	0.00596631	blocked, not slow: held 1 GPU for 00:30:26 with 0.50s of CPU until its 00:30:00 limit' \
'worst	yz/test/cpu/prep	prep	5100003	FAILED		1	600	0	0.666667	0	held 4 cores for 00:10:00 with 2.0s of CPU, then failed with exit code 1' \
'workload	yz/test/gpu/node-evaluation	node-evaluation			1	1		84	336	0.988067	1 of 1 run computed nothing' \
'workload	yz/test/gpu/cot-exp	cot-exp			2	1		0.507222	3.043333	0.00596631	1 of 2 runs computed nothing' \
'workload	yz/test/cpu/prep	prep			1	1		0	0.666667	0	1 of 1 run computed nothing')"
	[ "$output" = "$expected" ]
}

@test "sp-hang --summary --plain: sentences and two tables" {
	run --separate-stderr sp-hang --summary --plain "$IN"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[ -z "$stderr" ]
	expected="3 allocations ran over 00:05:00 with under 10 CPU-seconds of work.
They held 84.5 GPU-hours and 339.7 core-hours: 99.4% of the 85.0 GPU-hours in the record.
1 ended within 00:15:00 (already noticed); 2 ran longer, holding 84.5 GPU-hours: the cost is in the long ones.
1 timed out having computed nothing: blocked, not slow; a longer --time buys a longer hang.
Not counted as hangs: 1 run moving data (340.0 GiB moved), 1 whose state says why; 1 open record left out.

The worst 3, by GPU-hours held:

jobid    workload         elapsed     held_gpu_h  held_core_h  why
5100057  node-evaluation  1-18:00:00        84.0        336.0  held 2 GPUs for 42:00:00 with 0.54s of CPU, then was cancelled by uid 940740146
5100001  cot-exp            00:30:26         0.5          3.0  blocked, not slow: held 1 GPU for 00:30:26 with 0.50s of CPU until its 00:30:00 limit
5100003  prep               00:10:00         0.0          0.7  held 4 cores for 00:10:00 with 2.0s of CPU, then failed with exit code 1

By workload:

workload_key                 runs  count  held_gpu_h  held_core_h  share
yz/test/gpu/node-evaluation     1      1        84.0        336.0  98.8%
yz/test/gpu/cot-exp             2      1         0.5          3.0   0.6%
yz/test/cpu/prep                1      1         0.0          0.7   0.0%"
	[ "$output" = "$expected" ]
}

@test "sp-hang --summary --json: the counts are numbers" {
	run sp-hang --summary --json "$IN"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[ "${lines[1]}" = '{"section":"hangs","workload_key":null,"workload":null,"jobid":null,"state":null,"runs":6,"count":3,"elapsed_s":null,"held_gpu_h":84.507222,"held_core_h":339.71,"share":0.994034,"why":"3 allocations ran over 00:05:00 with under 10 CPU-seconds of work"}' ]
}

@test "sp-hang --summary: nothing computed nothing" {
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\n1\tCOMPLETED\t600\t590\n' >"$BATS_TEST_TMPDIR/busy.tsv"
	run --separate-stderr sp-hang --summary --plain "$BATS_TEST_TMPDIR/busy.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "0 allocations ran over 00:05:00 with under 10 CPU-seconds of work.
Not counted as hangs: 0 runs moving data (0 B moved), 0 whose state says why; 0 open records left out." ]
	run sp-hang "$BATS_TEST_TMPDIR/busy.tsv"
	[ "$output" = "$(printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\tkind\twhy\theld_gpu_h\theld_core_h')" ]
}

# No TotalCPU in the dump (XDMoD-style): over five minutes, unknown.
@test "sp-hang --summary: no CPU time is unknown, never 0 hangs" {
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\n1\tCOMPLETED\t600\t\n2\tNODE_FAIL\t900\t\n3\tCOMPLETED\t60\t\n' >"$BATS_TEST_TMPDIR/nocpu.tsv"
	run --separate-stderr sp-hang --summary --plain "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "No allocation over 00:05:00 could be judged: none of the 1 has CPU time recorded (total_cpu_s), so whether any computed nothing is unknown." ]
	[[ "$output" != *"0 allocations ran over"* ]]
	run --separate-stderr sp-hang --summary "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "${lines[2]}" = "$(printf 'hangs\t\t\t\t\t3\t\t\t\t\t\tNo allocation over 00:05:00 could be judged: none of the 1 has CPU time recorded (total_cpu_s), so whether any computed nothing is unknown')" ]
	[ "$(printf '%s\n' "${lines[3]}" | cut -f1,7)" = "$(printf 'unjudged\t1')" ]
	run --separate-stderr sp-hang "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "$stderr" = "sp-hang: could not judge 1 allocation: no CPU time recorded (total_cpu_s)" ]
	# one judged long run: counted, the unknown one named apart
	printf '4\tCOMPLETED\t600\t2\n' >>"$BATS_TEST_TMPDIR/nocpu.tsv"
	run --separate-stderr sp-hang --summary --plain "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "${lines[0]}" = "1 allocation ran over 00:05:00 with under 10 CPU-seconds of work; 1 more could not be judged (no CPU time recorded)." ]
}

@test "sp-hang --summary: the worst ten, most GPU-hours then longest" {
	{
		printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\ttotal_cpu_s\talloc_cpus\talloc_gpus\n'
		for i in $(seq 1 14); do
			printf '%s\tw%s\tyz\tp\tCOMPLETED\t%s\t0\t1\t%s\n' \
				"$i" "$i" "$((600 + i))" "$((i % 3))"
		done
	} >"$BATS_TEST_TMPDIR/many.tsv"
	run sp-hang --summary "$BATS_TEST_TMPDIR/many.tsv"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	worst=$(printf '%s\n' "${lines[@]}" | awk -F '\t' '$1 == "worst" { printf "%s ", $4 }')
	[ "$worst" = "14 11 8 5 2 13 10 7 4 1 " ]
	# without workload_key the names fold as sp-group folds them
	[[ "${lines[$((${#lines[@]} - 1))]}" == "$(printf 'workload\tyz/p/cpu/w#\tw#\t\t\t4\t4\t')"* ]]
}

@test "sp-hang: split by user, run in parts, concatenated: the same records" {
	awk -F '\t' 'NR == 1 { h = $0; next }
		{ f = d "/part-" ($2 == "yz" && $1 % 2 ? "odd" : "even") ".tsv"
		  if (!(f in seen)) { print h > f; seen[f] = 1 }; print > f }' \
		d="$BATS_TEST_TMPDIR" "$IN"
	whole=$(sp-hang "$IN" 2>/dev/null; [ $? -eq 1 ])
	parts=$({ sp-hang "$BATS_TEST_TMPDIR/part-odd.tsv"
		  sp-hang "$BATS_TEST_TMPDIR/part-even.tsv" | tail -n +2; } 2>/dev/null)
	[ "$(printf '%s\n' "$whole" | wc -l)" -eq 5 ]
	[ "$(printf '%s\n' "$parts" | sort)" = "$(printf '%s\n' "$whole" | sort)" ]
}

@test "sp-hang: steps are skipped, not passed through" {
	run sp-hang "$IN"
	[[ "$output" != *"5100001.batch"* ]]
}

@test "sp-hang: without total_cpu_s, pipe through sp-fetch" {
	printf 'jobid\tstate\telapsed_s\n1\tTIMEOUT\t900\n' >"$BATS_TEST_TMPDIR/raw.tsv"
	run --separate-stderr sp-hang "$BATS_TEST_TMPDIR/raw.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-hang: $BATS_TEST_TMPDIR/raw.tsv: no column 'total_cpu_s' (pipe through sp-fetch first)" ]
}

@test "sp-hang: a bad number names file and line" {
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\n1\tTIMEOUT\t900\t0\n2\tTIMEOUT\t15:00\t0\n' >"$BATS_TEST_TMPDIR/bad.tsv"
	run --separate-stderr sp-hang --summary "$BATS_TEST_TMPDIR/bad.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-hang: $BATS_TEST_TMPDIR/bad.tsv:3: field 'elapsed_s' is not a number: \"15:00\"" ]
}

@test "sp-hang: usage errors are one line and exit 2" {
	run --separate-stderr sp-hang --bogus
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-hang: unknown option '--bogus' (see sp-hang --help)" ]
	run --separate-stderr sp-hang "$BATS_TEST_TMPDIR/absent.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-hang: $BATS_TEST_TMPDIR/absent.tsv: No such file or directory" ]
}

@test "sp-hang: writing to /dev/full fails with exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run --separate-stderr sh -c 'sp-hang --summary "$1" >/dev/full' sh "$IN"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-hang: <stdout>: No space left on device" ]
}

@test "sp-hang: a run cancelled by its own user says so" {
	printf 'jobid\tuid\tstate\tcancelled_by\telapsed_s\ttotal_cpu_s\talloc_gpus\n7\t41203\tCANCELLED\t41203\t3600\t0.1\t1\n' >"$BATS_TEST_TMPDIR/own.tsv"
	run sp-hang "$BATS_TEST_TMPDIR/own.tsv"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[ "${lines[1]}" = "$(printf '7\t41203\tCANCELLED\t41203\t3600\t0.1\t1\thung\theld 1 GPU for 01:00:00 with 0.10s of CPU, then was cancelled by its owner\t1\t')" ]
}

# ------------------------------------------------------------- the demo
# examples/demo-expected.md, "sp-hang --summary": read straight from
# sp-fetch, as the file runs it (sp-hang folds the workloads itself).

demo_records() {
	sp-fetch --help 2>&1 | grep -q -- '--demo' || skip "sp-fetch --demo is not built yet"
	sp-fetch --demo >"$BATS_TEST_TMPDIR/demo.tsv"
	DEMO=$BATS_TEST_TMPDIR/demo.tsv
}

# field SECTION COLUMN [KEY]: that column of the first --summary row of
# SECTION (and workload_key KEY)
field() {
	awk -F '\t' -v s="$1" -v c="$2" -v k="${3:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$1 == s && (k == "" || $2 == k) { print $h[c]; exit }' "$BATS_TEST_TMPDIR/summary.tsv"
}

@test "demo: the 42-hour evaluation, the blocked sessions, the data mover" {
	demo_records
	run --separate-stderr sp-hang --plain "$DEMO"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[ "$stderr" = "sp-hang: left out 4 open records (never ended)" ]
	[[ "$output" == *"53563545  alice  node-evaluation    CANCELLED  1-18:00:00  hung               84.0        336.0  held 2 GPUs for 42:00:00 with 0.54s of CPU, then was cancelled by its owner"* ]]
	[[ "$output" == *"52525800  carol  stage-shards       COMPLETED    00:44:00  moving-data         0.0          2.9  moving data, not hung: read 300.0 GiB and wrote 298.0 GiB in 00:44:00 (232.0 MiB/s) with 7.5s of CPU"* ]]
	[[ "$output" == *"52701622  bob    jupyter            TIMEOUT    1-00:00:42  blocked            24.0         96.0  blocked, not slow: held 1 GPU for 24:00:42 with 4.2s of CPU until its 24:00:00 limit"* ]]
	[[ "$output" == *"53490412  bob    interactive        COMPLETED    00:06:10  hung                0.1          0.4  held 1 GPU for 00:06:10 with 1.1s of CPU, then completed"* ]]
}

@test "demo --summary: figure 10's hangs, node-evaluation first" {
	demo_records
	status=0
	sp-hang --summary "$DEMO" >"$BATS_TEST_TMPDIR/summary.tsv" || status=$?
	[ "$status" -eq 1 ]
	hangs=$(field hangs count)
	[ "$hangs" -gt 0 ]
	[ $(( $(field noticed count) + $(field long count) )) -eq "$hangs" ]
	[ "$(field record count)" -eq 3611 ]
	[ "$(field open count)" -eq 4 ]
	[ "$(field moving count)" -eq 1 ]
	[ "$(field moving why)" = "not counted: idle CPU explained by the data moved (598.0 GiB)" ]
	# the share is the hangs' GPU-hours over the record's
	awk -v h="$(field hangs held_gpu_h)" -v r="$(field record held_gpu_h)" \
	    -v s="$(field hangs share)" 'BEGIN { d = h / r - s; exit !(d < 1e-6 && d > -1e-6) }'
	[ "$(field worst jobid)" = 53563545 ]
	[ "$(field worst why)" = "held 2 GPUs for 42:00:00 with 0.54s of CPU, then was cancelled by its owner" ]
	[ "$(field worst held_gpu_h)" = 84 ]
	# figure 6: 99 timeouts of 137 runs, 50 GPU-hours and 300 core-hours
	[ "$(field workload count alice/gpu/gpu/reasoning-exp)" = 99 ]
	[ "$(field workload runs alice/gpu/gpu/reasoning-exp)" = 137 ]
	[ "$(field workload held_gpu_h alice/gpu/gpu/reasoning-exp)" = 50 ]
	[ "$(field workload held_core_h alice/gpu/gpu/reasoning-exp)" = 300 ]
	[ "$(field workload count alice/gpu/gpu/cot-exp)" = 14 ]
	[ "$(field workload runs alice/gpu/gpu/cot-exp)" = 20 ]
	[ "$(field workload count bob/gpu/gpu/interactive)" = 4 ]
	# the node table's workload hangs more than any other
	[ "$(field workload workload_key)" = "alice/gpu/gpu/rollout-gen" ]
	[ "$(field workload count)" = 105 ]
}

@test "demo --summary --plain: the sentences state the counts" {
	demo_records
	run --separate-stderr sp-hang --summary --plain "$DEMO"
	[ "$status" -eq 1 ]	# a hang: a critical finding
	[[ "${lines[0]}" =~ ^[0-9]+\ allocations\ ran\ over\ 00:05:00\ with\ under\ 10\ CPU-seconds\ of\ work\.$ ]]
	[[ "${lines[1]}" =~ ^They\ held\ [0-9.]+\ GPU-hours\ and\ [0-9.]+\ core-hours:\ [0-9.]+%\ of\ the\ [0-9.]+\ GPU-hours\ in\ the\ record\.$ ]]
	[[ "$output" == *"Not counted as hangs: 1 run moving data (598.0 GiB moved), "* ]]
	[[ "$output" == *"The worst 10, by GPU-hours held:"* ]]
}

# A hung or blocked allocation is the noop-allocation (timeout-hang) that
# sp-show calls critical; one that moved data is not a hang.
@test "exit status: 1 for a hung or blocked allocation, 0 for a data mover alone" {
	demo_records
	for args in "" --summary "--summary --json" --plain; do
		for j in 53563545 52701622; do	# hung, blocked
			sp-select -j "$j" "$DEMO" >"$BATS_TEST_TMPDIR/one.tsv"
			# shellcheck disable=SC2086 # the words apart
			run --separate-stderr sp-hang $args "$BATS_TEST_TMPDIR/one.tsv"
			[ "$status" -eq 1 ] || { echo "$j $args: $status"; return 1; }
			[ -n "$output" ]
		done
		sp-select -j 52525800 "$DEMO" >"$BATS_TEST_TMPDIR/one.tsv"	# moving data
		run --separate-stderr sp-hang $args "$BATS_TEST_TMPDIR/one.tsv"
		[ "$status" -eq 0 ] || { echo "mover $args: $status"; return 1; }
		[ -n "$output" ]
	done
}

#!/usr/bin/env bats
# sp-size: advice per workload and flag, findings across runs, the
# re-costing of figure 9; exact outputs, the errors, the site facts, and
# the demo's workloads reaching the article's conclusions.

load lib/common

# A terminal test that fails leaves no tmux server holding bats open.
teardown() {
	declare -F term_stop >/dev/null && term_stop || :
}

HPC_FIELDS=State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition

setup() {
	T=$BATS_TEST_TMPDIR
	export SLURMPAST_NO_SITE=1
	# midtrain: the newest run asks 2 hours, older ones 8; one run is
	# still open.  Three runs that barely vary count the prior spread:
	# x 1.90 on the longest and on the largest peak (sp-size(1)).  dedup: two runs.  once: one failure.
	cat >"$T/jobs.tsv" <<-'EOF'
	jobid	array_job	state	elapsed_s	timelimit_s	alloc_cpus	ntasks	total_cpu_s	mem_limit_node_b	max_rss_b	alloc_gpus	gpu_util	start	workload_key
	101		COMPLETED	6000	28800	4	1	23000	214748364800	198100000000	3	0.9	2026-01-01T10:00:00	alice/gpu/gpu/midtrain
	102		COMPLETED	6500	28800	4	1	24000	214748364800	198200000000	3	0.9	2026-01-02T10:00:00	alice/gpu/gpu/midtrain
	103		COMPLETED	6769	7200	4	1	19899	214748364800	198150000000	3	0.95	2026-01-03T10:00:00	alice/gpu/gpu/midtrain
	104		RUNNING	100	7200	4	1		214748364800		3		2026-01-04T10:00:00	alice/gpu/gpu/midtrain
	201		COMPLETED	1000	3600	1	1	998	4294967296	1073741824	0		2026-01-01T10:00:00	bob/cpu/cpu/dedup
	202		COMPLETED	900	3600	1	1	899	4294967296	1288490188	0		2026-01-02T10:00:00	bob/cpu/cpu/dedup
	301		FAILED	60	3600	2	1	50	4294967296	1073741824	0		2026-01-01T10:00:00	bob/cpu/cpu/once
	EOF
	# The tokenizer of the article's figure 4.
	printf 'jobid\tarray_job\tstate\telapsed_s\ttimelimit_s\talloc_cpus\tntasks\ttotal_cpu_s\tmem_limit_node_b\tmax_rss_b\tworkload_key\n' >"$T/tok.tsv"
	i=0
	for m in 48 32 32 17 12 12 14 16 18 32; do
		case $i in 0) s=CANCELLED ;; 9) s=COMPLETED ;; *) s=OUT_OF_MEMORY ;; esac
		rss=$(( (m * 1024 + 100) * 1048576 ))
		[ $i -eq 9 ] && rss=$(( 24 * 1073741824 ))
		printf '%s\t\t%s\t1200\t28800\t16\t1\t2000\t%s\t%s\talice/cpu/cpu/rc-tok\n' \
		    $((7000 + i)) $s $((m * 1073741824)) $rss >>"$T/tok.tsv"
		i=$((i + 1))
	done
}

@test "sp-size: one advice record per workload and flag, exactly" {
	run --separate-stderr sp-size "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-size: left out 1 open record (never ended)" ]
	caveat='MaxRSS reads high where jobacct_gather/linux counts shared pages once per process (the gather type here is unknown): an upper bound; a live reading of the running job measures the real footprint'
	[ "$output" = "$(printf '%s\n' \
		'user	workload	workload_key	flag	runs	verdict	requested_text	suggestion	sbatch	observed_text	basis	caution	unit	requested	target	observed	risk	risk_cut_off	risk_judged' \
		'alice	midtrain	alice/gpu/gpu/midtrain	--time	3	raise	02:00:00	--time=03:45:00	#SBATCH --time=03:45:00	01:52:49	longest of 3 completed runs took 01:52:49	job 103 finished 00:07:11 inside its 02:00:00 limit	seconds	7200	13500	6769			' \
		"alice	midtrain	alice/gpu/gpu/midtrain	--mem	3	raise	200G	--mem=351G	#SBATCH --mem=351G	184.6 GiB	largest peak of 3 runs within their limit: 184.6 GiB (job 102), x 1.90	$caveat	bytes	214748364800	376883380224	198200000000			" \
		'alice	midtrain	alice/gpu/gpu/midtrain	--cpus-per-task	3	raise	4	--cpus-per-task=5	#SBATCH --cpus-per-task=5	3.8 cores busy per task at peak across 3 runs	the busiest run (job 101) kept 3.8 of its 4 cores per task busy		cores	4	5	3.833333			' \
		'alice	midtrain	alice/gpu/gpu/midtrain	--gpus	3	keep	3			2.8 GPUs busy at peak across 3 runs	the busiest run (job 103) kept 2.8 of its 3 GPUs busy; a busy GPU is no evidence that another would help: the code decides how many it can use, so the record never raises --gpus		GPUs	3	4	2.85			' \
		'bob	dedup	bob/cpu/cpu/dedup	--time	2	refuse	01:00:00			00:16:40	needs 3 completed runs; there were 2		seconds	3600		1000			' \
		"bob	dedup	bob/cpu/cpu/dedup	--mem	2	refuse	4G			1.2 GiB	needs 3 runs with a peak or a kill at a known limit; there were 2	$caveat	bytes	4294967296		1288490188			" \
		'bob	dedup	bob/cpu/cpu/dedup	--cpus-per-task	2	refuse	1				needs 3 runs with a CPU reading; there were 2		cores	1					' \
		'bob	once	bob/cpu/cpu/once	--time	0	refuse	01:00:00				needs 3 completed runs; there were 0		seconds	3600					' \
		"bob	once	bob/cpu/cpu/once	--mem	1	refuse	4G			1.0 GiB	needs 3 runs with a peak or a kill at a known limit; there was 1	$caveat	bytes	4294967296		1073741824			" \
		'bob	once	bob/cpu/cpu/once	--cpus-per-task	1	refuse	2				needs 3 runs with a CPU reading; there was 1		cores	2					')" ]
}

@test "sp-size: each --time and --mem advice says what the replay measured" {
	# sp-backtest's hand-made history (slow: a fifth run 20x longer;
	# big: a fifth killed at 1G after peaks of 2 GiB), and steady: 14
	# runs alike, each ending before the next, so its own replay judges
	# 11 of them.  slow and big have too few: every workload's runs
	# judged with 4 or 5 before speak for them (slow's fifth, cut off;
	# steady's fifth and sixth; and for --mem big's fifth, given room).
	{
		printf 'jobid\tstate\tsubmit\tstart\tend\telapsed_s\ttimelimit_s\ttotal_cpu_s\talloc_cpus\tmem_limit_node_b\tmax_rss_b\tworkload_key\n'
		for i in 1 2 3 4; do
			printf "10$i\tCOMPLETED\t2026-01-0${i}T00:00:00\t2026-01-0${i}T00:00:00\t2026-01-0${i}T00:10:00\t600\t3600\t590\t1\t4294967296\t1073741824\tu/p/cpu/slow\n"
			printf "20$i\tCOMPLETED\t2026-01-0${i}T00:00:00\t2026-01-0${i}T00:00:00\t2026-01-0${i}T01:00:00\t3600\t7200\t3500\t1\t4294967296\t2147483648\tu/p/cpu/big\n"
		done
		printf "105\tCOMPLETED\t2026-01-05T00:00:00\t2026-01-05T00:00:00\t2026-01-05T03:20:00\t12000\t14400\t11900\t1\t4294967296\t1073741824\tu/p/cpu/slow\n"
		printf "205\tOUT_OF_MEMORY\t2026-01-05T00:00:00\t2026-01-05T00:00:00\t2026-01-05T00:05:00\t300\t7200\t290\t1\t1073741824\t1073741824\tu/p/cpu/big\n"
		for i in 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
			printf "3$i\tCOMPLETED\t2026-02-${i}T00:00:00\t2026-02-${i}T00:00:00\t2026-02-${i}T00:50:00\t3000\t7200\t2990\t1\t4294967296\t2147483648\tu/p/cpu/steady\n"
		done
	} >"$T/replay.tsv"
	run --separate-stderr sp-size --time --mem "$T/replay.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f3-5,17-)" = "$(printf '%s\n' \
		'workload_key	flag	runs	risk	risk_cut_off	risk_judged' \
		"u/p/cpu/steady	--time	14	from 14 runs; on this workload's history the advice cut off 0 of 11 later runs	0	11" \
		"u/p/cpu/steady	--mem	14	from 14 runs; on this workload's history the advice cut off 0 of 11 later runs	0	11" \
		'u/p/cpu/big	--time	4	from 4 runs; on this history advice from 4-5 runs cut off 1 of 3 later runs	1	3' \
		'u/p/cpu/big	--mem	5	from 5 runs; on this history advice from 4-5 runs cut off 0 of 4 later runs	0	4' \
		'u/p/cpu/slow	--time	5	from 5 runs; on this history advice from 4-5 runs cut off 1 of 3 later runs	1	3' \
		'u/p/cpu/slow	--mem	5	from 5 runs; on this history advice from 4-5 runs cut off 0 of 4 later runs	0	4')" ]
	# --cpus-per-task is not replayed: unknown, empty
	run --separate-stderr sp-size --cpus-per-task "$T/replay.tsv"
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f17-)" = "$(printf '\t\t')" ]
}

@test "sp-size --time --gpus: only the flags asked for, --gpus only where GPUs are held" {
	run sh -c 'sp-size --time --gpus "$1" 2>/dev/null | cut -f3,4,6' sh "$T/jobs.tsv"
	[ "$output" = "$(printf 'workload_key\tflag\tverdict\nalice/gpu/gpu/midtrain\t--time\traise\nalice/gpu/gpu/midtrain\t--gpus\tkeep\nbob/cpu/cpu/dedup\t--time\trefuse\nbob/cpu/cpu/once\t--time\trefuse')" ]
}

@test "sp-size: the tokenizer holds --mem: memory already succeeded at a killed size" {
	run sh -c 'sp-size --mem "$1" | cut -f4,6,7,8,11' sh "$T/tok.tsv"
	[ "${lines[1]}" = "$(printf '%s\t%s\t%s\t\t%s' --mem hold 32G 'job 7009 completed at 32G, a size already killed for memory (job 7001): memory is not the deciding variable, so no increment beyond 32G; the largest peak within its limit, 24.0 GiB (job 7009), x 1.30 fits in it')" ]
}

@test "sp-size --findings: the walk of limits, critical on the contradiction" {
	run --separate-stderr sp-size --findings "$T/tok.tsv"
	[ "$status" -eq 1 ]	# the critical finding
	[ "${lines[0]}" = "$(printf 'user\tworkload\tworkload_key\tjobid\tcode\tseverity\tevidence\taction')" ]
	[ "${lines[1]}" = "$(printf '%s\t' alice rc-tok alice/cpu/cpu/rc-tok '7009 7001 7002 7003 7004 7005 7006 7007 7008' memory-search critical \
		'8 submissions were killed for memory at 6 different --mem values, in order: 32G x2 -> 17G -> 12G x2 -> 14G -> 16G -> 18G. Job 7009 later COMPLETED at 32G, a size already killed (job 7001).')Memory is not the deciding variable: find what else changed (workers, batch size, input shard); no increment beyond 32G, and nothing below it: a smaller request dies as the killed runs did." ]
	[ "${lines[2]}" = "$(printf '%s\t' alice rc-tok alice/cpu/cpu/rc-tok '7008 7007 7006 7005 7004 7003 7002 7001' repeat-failure warning \
		'8 of 10 runs failed; 8 were OUT_OF_MEMORY.')Killed for memory: see the memory finding and sp-size --mem." ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "sp-size --findings-to: the advice, and the findings in a file, as two runs write them" {
	sp-fetch --demo 2>/dev/null | sp-group 2>/dev/null >"$T/demo.tsv"
	for fmt in --tsv --json; do
		sp-size "$fmt" "$T/demo.tsv" >"$T/advice" 2>"$T/advice.err"
		sp-size "$fmt" --findings "$T/demo.tsv" >"$T/findings" 2>/dev/null || [ $? -eq 1 ]
		run --separate-stderr sp-size "$fmt" --findings-to "$T/both.findings" "$T/demo.tsv"
		[ "$status" -eq 1 ]	# the demo holds a critical finding
		cmp "$T/advice" <(printf '%s\n' "$output")
		cmp "$T/findings" "$T/both.findings"
		[ "$stderr" = "$(cat "$T/advice.err")" ]
	done
	[ "$(wc -l <"$T/findings")" -gt 10 ]
	# No critical finding: status 0.
	run --separate-stderr sp-size --findings-to="$T/none" "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ "$(head -n 1 "$T/none")" = "$(printf 'user\tworkload\tworkload_key\tjobid\tcode\tseverity\tevidence\taction')" ]
	[ "$(cut -f6 "$T/none" | grep -cx critical)" -eq 0 ]
	run --separate-stderr sp-size --findings-to "$T/tok.findings" "$T/tok.tsv"
	[ "$status" -eq 1 ]
	[ "$(sed -n 2p "$T/tok.findings" | cut -f5,6)" = "$(printf 'memory-search\tcritical')" ]
	# With another output, or nowhere to write: one line, exit 2.
	for opt in --findings --cost; do
		run --separate-stderr sp-size "$opt" --findings-to "$T/x" "$T/jobs.tsv"
		[ "$status" -eq 2 ]
		[ "$stderr" = "sp-size: --findings-to writes the findings beside the advice: no --findings, --running, --cost or --script" ]
	done
	run --separate-stderr sp-size --findings-to "$T/no/such/dir" "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --findings-to: $T/no/such/dir: No such file or directory" ]
	if [ -w /dev/full ]; then
		run --separate-stderr sp-size --findings-to /dev/full "$T/jobs.tsv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == "sp-size: "*"No space left on device" ]]
	fi
}

@test "sp-size --cost: requested, used, recommended, reductions only" {
	run sp-size --cost "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	# The row names its unit: no column claims hours for GiB-hours.
	[ "$output" = "$(printf '%s\n' \
		'resource	unit	runs	requested	used	recommended	reductions_only	note' \
		"memory	GiB-hours	3	1070.5	987.765211	1878.7275	1070.5	used is the MaxRSS peak held for the run's length: an upper bound, so the real gap is wider" \
		'cpu	core-hours	3	21.41	18.583056	26.7625	21.41	used is the CPU time the work steps burned' \
		'time	limit-hours	3	18	5.3525	11.25	18	used is the wall clock the runs took')
sp-size: left out 1 open record (never ended)" ]
}

@test "sp-size: no direction without a request: raise only below an earlier one" {
	# The newest run of each recorded no --time (a partition default).
	# up: earlier runs asked 1 h, under the 01:45:00 target.  same:
	# earlier runs asked 2 h.  never: no run recorded one.
	{
		printf 'jobid\tstate\telapsed_s\ttimelimit_s\ttotal_cpu_s\tworkload_key\n'
		printf '%s\tCOMPLETED\t3000\t%s\t2900\t%s\n' \
		    1 3600 u/p/cpu/up 2 3600 u/p/cpu/up 3 '' u/p/cpu/up \
		    4 7200 u/p/cpu/same 5 7200 u/p/cpu/same 6 '' u/p/cpu/same \
		    7 '' u/p/cpu/never 8 '' u/p/cpu/never 9 '' u/p/cpu/never
	} >"$T/noreq.tsv"
	run --separate-stderr sp-size --time "$T/noreq.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' \
		'user	workload	workload_key	flag	runs	verdict	requested_text	suggestion	sbatch	observed_text	basis	caution	unit	requested	target	observed	risk	risk_cut_off	risk_judged' \
		'u	never	u/p/cpu/never	--time	3	keep		--time=01:45:00	#SBATCH --time=01:45:00	00:50:00	longest of 3 completed runs took 00:50:00; the newest run recorded no request (a partition default, say), so no direction: the suggestion is what the history supports		seconds		6300	3000			' \
		'u	same	u/p/cpu/same	--time	3	keep		--time=01:45:00	#SBATCH --time=01:45:00	00:50:00	longest of 3 completed runs took 00:50:00; the newest run recorded no request (a partition default, say), so no direction: the suggestion is what the history supports		seconds		6300	3000			' \
		'u	up	u/p/cpu/up	--time	3	raise		--time=01:45:00	#SBATCH --time=01:45:00	00:50:00	longest of 3 completed runs took 00:50:00; the newest run recorded no request (a partition default, say), but earlier runs asked for as little as 01:00:00		seconds		6300	3000			')" ]
}

@test "sp-size: a missing column names the stage that adds it" {
	printf 'jobid\tstate\telapsed_s\n1\tCOMPLETED\t60\n' >"$T/nokey.tsv"
	run --separate-stderr sp-size "$T/nokey.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-size: $T/nokey.tsv: no column 'workload_key' (pipe through sp-group first)" ]
	printf 'jobid\telapsed_s\tworkload_key\n1\t60\tu/p/cpu/w\n' >"$T/nostate.tsv"
	run --separate-stderr sp-size "$T/nostate.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: $T/nostate.tsv: no column 'state' (pipe through sp-fetch first)" ]
}

@test "sp-size: a field that is not a number names file and line" {
	printf 'state\telapsed_s\tworkload_key\nCOMPLETED\t60\tu/p/cpu/w\nCOMPLETED\t1:00\tu/p/cpu/w\n' >"$T/bad.tsv"
	run --separate-stderr sp-size "$T/bad.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-size: $T/bad.tsv:3: field 'elapsed_s' is not a number: \"1:00\"" ]
}

@test "sp-size: usage errors are one line and exit 2" {
	run --separate-stderr sp-size --findings --cost "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --findings, --running, --cost and --script are different outputs; choose one" ]
	run --separate-stderr sp-size --cost --mem "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --time, --mem, --cpus-per-task and --gpus choose advice; they do not combine with --cost" ]
	run --separate-stderr sp-size --plain --json "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --plain and --json are different outputs: choose one" ]
	[ "$output" = "" ]
	run --separate-stderr sp-size --json --json --cost "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	run --separate-stderr sp-size "$T/no-such-file"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sp-size: $T/no-such-file: No such file or directory" ]]
}

@test "sp-size: writing to /dev/full fails with exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run --separate-stderr sh -c 'sp-size "$1" >/dev/full' sh "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sp-size: <stdout>: No space left on device"* ]]
}

@test "sp-size --json: numbers are numbers, unknown is null" {
	command -v python3 >/dev/null || skip "no python3 to parse JSON"
	run sh -c 'sp-size --json "$1" 2>/dev/null | python3 -c "
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(r[\"workload\"], r[\"flag\"], r[\"runs\"], r[\"verdict\"], r[\"suggestion\"])
"' sh "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "midtrain --time 3 raise --time=03:45:00" ]
	[ "${lines[1]}" = "midtrain --mem 3 raise --mem=351G" ]
	# the figures in the flag's unit are numbers too, null where none
	run sh -c 'sp-size --json "$1" 2>/dev/null |
		jq -r "[.unit, .requested, .target, .observed] |
		map(tojson) | join(\" \")"' sh "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '"seconds" 7200 13500 6769' ]
	[ "${lines[4]}" = '"seconds" 3600 null 1000' ]
	[ "${lines[6]}" = '"cores" 1 null null' ]
}

# A fake scontrol and sinfo, as sp_site asks them.
fake_site() {
	mkdir -p "$T/bin"
	cat >"$T/bin/scontrol" <<-'EOF'
	#!/bin/sh
	printf 'JobAcctGatherType       = jobacct_gather/linux\n'
	printf 'JobAcctGatherFrequency  = task=30\n'
	EOF
	cat >"$T/bin/sinfo" <<-'EOF'
	#!/bin/sh
	# sinfo -h -a -N -o "%R %c %m": partition, cores, MB per node
	printf 'cpu 48 196608\ncpu 48 196608\nbig 96 393216\n'
	EOF
	chmod +x "$T/bin/scontrol" "$T/bin/sinfo"
}

@test "sp-size: the partition's ceiling from sinfo caps --cpus-per-task" {
	fake_site
	printf 'jobid\tstate\telapsed_s\talloc_cpus\tntasks\ttotal_cpu_s\tworkload_key\n' >"$T/wide.tsv"
	for i in 1 2 3; do
		printf '%s\tCOMPLETED\t1000\t48\t1\t47500\tu/cpu/cpu/wide\n' $i >>"$T/wide.tsv"
	done
	unset SLURMPAST_NO_SITE
	run sh -c 'PATH="$1/bin:$PATH" sp-size --cpus-per-task "$2" | cut -f6,8,11' sh "$T" "$T/wide.tsv"
	[ "${lines[1]}" = "$(printf 'capped\t\tthe busiest run (job 3) kept 47.5 of its 48 cores per task busy; at this partition'"'"'s ceiling of 48 cores per node: a larger request needs a partition with more cores per node')" ]
	# SLURMPAST_NO_SITE=1: sinfo is not asked; 57 is within 20% of 48.
	run sh -c 'PATH="$1/bin:$PATH" SLURMPAST_NO_SITE=1 sp-size --cpus-per-task "$2" | cut -f6,8,11' sh "$T" "$T/wide.tsv"
	[ "${lines[1]}" = "$(printf 'keep\t\tthe busiest run (job 3) kept 47.5 of its 48 cores per task busy; 57 would do, within 20%% of the request')" ]
}

@test "sp-size: scontrol's sampling interval makes a short run's peak thin" {
	fake_site
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\tmem_limit_node_b\tmax_rss_b\tworkload_key\n' >"$T/thin.tsv"
	for e in 60 1060 2060; do
		printf '%s\tCOMPLETED\t%s\t%s\t68719476736\t10737418240\tu/cpu/cpu/thin\n' $e $e $e >>"$T/thin.tsv"
	done
	unset SLURMPAST_NO_SITE
	run sh -c 'PATH="$1/bin:$PATH" sp-size --mem "$2" | cut -f6,8,12' sh "$T" "$T/thin.tsv"
	[ "${lines[1]}" = "$(printf 'lower\t--mem=19G\tthinly sampled: the shortest run had at most 3 samples in 00:01:00 (JobAcctGatherFrequency=30s), so its peak may be low: lower with care; MaxRSS reads high under jobacct_gather/linux, which counts shared pages once per process: an upper bound; a live reading of the running job measures the real footprint')" ]
}

@test "sp-size: the same records from an input split by workload_key" {
	sp-fetch --demo | sp-group >"$T/demo.tsv"
	key=$(head -1 "$T/demo.tsv" | tr '\t' '\n' | grep -n '^workload_key$' | cut -d: -f1)
	# The risk beside an advice can be the whole history's at its
	# evidence level (sp-size(1)): the parts' differ, so it is left out.
	for opt in "" --findings; do
		sp-size $opt "$T/demo.tsv" 2>/dev/null | cut -f1-16 | sort >"$T/whole"
		for u in alice bob carol; do
			awk -F '\t' -v k="$key" -v u="$u/" 'NR == 1 || index($k, u) == 1' "$T/demo.tsv" |
			    sp-size $opt 2>/dev/null | cut -f1-16 | tail -n +2
		done | sort >"$T/parts"
		grep -v '^user' "$T/whole" >"$T/whole-body"
		cmp "$T/whole-body" "$T/parts"
	done
}

@test "sp-size: the demo's workloads reach the article's conclusions" {
	sp-fetch --demo | sp-group | sp-size 2>/dev/null >"$T/advice"
	pick() { awk -F '\t' -v w="$1" -v f="$2" '$2 == w && $4 == f { print $6, $7, $8 }' "$T/advice"; }
	# The tokenizer: hold, not a bigger number.
	[ "$(pick rc-tok-github_code --mem)" = "hold 32G " ]
	# 99 timeouts that computed nothing: a longer limit buys a longer hang.
	[ "$(pick reasoning-exp --time)" = "hold 00:30:00 " ]
	[ "$(pick cot-exp --time)" = "hold 00:30:00 " ]
	# The gating experiment asked 24G after a run peaked at 34.56 GiB
	# (5 peaks from 19 to 35 GiB: x 1.76).
	[ "$(pick moe-gating-r# --mem)" = "raise 24G --mem=61G" ]
	# The 35-minute family whose longest run took 4:10:00: its runs vary
	# so (18 minutes to 4 hours) that the margin stops at its most, x 3.
	[ "$(pick ablate-warmup-# --time)" = "raise 00:35:00 --time=12:30:00" ]
	# The pretraining slice, 1:16 inside its 8-hour limit (4 runs: x 1.60).
	[ "$(pick pretrain-slice-# --time)" = "raise 08:00:00 --time=13:00:00" ]
	# 14 runs that grow a little each time: x 1.13.
	[ "$(pick midtrain --time)" = "raise 02:00:00 --time=02:15:00" ]
	[ "$(pick midtrain --mem | cut -d' ' -f1)" = keep ]
	# Single saturated cores stay at one; the busy multi-threaded rise.
	[ "$(pick dedup-shards --cpus-per-task)" = "keep 1 " ]
	[ "$(pick json-to-arrow --cpus-per-task)" = "keep 1 " ]
	[ "$(pick compress-ckpt --cpus-per-task)" = "raise 8 --cpus-per-task=10" ]
	[ "$(pick render-plots --cpus-per-task)" = "lower 32 --cpus-per-task=4" ]
	[ "$(pick eval-ckpt-# --time)" = "lower 1-00:00:00 --time=01:15:00" ]
}

@test "sp-size --findings: the demo's patterns across runs" {
	sp-fetch --demo | sp-group | sp-size --findings 2>/dev/null >"$T/found" || [ $? -eq 1 ]
	has() { awk -F '\t' -v w="$1" -v c="$2" -v s="$3" '$2 == w && $5 == c && $6 == s { n++ } END { exit n ? 0 : 1 }' "$T/found"; }
	has rc-tok-github_code memory-search critical
	grep -q 'in order: 32G x2 -> 17G -> 12G x2 -> 14G -> 16G -> 18G. Job 53511658 later COMPLETED at 32G' "$T/found"
	# The rerun at 12G ended the kills (issue 22): resolved, info.
	has scan-corpus array-probes info
	grep -q 'Resolved by --mem 6G -> 12G on 2026-02-10 (142 runs since, none killed for memory). Found before the change: Array 52581003 (142 tasks, --mem=6G) had 71 killed for memory. Before it, 2 single runs peaked at 1.0 GiB and 737.3 MiB.' "$T/found"
	has scan-corpus change-held info
	[ "$(awk -F '\t' '$5 ~ /^change-/' "$T/found" | cut -f2,4-7)" = "$(printf 'scan-corpus\t52581003_141 52584075_0 52584075_140\tchange-held\tinfo\t--mem 6G -> 12G on 2026-02-10: 142 runs since, none killed for memory; 71 of 142 before were.')" ]
	has reasoning-exp repeat-failure warning
	grep -q '99 of 137 runs failed; 99 were TIMEOUT. Every one used the same --time=00:30:00. The failures held 50.0 GPU-hours.' "$T/found"
	has finetune-vit-s# requeue-repeat warning
	has pretrain-slice-# near-limit warning
	grep -q 'job 53414700 took 07:58:44 of 08:00:00 (00:01:16 to spare)' "$T/found"
	has node-evaluation noop-allocations warning
	# The critical finding comes first.
	[ "$(sed -n 2p "$T/found" | cut -f5,6)" = "$(printf 'memory-search\tcritical')" ]
}

# XDMoD's pozidriv.log: no TotalCPU in the dump.
pozidriv() {
	need_fixtures
	sp-fetch --input "$FIXTURES/xdmod/pozidriv.log" --fields JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName 2>/dev/null |
		sp-group >"$T/poz.tsv"
}

@test "sp-size: a timeout with no CPU time in the record is only a timeout (pozidriv)" {
	pozidriv
	sp-size --time "$T/poz.tsv" 2>/dev/null >"$T/advice"
	# Issue 14, item 3: "3 runs timed out while computing" raised the
	# limit to 3-18:00:00 on records that hold no CPU time at all.
	! grep -q 'timed out while computing' "$T/advice"
	! grep -q -- '--time=3-18:00:00' "$T/advice"
	# Nor is a completed run over five minutes known to have computed.
	run awk -F '\t' '$1 == "sancr" && $2 ~ /^#d#b/ { print $6 "|" $11 }' "$T/advice"
	[ "$output" = "refuse|longest of 3 completed runs took 00:02:08; 18 more completed with no CPU time (total_cpu_s) in their record, up to 2-02:38:45: whether they computed decides the figure" ]
	run sp-size --findings "$T/poz.tsv"
	[ "$status" -le 1 ]
	[[ "$output" == *repeat-failure* ]]
	[[ "$output" != *'Raise --time'* ]]
}

@test "sp-size: only runs that were not killed are left out for MaxRSS above the limit (hpc-cost-simulator)" {
	need_fixtures
	# The dump has no JobName and no User: named here, so that the rule
	# reads the runs as one workload (issue 30, item 6 refuses it else).
	sp-fetch --input "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" --fields "$HPC_FIELDS" 2>/dev/null |
		awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "name") n = i; if ($i == "user") u = i } }
			NR > 1 { $n = "stress"; $u = "u" } 1' |
		sp-group | sp-size --mem 2>/dev/null >"$T/advice"
	# Issue 15, item 8: 183 were claimed, killed runs among them; 5 true.
	run awk -F '\t' '$3 ~ /^u\/\?\// { print $6, $8 }' "$T/advice"
	[ "$output" = "raise --mem=8G" ]
	grep -q '5 runs left out: MaxRSS above the limit without a kill' "$T/advice"
	# Issue 15, item 7: killed at 100M, the next step is 150M, not 1G.
	run awk -F '\t' '$3 ~ /\/partition1\// { print $6, $7, $8, $15 }' "$T/advice"
	[ "$output" = "raise 100M --mem=150M 157286400" ]
}

# Issue 30, item 6: 467 jobs of no name and no user are one key '?/?/?/?',
# but nothing says they are one workload.
@test "sp-size: no advice and no finding across runs that cannot be told apart (hpc-cost-simulator)" {
	need_fixtures
	sp-fetch --input "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" --fields "$HPC_FIELDS" 2>/dev/null |
		sp-group >"$T/hpc.tsv"
	run sh -c 'sp-size "$1" 2>/dev/null | cut -f3,6 | sort -u' sh "$T/hpc.tsv"
	[ "$output" = "$(printf '?/?/?/?\trefuse\n?/partition1/?/?\trefuse\n?/partition2/?/?\trefuse\nworkload_key\tverdict')" ]
	sp-size --mem "$T/hpc.tsv" 2>/dev/null | grep -q "	groups 467 runs the record cannot tell apart: it has no job name (JobName) and no user (User), so they may be unrelated jobs, and no figure across them means anything	"
	run --separate-stderr sp-size --findings "$T/hpc.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f5,6 | sort -u)" = "$(printf 'code\tseverity\nindistinct-runs\tinfo')" ]
	# one job's own findings still stand, its figure its own
	run --separate-stderr sp-show --findings --no-logs -j 67108880 "$T/hpc.tsv"
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" | awk -F '\t' '$5 == "host-oom"' | grep -q "one run's estimate"
}

@test "on a terminal: the columns a person reads, fitted, through the pager; --no-pager" {
	load lib/tmux
	cd "$T"
	sp-fetch --demo 2>/dev/null | sp-group >demo.tsv 2>/dev/null
	# (the pager marks each line it passes over its first two columns,
	# so the rows keep the width they were fitted to)
	term_start 80 20 "SLURMPAST_PAGER='sed s/^../P:/' sp-size demo.tsv 2>/dev/null | head -0; SLURMPAST_PAGER='sed s/^../P:/;4q' sp-size demo.tsv 2>/dev/null"
	term_wait_done
	term_screen
	[ "${lines[0]}" = "P:er   workload  flag     verdict  requested_text  suggestion  basis    risk" ]
	[ "${lines[1]}" = "P:ice  train...  --time   lower    2-00:00:00      --time=...  long...  from..." ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^P:')" -eq 4 ]
	# --no-pager: at once; no row wider than the window (wc -L counts
	# display cells, not bytes)
	term_start 80 20 "sp-size --no-pager jobs.tsv 2>/dev/null"
	term_wait_done
	term_screen
	[ "${lines[0]}" = "user   workload  flag       verdict  requested_text  suggestion  basis      risk" ]
	[ "${lines[1]}" = "alice  midtrain  --time     raise    02:00:00        --time=...  longes...  n/a" ]
	[ "${#lines[@]}" -eq 11 ]
	[ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C.UTF-8 wc -L)" -le 80 ]
	term_stop
	# into a pipe: the records, every column
	run --separate-stderr sp-size demo.tsv
	[[ "${lines[0]}" == $'user\tworkload\tworkload_key\tflag\t'* ]]
}

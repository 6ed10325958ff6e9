#!/usr/bin/env bats
# sp-report: each part of the report from the stages' records, exactly,
# on small records made by hand and on the demo; its rules (what leads,
# a workload's severity, the orders, how many fit) and its refusals.

load lib/common
load lib/tmux

ROLLUP_HEADER='user	workload	workload_key	label	partition	names	runs	completed	failed	cancelled	noop	problems	gpu_h	core_h	compute	share	cum_share	severity	first	last'
FINDINGS_HEADER='user	workload	workload_key	jobid	code	severity	evidence	action'
HANGSUM_HEADER='section	workload_key	workload	jobid	state	runs	count	elapsed_s	held_gpu_h	held_core_h	share	why'
ADVICE_HEADER='user	workload	workload_key	flag	runs	verdict	requested_text	suggestion	sbatch	observed_text	basis	caution'

setup_file() {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_FILE_TMPDIR/jobs"
	sp-group --rollup "$BATS_FILE_TMPDIR/jobs" >"$BATS_FILE_TMPDIR/rollup"
	sp-size --findings "$BATS_FILE_TMPDIR/jobs" >"$BATS_FILE_TMPDIR/findings" 2>/dev/null || true
	sp-size "$BATS_FILE_TMPDIR/jobs" >"$BATS_FILE_TMPDIR/advice" 2>/dev/null
	sp-hang --summary "$BATS_FILE_TMPDIR/jobs" >"$BATS_FILE_TMPDIR/hangsum" 2>/dev/null || [ $? -eq 1 ]
}

setup() {
	D=$BATS_FILE_TMPDIR
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	term_stop
}

# rollup ROW...: a rollup file "r" of tab-separated rows (no header).
rollup() {
	{ printf '%s\n' "$ROLLUP_HEADER"; [ $# -eq 0 ] || printf '%s\n' "$@"; } >r
}

# hangsum TOTAL_GPU_H IDLE_GPU_H [KEY KEY_GPU_H]: a summary file "h".
hangsum() {
	{
		printf '%s\n' "$HANGSUM_HEADER"
		printf 'record\t\t\t\t\t10\t10\t\t%s\t1\t1\tall\n' "$1"
		printf 'hangs\t\t\t\t\t10\t2\t\t%s\t1\t0.1\tidle\n' "$2"
		[ $# -lt 4 ] || printf 'workload\t%s\tw\t\t\t5\t2\t\t%s\t1\t0.1\twhy\n' "$3" "$4"
	} >h
}

@test "headline: idle GPU-hours lead at 10% or 100 hours, the workload named" {
	rollup $'alice\tw\talice/gpu/gpu/w\ttrain-w\tgpu\t1\t5\t5\t0\t0\t2\t2\t80\t8\t1288\t1\t1\tok\t2026-01-05T10:00:00\t2026-01-07T10:00:00'
	hangsum 1000 100 alice/gpu/gpu/w 40
	run sp-report headline --plain --rollup r --hang-summary h
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'\036''1000 GPU-hours, 100 of them in allocations that never computed' ]
	[ "${lines[1]}" = "40 of them in train-w (50.0% of its 80 GPU-hours)." ]
	[ "${lines[2]}" = "5 jobs of alice, 2026-01-05 to 2026-01-07, in 1 workload." ]
	# 99 of 1000 hours: under both lines, so the failures lead
	hangsum 1000 99
	run sp-report headline --plain --rollup r --hang-summary h
	[ "${lines[0]}" = $'\036''5 jobs, nothing flagged' ]
	# 100 hours of 10000: the floor alone is enough
	hangsum 10000 100
	run sp-report headline --plain --rollup r --hang-summary h
	[[ "${lines[0]}" == *"10000 GPU-hours, 100 of them"* ]]
}

@test "headline: failures, states nothing knows left out of the count, and what was not read" {
	rollup $'bob\tx\tbob/cpu/cpu/x\tx\tcpu\t1\t20\t10\t4\t0\t0\t4\t\t5\t5\t1\t1\tok\t2026-01-05T10:00:00\t2026-01-06T10:00:00'
	hangsum 0 0
	printf 'key\tcount\tmessage\nrows\t60\t\nrecords\t20\t\nlong_rows\t3\tdropped 3 rows with more fields than the 12 named\nunknown_states\t6\t6 records in states slurmpast does not know (FOO, BAR): kept as printed, counted as neither success nor failure\n' >s
	run sp-report headline --plain --rollup r --hang-summary h --fetch-stats s \
		--source "read from dump.txt"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'\036''4 of 14 jobs failed' ]
	[ "${lines[1]}" = "20 jobs of bob, 2026-01-05 to 2026-01-06, read from dump.txt, in 1 workload." ]
	[ "${lines[2]}" = "Not all of the input was read: dropped 3 rows with more fields than the 12 named; 6 records in states slurmpast does not know (FOO, BAR): kept as printed, counted as neither success nor failure." ]
	run sp-report headline --json --rollup r --hang-summary h --fetch-stats s
	[ "$(jq -r .lead <<<"$output")" = failed ]
	[ "$(jq -r .rows <<<"$output")" = 60 ]
	[ "$(jq -r .unknown_states <<<"$output")" = 6 ]
	[ "$(jq -r '.jobs | type' <<<"$output")" = number ]
}

@test "headline: a view says how many jobs it shows, those that ended" {
	rollup $'bob\tx\tbob/cpu/cpu/x\tx\tcpu\t1\t3\t3\t0\t0\t0\t0\t\t5\t5\t1\t1\tok\t2026-01-05T10:00:00\t2026-01-06T10:00:00'
	hangsum 0 0
	printf 'jobid\topen\n1\t0\n2\t1\n3\t0\n' >shown
	run sp-report headline --plain --rollup r --hang-summary h --shown shown \
		--view "partition cpu, failed"
	[ "${lines[1]}" = "3 jobs of bob, 2026-01-05 to 2026-01-06, in 1 workload: every run of the workload of the 2 jobs shown (partition cpu, failed)." ]
}

# The severity is the workload's verdict, which sp-group --rollup writes
# (issue 30): rendered, never recomputed from the findings.
@test "workloads: a workload's severity is its verdict's, as the rollup says it (oom_array)" {
	rollup $'alice\toom_array\talice/cpu/cpu/oom_array\toom_array\tcpu\t1\t4\t1\t3\t0\t0\t3\t\t2.5\t2.5\t1\t1\tcritical\t2026-01-05T10:00:00\t2026-01-05T12:00:00'
	printf '%s\n' "$FINDINGS_HEADER" >f
	run sp-report workloads --plain --rollup r --findings f
	[ "$status" -eq 1 ]
	[ "$output" = "workload   user   partition  runs  failed  noop  gpu_h  core_h  share   severity
oom_array  alice  cpu           4       3     0    n/a     2.5  100.0%  critical" ]
	run sp-report workloads --json --rollup r --findings f
	[ "$status" -eq 1 ]
	[ "$(jq -r .severity <<<"$output")" = critical ]
	# unknown stays unknown: no finding, but runs the rules could not read
	rollup $'alice\toom_array\talice/cpu/cpu/oom_array\toom_array\tcpu\t1\t4\t1\t3\t0\t0\t3\t\t2.5\t2.5\t1\t1\t\t2026-01-05T10:00:00\t2026-01-05T12:00:00'
	run sp-report workloads --json --rollup r --findings f
	[ "$status" -eq 0 ]
	[ "$(jq -r .severity <<<"$output")" = null ]
	# a rollup without the column: the findings' most severe
	cut -f1-17,19- r >r2 && mv r2 r
	printf 'alice\toom_array\talice/cpu/cpu/oom_array\t1,2\tmemory-search\twarning\tkilled\tstop\n' >>f
	run sp-report workloads --json --rollup r --findings f
	[ "$status" -eq 0 ]
	[ "$(jq -r .severity <<<"$output")" = warning ]
}

@test "workloads: the ten costliest, the rest in one line; status from those shown" {
	run sp-report workloads --plain --rollup "$D/rollup" --findings "$D/findings"
	# the tokenizer is critical, but not among the ten shown
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 12 ]
	[ "${lines[11]}" = "460 more workloads (2376 runs) holding 46.4% of the compute" ]
	[[ "${lines[2]}" =~ ^rollout-gen\ +alice\ +gpu\ +1098\ .*\ warning$ ]]
	run sp-report workloads --plain --top 0 --rollup "$D/rollup" --findings "$D/findings"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 471 ]
}

@test "findings: the first 15 in order, then how many more and where" {
	run sp-report findings --plain --rollup "$D/rollup" --findings "$D/findings" \
		--more "slurmpast --patterns"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "critical  rc-tok-github_code (alice): memory-search" ]
	[[ "${lines[1]}" == "          8 submissions were killed for memory"* ]]
	[ "${lines[-1]}" = "20 more findings: slurmpast --patterns" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -cE '^(critical|warning|info) ')" -eq 15 ]
	printf '%s\n' "$FINDINGS_HEADER" >f
	rollup
	run sp-report findings --plain --rollup r --findings f
	[ "$status" -eq 0 ]
	[ "$output" = "No failure repeats across runs." ]
}

@test "problems: newest first, the hang's why or the job's own finding, failed-only" {
	printf 'jobid\tjobid_raw\tcluster\tsubmit\tstart\tname\tuser\tstate\topen\tworkload_key\twhy\n' >hangs
	printf '7\t7\tc\t2026-01-02T00:00:00\t2026-01-02T00:00:01\tidle\tbob\tCANCELLED\t0\tk\theld 1 GPU for 01:00:00\n' >>hangs
	printf '9\t9\tc\t2026-01-04T00:00:00\t2026-01-04T00:00:01\tslow\tbob\tTIMEOUT\t0\tk\tblocked, not slow\n' >>hangs
	printf 'jobid\tjobid_raw\tcluster\tsubmit\tstart\tname\tuser\tstate\topen\n' >failed
	printf '8\t8\tc\t2026-01-03T00:00:00\t2026-01-03T00:00:01\tboom\tbob\tFAILED\t0\n' >>failed
	printf '9\t9\tc\t2026-01-04T00:00:00\t2026-01-04T00:00:01\tslow\tbob\tTIMEOUT\t0\n' >>failed
	printf '10\t10\tc\t2026-01-05T00:00:00\t\tq\tbob\tFAILED\t1\n' >>failed
	run sp-report problems --hangs hangs --failed failed --ids
	[ "$output" = "9,8,7" ]
	run sp-report problems --hangs hangs --failed failed --keys --top 2
	[ "$output" = "workload_key
k
" ] || [ "$output" = "workload_key
k" ]
	# --keys-to: the same workloads, from the run that lists the ids
	sp-report problems --hangs hangs --failed failed --keys --top 2 >keys.want
	run sp-report problems --hangs hangs --failed failed --ids --keys-to keys --top 2
	[ "$status" -eq 0 ]
	[ "$output" = "9,8" ]
	cmp keys.want keys
	run --separate-stderr sp-report problems --hangs hangs --failed failed --ids --keys-to "$BATS_TEST_TMPDIR/no/such/keys"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-report: --keys-to: $BATS_TEST_TMPDIR/no/such/keys: No such file or directory" ]
	printf 'jobid\tcode\tseverity\tevidence\n8\texit-nonzero\twarning\tExited 1\n8\toom\tcritical\tkilled\\nfor memory\n' >jf
	run sp-report problems --plain --hangs hangs --failed failed --job-findings jf --top 2 --more "see all"
	[ "$status" -eq 0 ]
	[ "$output" = "jobid  name  state    started              finding
9      slow  TIMEOUT  2026-01-04T00:00:01  blocked, not slow
8      boom  FAILED   2026-01-03T00:00:01  oom: killed for memory
1 more: see all" ]
	run sp-report problems --hangs hangs --failed failed --failed-only --ids
	[ "$output" = "9,8" ]
	printf 'jobid\tstate\n' >none
	run sp-report problems --plain --hangs none --failed none
	[ "$output" = "No job failed or sat idle." ]
}

@test "problems as text: the jobs that say the same thing are one line, with their count and ids" {
	printf 'jobid\tjobid_raw\tcluster\tsubmit\tstart\tname\tuser\tstate\topen\n' >failed
	for i in 1 2 3 4 5 6 7 8; do
		printf '%s\t%s\tc\t2026-01-0%sT00:00:00\t2026-01-0%sT00:00:01\tjob\tbob\tFAILED\t0\n' "$i" "$i" "$i" "$i" >>failed
	done
	printf '9\t9\tc\t2026-01-09T00:00:00\t2026-01-09T00:00:01\tjob\tbob\tFAILED\t0\n' >>failed
	printf '10\t10\tc\t2026-01-09T00:00:00\t2026-01-09T00:00:02\tjob\tbob\tTIMEOUT\t0\n' >>failed
	printf 'jobid\tstate\n' >hangs
	{
		printf 'jobid\tcode\tseverity\tevidence\n'
		for i in 1 2 3 4 5 6 7 8; do printf '%s\texit-nonzero\twarning\tExited 1\n' "$i"; done
		printf '9\texit-nonzero\twarning\tExited 2\n'
		printf '10\texit-nonzero\twarning\tExited 1\n'
	} >jf
	# the text folds over every job, so --ids with --plain lists each one
	run sp-report problems --plain --hangs hangs --failed failed --ids --top 1
	[ "$output" = "10,9,8,7,6,5,4,3,2,1" ]
	run sp-report problems --plain --hangs hangs --failed failed --job-findings jf --top 2 --more "see all"
	[ "$status" -eq 0 ]
	[ "$output" = "jobid  name  state    started              finding
10     job   TIMEOUT  2026-01-09T00:00:02  exit-nonzero: Exited 1
9      job   FAILED   2026-01-09T00:00:01  exit-nonzero: Exited 2
8 more: see all" ]
	run sp-report problems --plain --hangs hangs --failed failed --job-findings jf --top 3
	[ "${lines[3]}" = "8 jobs  job   FAILED   2026-01-08T00:00:01  exit-nonzero: Exited 1 (8, 7, 6, 5, 4 and 3 more)" ]
	[ "${#lines[@]}" -eq 4 ]
	# two: both named, no "more"
	sed -i '/^[3-8]\t/d' failed
	run sp-report problems --plain --hangs hangs --failed failed --job-findings jf --top 0
	[ "${lines[3]}" = "2 jobs  job   FAILED   2026-01-02T00:00:01  exit-nonzero: Exited 1 (2 and 1)" ]
	# the records stay one a job, each id its own
	run sp-report problems --json --hangs hangs --failed failed --job-findings jf --top 0
	[ "$(jq -r .jobid <<<"$output" | tr '\n' ' ')" = "10 9 2 1 " ]
}

@test "advice: raises first, the largest first; holds; then lowers; each capped apart" {
	rollup $'a\tw\ta/c/c/w\tw\tc\t1\t9\t9\t0\t0\t0\t0\t\t1\t1\t1\t1\tok\t\t'
	{
		printf '%s\n' "$ADVICE_HEADER"
		printf 'a\tw\ta/c/c/w\t--mem\t9\traise\t10G\t--mem=12G\t#SBATCH --mem=12G\t\tsmall raise\t\n'
		printf 'a\tw\ta/c/c/w\t--time\t9\tlower\t10:00:00\t--time=01:00:00\t#SBATCH --time=01:00:00\t\tbig lower\t\n'
		printf 'a\tw\ta/c/c/w\t--cpus-per-task\t9\thold\t4\t\t\t\theld\tchange the input\n'
		printf 'a\tw\ta/c/c/w\t--gpus\t1\traise\t1\t--gpus=4\t#SBATCH --gpus=4\t\tbig raise\t\n'
		printf 'a\tw\ta/c/c/w\t--time\t2\trefuse\t\t\t\t\t2 runs\t\n'
	} >a
	run sp-report advice --plain --rollup r --advice a
	[ "$status" -eq 0 ]
	[ "$output" = "# w, 1 run: raise --gpus from 1; big raise
#SBATCH --gpus=4
# w, 9 runs: raise --mem from 10G; small raise
#SBATCH --mem=12G
# w, 9 runs: hold --cpus-per-task at 4; held; change the input
# w, 9 runs: lower --time from 10:00:00; big lower
#SBATCH --time=01:00:00" ]
	run sp-report advice --plain --rollup r --advice a --top 1 --more "see --sizing"
	[ "${lines[0]}" = "# w, 1 run: raise --gpus from 1; big raise" ]
	[ "${lines[2]}" = "# w, 9 runs: hold --cpus-per-task at 4; held; change the input" ]
	[ "${lines[3]}" = "2 more: see --sizing" ]
	run sp-report advice --plain --rollup r --advice a --all
	[ "${lines[-1]}" = "1 refused: fewer than 3 usable runs of the workload" ]
}

@test "advice: with nothing to show, why, in the constants' numbers" {
	rollup $'a\tw\ta/c/c/w\tw\tc\t1\t9\t9\t0\t0\t0\t0\t\t1\t1\t1\t1\tok\t\t'
	{ printf '%s\n' "$ADVICE_HEADER"
	  printf 'a\tw\ta/c/c/w\t--mem\t9\tkeep\t10G\t\t\t\tabout right\t\n'; } >a
	run sp-report advice --plain --rollup r --advice a
	[ "$output" = "Nothing to change: every request is within 20% of what its history supports." ]
	printf 'b\tv\tb/c/c/v\t--mem\t2\trefuse\t\t\t\t\t2 runs\t\n' >>a
	run sp-report advice --plain --rollup r --advice a
	[ "$output" = "Nothing to change where the history suffices: every request judged is within 20% of what its history supports; 1 of the 2 workloads has a request with fewer than the 3 usable runs a verdict needs." ]
	{ printf '%s\n' "$ADVICE_HEADER"
	  printf 'b\tv\tb/c/c/v\t--mem\t2\trefuse\t\t\t\t\t2 runs\t\n'; } >a
	run sp-report advice --plain --rollup r --advice a
	[ "$output" = "No advice yet: the one workload has fewer than the 3 usable runs a verdict needs." ]
	printf '%s\n' "$ADVICE_HEADER" >a
	run sp-report advice --plain --rollup r --advice a
	[ "$output" = "No advice: no run has ended." ]
	# sp-size's record of the days requested was its words: named
	printf '%s\n' "$ADVICE_HEADER" | sed 's/requested_text/requested/' >a
	run --separate-stderr sp-report advice --plain --rollup r --advice a
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-report: a: no column 'requested_text' (pipe through sp-size first)" ]
}

@test "advice and exclude on the demo: the article's lines, the machines named" {
	# --exclude is sp-size's record like the other flags, first (issue 30)
	run sp-report advice --plain --rollup "$D/rollup" --advice "$D/advice" \
		--more "slurmpast --sizing"
	[ "${lines[0]}" = "# rollout-gen (alice), 1098 runs: raise --exclude; leave out g003, g011, g017, worse than the other machines for it (hang metric, 1098 runs, 11 nodes tested)" ]
	[ "${lines[1]}" = "#SBATCH --exclude=g[003,011,017]" ]
	[ "${lines[3]}" = "#SBATCH --exclude=g027" ]
	[ "${lines[4]}" = "# ablate-warmup-# (carol), 8 runs: raise --time from 00:35:00; longest of 8 completed runs took 04:10:00" ]
	# what the replay measured (sp-size's risk), beside --time and --mem
	[ "${lines[5]}" = "# from 8 runs; on this history advice from 6-10 runs cut off 0 of 383 later runs" ]
	[ "${lines[6]}" = "#SBATCH --time=12:30:00" ]
	[ "${lines[-1]}" = "336 more: slurmpast --sizing" ]
}

@test "screen: titles bold and severities coloured only with --color; controls shown" {
	printf '\036Title\ncritical  x\nwarning   y\nname\033[2J\n' >p1
	printf 'second\n' >p2
	run sp-report screen p1 p2
	[ "$output" = 'Title
critical  x
warning   y
name\x1b[2J

second' ]
	run sp-report screen --color p1
	[ "${lines[0]}" = $'\033[1mTitle\033[0m' ]
	[ "${lines[1]}" = $'\033[1;31mcritical\033[0m  x' ]
	[ "${lines[2]}" = $'\033[33mwarning\033[0m   y' ]
}

@test "screen: a long line wrapped at words, under its first word; a comment stays one" {
	printf '%s\n' "one two three four five six seven eight nine ten eleven twelve thirteen fourteen" >p
	printf '          %s\n' "indented prose that runs on well past the forty columns of this width" >>p
	printf '# %s\n' "a comment that runs on well past the forty columns asked for here" >>p
	run sp-report screen --width 40 p
	[ "$output" = "one two three four five six seven eight
  nine ten eleven twelve thirteen
  fourteen
          indented prose that runs on
          well past the forty columns of
          this width
# a comment that runs on well past the
#   forty columns asked for here" ]
	# into a pipe, without a width, as written
	run sp-report screen p
	[ "${lines[0]}" = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen" ]
}

@test "screen: through the pager on a terminal only, never into a pipe, nor with --no-pager" {
	printf 'one\ntwo\n' >s
	# a pager that marks every line it shows
	printf '#!/bin/sh\nsed "s/^/paged: /"\n' >mark
	chmod +x mark
	SLURMPAST_PAGER=$PWD/mark run --separate-stderr sp-report screen s
	[ "$status" -eq 0 ]
	[ "$output" = $'one\ntwo' ]
	term_start 80 24 "SLURMPAST_PAGER='$PWD/mark' sp-report screen s"
	term_wait_done
	term_screen
	[ "${lines[0]}" = "paged: one" ]
	[ "${lines[1]}" = "paged: two" ]
	term_stop
	term_start 80 24 "SLURMPAST_PAGER='$PWD/mark' sp-report screen --no-pager s"
	term_wait_done
	term_screen
	[ "${lines[0]}" = one ]
}

@test "refusals: a part named, its inputs given, one line each" {
	check() {
		local want=$1
		shift
		run --separate-stderr sp-report "$@"
		[ "$status" -eq 2 ] || { echo "$*: status $status"; return 1; }
		[ "$stderr" = "sp-report: $want" ] || { echo "$*: $stderr"; return 1; }
	}
	check "no part named: headline, workloads, findings, problems, advice, exclude, sources or screen"
	check "unknown part 'summary': headline, workloads, findings, problems, advice, exclude, sources or screen" summary
	check "workloads needs --findings FILE" workloads --rollup "$D/rollup"
	check "--width: '20' is not a count (40 or more)" screen --width 20
	check "--ids, --keys and --job-findings are different outputs: choose one" problems --ids --job-findings x
	check "--ids, --keys and --job-findings are different outputs: choose one" problems --ids --keys
	check "--keys-to writes the workloads beside --ids: add --ids" problems --keys-to x
	check "--keys-to writes the workloads beside --ids: add --ids" problems --keys --keys-to x
	check "findings reads its records from its options, not 'x'" findings x
}

# sources ROW...: an "sp-group --rollup --by source,source_dir" file "s":
# source, source_dir, then the rollup's columns (runs 9th, label 6th).
sources() {
	{ printf 'source\tsource_dir\t%s\n' "$ROLLUP_HEADER"; printf '%s\n' "$@"; } >s
}

# src SOURCE DIR LABEL RUNS FAILED GPU_H COMPUTE SHARE: one row.
src() {
	printf '%s\t%s\talice\t%s\talice/gpu/gpu/%s\t%s\tgpu\t1\t%s\t%s\t%s\t0\t0\t%s\t%s\t1\t%s\t%s\t0\tok\t\t' \
		"$1" "$2" "$3" "$3" "$3" "$4" "$(($4 - $5))" "$5" "$5" "$6" "$7" "$8"
}

@test "sources: each session's workloads, the costliest first, none last; the headline's split" {
	S=claude-code:aaaaaaaa-1111-4111-8111-111111111111
	T=claude-code:bbbbbbbb-2222-4222-8222-222222222222
	sources "$(src "$S" /home/a/p train 4 1 10 160 0.5)" \
		"$(src "$S" /home/a/p eval 2 0 1 16 0.05)" \
		"$(src "$S" /home/a/p probe 1 0 0 2 0.006)" \
		"$(src "$S" /home/a/p sweep 1 0 0 1 0.003)" \
		"$(src logs/driver.log '' sweep 3 2 2 32 0.1)" \
		"$(src "$T" /home/a/q tune 1 0 1 16 0.05)" \
		"$(src '' '' train 5 0 5 80 0.25)"
	run --separate-stderr sp-report sources --plain --sources s
	[ "$status" -eq 0 ]
	[ "$output" = "source            directory  runs  failed  gpu_h  share  workloads
session aaaaaaaa  /home/a/p     8       1   11.0  55.9%  train, eval, probe +1
logs/driver.log   n/a           3       2    2.0  10.0%  sweep
session bbbbbbbb  /home/a/q     1       0    1.0   5.0%  tune
(no source)       n/a           5       0    5.0  25.0%  train" ]
	run --separate-stderr sp-report sources --plain --sources s --top 1
	[ "${lines[2]}" = "(no source)       n/a           5       0    5.0  25.0%  train" ]
	[ "${lines[3]}" = "2 more sources (4 runs)" ]
	run --separate-stderr sp-report sources --json --sources s
	[ "$(printf '%s\n' "$output" | jq -c '[.kind, .workloads, .runs]' | tr '\n' ' ')" = '["session",4,8] ["file",1,3] ["session",1,1] ["none",1,5] ' ]
	# The headline's split: runs of the sessions, of the other files.
	rollup "$(printf 'alice\tw\talice/gpu/gpu/w\tw\tgpu\t1\t17\t14\t3\t0\t0\t3\t19\t0\t304\t1\t1\tok\t2026-01-01T00:00:00\t2026-01-02T00:00:00')"
	hangsum 19 0
	run --separate-stderr sp-report headline --plain --rollup r --hang-summary h --sources s
	[ "${lines[2]}" = "12 of 17 allocations are attributable: 9 to 2 sessions, 3 to a log." ]
	run --separate-stderr sp-report headline --json --rollup r --hang-summary h --sources s
	[ "$(printf '%s\n' "$output" | jq -c '[.attributed, .session_runs, .sessions, .file_runs, .files]')" = '[12,9,2,3,1]' ]
	sources "$(src '' '' train 5 0 5 80 1)"
	run --separate-stderr sp-report headline --plain --rollup r --hang-summary h --sources s
	[ "${lines[2]}" = "No allocation is attributable: no transcript or log read names one of their jobs." ]
	# Without --sources, the headline is as it was.
	run --separate-stderr sp-report headline --plain --rollup r --hang-summary h
	[ "${#lines[@]}" -eq 2 ]
}

@test "findings: two workloads of one name are told apart, by partition or key" {
	# Issue 15, item 14: label-arxiv in two partitions read as one.
	rollup $'alice\tw\talice/gpu/gpu/w\tlabel-arxiv\tgpu\t1\t5\t0\t5\t0\t0\t5\t\t5\t5\t0.5\t0.5\tcritical\t2026-01-05T10:00:00\t2026-01-07T10:00:00' \
	       $'alice\tw\talice/cpu/cpu/w\tlabel-arxiv\tcpu\t1\t5\t0\t5\t0\t0\t5\t\t5\t5\t0.5\t1\tcritical\t2026-01-05T10:00:00\t2026-01-07T10:00:00' \
	       $'alice\tw\talice/cpu/?/w\tlabel-arxiv\tcpu\t1\t5\t0\t5\t0\t0\t5\t\t5\t5\t0.5\t1\tcritical\t2026-01-05T10:00:00\t2026-01-07T10:00:00' \
	       $'alice\tv\talice/cpu/cpu/v\tother\tcpu\t1\t5\t0\t5\t0\t0\t5\t\t5\t5\t0.5\t1\tcritical\t2026-01-05T10:00:00\t2026-01-07T10:00:00'
	{ printf '%s\n' "$FINDINGS_HEADER"
	  for k in alice/gpu/gpu/w alice/cpu/cpu/w alice/cpu/?/w alice/cpu/cpu/v; do
		printf 'alice\tw\t%s\t1\trepeat-failure\twarning\t5 of 5 runs failed.\tReproduce.\n' "$k"
	  done; } >f
	run sp-report findings --plain --rollup r --findings f
	[ "$(printf '%s\n' "${lines[@]}" | grep '^warning' | sed 's/  */ /g')" = "$(printf '%s\n' \
		'warning label-arxiv [partition gpu]: repeat-failure' \
		'warning label-arxiv [alice/cpu/cpu/w]: repeat-failure' \
		'warning label-arxiv [alice/cpu/?/w]: repeat-failure' \
		'warning other: repeat-failure')" ]
}

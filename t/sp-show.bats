#!/usr/bin/env bats
# sp-show: the post-mortem view, --json, --findings, the log ladder seen
# from the command line, and every error path with its exit status.

load lib/common
load lib/tmux

GOLDEN=$SP_TOP/t/sp-show

COLS="jobid jobid_raw array_job array_task step attempt name user uid account
partition qos cluster state exit_code signal derived_exit_code cancelled_by
reason submit eligible start end open elapsed_s timelimit_s req_cpus
alloc_cpus ntasks alloc_gpus nnodes nodelist req_mem mem_limit_node_b
mem_limit_total_b max_rss_b max_rss_step max_rss_node ave_rss_b rss_imbalance
max_vmsize_b total_cpu_s user_cpu_s sys_cpu_s cpu_time_s ave_cpu_s min_cpu_s
min_cpu_node min_cpu_task ave_cpu_freq_hz read_b write_b max_pages gpu_util
gpu_mem_b energy_j req_tres alloc_tres constraints workdir stdout stderr
submit_line comment flags wait_s"

# The job-record header, every column sp-fetch writes.
header() {
	echo $COLS | tr ' ' '\t'
}

# One record from key=value arguments; unnamed columns stay empty.
record() {
	awk -v cols="$(echo $COLS)" 'BEGIN {
		n = split(cols, c, " ")
		for (i = 1; i < ARGC; i++) {
			p = index(ARGV[i], "=")
			v[substr(ARGV[i], 1, p - 1)] = substr(ARGV[i], p + 1)
		}
		for (i = 1; i <= n; i++)
			printf "%s%s", (i > 1 ? "\t" : ""), v[c[i]]
		printf "\n"
		exit
	}' "$@"
}

# The article's figure 3: an evaluation on one card, a 12-hour limit for
# a run of an hour, MaxRSS above the limit without a kill, 48.7% kernel.
FIG3="jobid=5100457 jobid_raw=5100457 name=eval-gsm8k user=alice uid=1000
account=rcc partition=gpu qos=normal cluster=midway3 state=COMPLETED
exit_code=0 signal=0 derived_exit_code=0 submit=2026-11-12T14:03:10
eligible=2026-11-12T14:03:10 start=2026-11-12T14:03:11
end=2026-11-12T15:10:23 open=0 elapsed_s=4032 timelimit_s=43200 req_cpus=8
alloc_cpus=8 ntasks=1 alloc_gpus=1 nnodes=1 nodelist=midway3-0412 req_mem=64G
mem_limit_node_b=68719476736 mem_limit_total_b=68719476736
max_rss_b=98784247808 max_rss_step=batch max_rss_node=midway3-0412
total_cpu_s=5400 user_cpu_s=2770 sys_cpu_s=2630 cpu_time_s=32256
read_b=13000000000 write_b=1300000000 wait_s=1 workdir=/nonexistent/eval"

# The demo's midtrain: nothing to say about it.
HEALTHY="jobid=5100021 jobid_raw=5100021 name=midtrain user=youzhi
uid=940740146 partition=test state=COMPLETED exit_code=0 signal=0
submit=2026-11-10T08:00:00 start=2026-11-10T08:00:01 end=2026-11-10T09:52:50
open=0 elapsed_s=6769 timelimit_s=7200 alloc_cpus=4 ntasks=1 alloc_gpus=3
nnodes=1 nodelist=midway3-0600 mem_limit_node_b=214748364800
max_rss_b=198162165760 total_cpu_s=19899 sys_cpu_s=936 cpu_time_s=27076
read_b=112700000000 write_b=139600000000 workdir=/nonexistent/mid"

# The demo's cot-exp: a timeout that hung.
HUNG="jobid=5100002 jobid_raw=5100002 name=cot-exp user=youzhi uid=940740146
partition=test state=TIMEOUT exit_code=0 signal=15 start=2026-11-10T08:13:00
end=2026-11-10T08:43:26 open=0 elapsed_s=1826 timelimit_s=1800 alloc_cpus=6
ntasks=1 alloc_gpus=1 nnodes=1 nodelist=midway3-0385 total_cpu_s=0.5
cpu_time_s=10956 workdir=/nonexistent/cot"

setup() {
	export SLURMPAST_NO_SITE=1 LC_ALL=C.UTF-8 TZ=UTC
	unset NO_COLOR COLUMNS PAGER SLURMPAST_PAGER
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	term_stop
}

@test "the figure-3 job, drawn as the article describes" {
	{ header; record $FIG3; } >fig3.tsv
	run sp-show --plain --no-color --width 100 fig3.tsv
	[ "$status" -eq 0 ]
	diff -u "$GOLDEN/fig3.txt" <(printf '%s\n' "$output")
}

@test "--all: every field in words, after the post-mortem, at 80 columns" {
	{ header; record $FIG3
	  record jobid=5100457 jobid_raw=5100457 step=batch state=COMPLETED \
		elapsed_s=4032 max_rss_b=98784247808 total_cpu_s=5399 \
		ntasks=1; } >fig3.tsv
	run sp-show --all --no-color --width 80 fig3.tsv
	[ "$status" -eq 0 ]
	diff -u "$GOLDEN/fig3-all.txt" <(printf '%s\n' "$output")
	# Without --all, neither the fields nor the steps.
	run sp-show --no-color --width 80 fig3.tsv
	[[ "$output" != *"peak memory"* ]]
	[[ "$output" != *"steps"* ]]
}

@test "figure 3: no memory percentage, the reason instead" {
	{ header; record $FIG3; } >fig3.tsv
	run sp-show --no-color --width 100 fig3.tsv
	memory=$(printf '%s\n' "$output" | sed -n '/^kernel/q;/^memory /,$p')
	[ "$memory" = "memory  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  peak 92.0 GiB, over its 64.0 GiB limit" ]
	[[ "$output" == *"the figure cannot be this job's footprint"* ]]
	[[ "$output" == *"kernel 48.7% of CPU time"* ]]
	[[ "$output" == *"walltime-slack"* ]]
	[[ "$output" == *"rss-above-limit"* ]]
	[[ "$output" == *"system-cpu-heavy"* ]]
}

@test "an OOM kill with no peak recorded: no bar beside 'peak n/a'" {
	{ header; record jobid=5100009 jobid_raw=5100009 name=oom user=youzhi \
		partition=test state=OUT_OF_MEMORY exit_code=0 \
		start=2026-11-10T08:00:00 end=2026-11-10T09:00:00 open=0 \
		elapsed_s=3600 timelimit_s=7200 alloc_cpus=4 ntasks=1 nnodes=1 \
		mem_limit_node_b=34359738368 total_cpu_s=3000 \
		workdir=/nonexistent/oom; } >oom.tsv
	run sp-show --no-color --no-logs --width 100 oom.tsv
	memory=$(printf '%s\n' "$output" | grep '^memory ')
	[ "$memory" = "memory                                  peak n/a of 32.0 GiB (n/a)" ]
}

@test "a healthy job: no finding, exit 0" {
	{ header; record $HEALTHY; } >ok.tsv
	run sp-show --plain --no-color --width 100 ok.tsv
	[ "$status" -eq 0 ]
	diff -u "$GOLDEN/healthy.txt" <(printf '%s\n' "$output")
}

@test "a hung timeout: critical, exit 1" {
	{ header; record $HUNG; } >hung.tsv
	run sp-show --no-color --width 100 --no-logs hung.tsv
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "5100002  cot-exp  TIMEOUT at its time limit · critical: timeout-hang" ]]
	[[ "$output" == *"CRITICAL timeout-hang: Held the allocation"* ]]
	[[ "$output" == *"Do not raise --time"* ]]
}

@test "with no job named, every job of the input is shown" {
	{ header; record $HEALTHY; record $HUNG; } >two.tsv
	run sp-show --no-color --width 80 --no-logs two.tsv
	[ "$status" -eq 1 ]
	[[ "$output" == *"5100021  midtrain"* ]]
	[[ "$output" == *"5100002  cot-exp"* ]]
}

@test "-j shows only that job; its status alone decides the exit" {
	{ header; record $HEALTHY; record $HUNG; } >two.tsv
	run sp-show -j 5100021 --no-color --no-logs two.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *"midtrain"* ]]
	[[ "$output" != *"cot-exp"* ]]
}

@test "-j with an array master shows its tasks" {
	{ header
	  record jobid=900_1 jobid_raw=901 array_job=900 array_task=1 \
		name=a state=COMPLETED
	  record jobid=900_2 jobid_raw=902 array_job=900 array_task=2 \
		name=a state=COMPLETED
	  record jobid=9001 name=b state=COMPLETED; } >arr.tsv
	run sp-show --json -j 900 --no-logs arr.tsv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | jq -r .jobid | tr '\n' ' ')" = \
	  "900_1 900_2 " ]
}

@test "-j: a comma inside brackets is part of the id, not a list" {
	{ header
	  record jobid=900_1 jobid_raw=901 array_job=900 array_task=1 \
		name=a state=COMPLETED
	  record jobid=900_5 jobid_raw=905 array_job=900 array_task=5 \
		name=a state=COMPLETED
	  record jobid=900_3 jobid_raw=903 array_job=900 array_task=3 \
		name=a state=COMPLETED
	  record jobid=77+1 jobid_raw=78 name=h state=COMPLETED; } >arr.tsv
	run sp-show --json -j '900_[1,5],77+1' --no-logs arr.tsv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | jq -r .jobid | tr '\n' ' ')" = \
	  "900_1 900_5 77+1 " ]
	run --separate-stderr sp-show -j '900_[1' --no-logs arr.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: -j: '900_[1' is not a job id (123, 123_4, 123_[1-3,7], 123+1)" ]
}

@test "--jobs-from: ids by the thousand, past what a command line holds" {
	sp-fetch --demo 2>/dev/null >d.tsv
	awk -F '\t' 'NR > 1 && $5 == "" { print $1 }' d.tsv >ids
	# five times over, one list a line and one long list: 160 KB of ids,
	# past Linux's 128 KiB for one argument
	{ cat ids ids; paste -sd , ids ids ids; } >many
	[ "$(wc -c <many)" -gt 131072 ]
	run --separate-stderr sp-show --findings --no-logs --jobs-from many d.tsv
	[ "$status" -le 1 ]
	[ "$output" = "$(sp-show --findings --no-logs d.tsv)" ]
	# a few: the same jobs as -j names, in the input's order
	sed -n '7p;3p;40p' ids >few
	[ "$(sp-show --findings --no-logs --jobs-from few -j 77 d.tsv 2>&1)" = \
	  "$(sp-show --findings --no-logs -j "$(paste -sd , few),77" d.tsv 2>&1)" ]
	: >none
	run --separate-stderr sp-show --jobs-from none d.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --jobs-from: none lists no job id" ]
}

# The XDMoD dump's unexpanded array records, 4103947_[1,5] among them.
xdmod_arrays() {
	need_fixtures
	sp-fetch --input "$FIXTURES/xdmod/accounting-logs-with-job-arrays.log" \
		--fields JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName \
		>arrays.tsv
}

@test "-j on a real dump: the array ids sacct printed, commas and all" {
	xdmod_arrays
	run sp-show --findings --no-logs -j '4103947_[1,5],4103947_[9-11,13,16-20]' arrays.tsv
	# Timeouts with no CPU time in the dump: warnings, never a critical
	# "timeout-real" (issue 14, item 3).
	[ "$status" -eq 0 ]
	# [1,5] names its own record and task 1 of [1-3]; the second list
	# overlaps three records.
	[ "$(printf '%s\n' "$output" | awk -F '\t' 'NR > 1 { print $4 }' | sort -u | paste -sd ' ')" = \
	  "4103947_[1,5] 4103947_[1-3] 4103947_[9-11,13,16-20] 4103947_[9-11,20]" ]
	run --separate-stderr sp-show --findings --no-logs -j 4103947_101 arrays.tsv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' 'NR > 1 { print $4 }')" = "4103947_[91,100-102]" ]
}

@test "a job id not in the input: what was found, then exit 2" {
	{ header; record $HEALTHY; } >ok.tsv
	run --separate-stderr sp-show -j 5100021,999 --no-color --no-logs ok.tsv
	[ "$status" -eq 2 ]
	[[ "$output" == *"midtrain"* ]]
	[ "$stderr" = "sp-show: no job 999 in the input" ]
}

@test "an escape sequence in a job name is shown, not obeyed" {
	{ header
	  record jobid=7 name=$'evil\e]0;pwned\a\e[2Jname' user=$'b\e[31mob' \
		state=FAILED exit_code=1; } >esc.tsv
	run sp-show --no-logs --width 80 esc.tsv
	[[ "${lines[0]}" == '7  evil\x1b]0;pwned\x07\x1b[2Jname  FAILED exit 1 · warning: exit-nonzero-nolog' ]]
	[[ "${lines[1]}" == 'b\x1b[31mob · queued n/a' ]]
	! printf '%s' "$output" | grep -q $'\e'
	! printf '%s' "$output" | grep -q $'\a'
}

@test "an escape sequence in a log is shown, not obeyed, even on a terminal" {
	mkdir wd
	printf 'ok\n\e[31mred\e[0m \xc2\x9b2J \xe2\x80\xaeevil\n' \
		>wd/slurm-8.out
	{ header; record jobid=8 name=x state=FAILED exit_code=1 \
		workdir="$PWD/wd"; } >log.tsv
	run script -qec "sp-show --width 80 log.tsv" /dev/null
	[[ "$output" == *'\x1b[31mred\x1b[0m \u009b2J \u202eevil'* ]]
	# Only our own colour escapes reach the terminal, none from the log.
	! printf '%s' "$output" | grep -q $'\e\\[31mred'
	! printf '%s' "$output" | grep -q $'\xc2\x9b'
}

@test "colour only on a terminal, and not with NO_COLOR or TERM=dumb" {
	{ header; record $HUNG; } >hung.tsv
	run script -qec "sp-show --no-logs hung.tsv" /dev/null
	printf '%s' "$output" | grep -q $'\e\\['
	run script -qec "NO_COLOR=1 sp-show --no-logs hung.tsv" /dev/null
	! printf '%s' "$output" | grep -q $'\e\\['
	run script -qec "TERM=dumb sp-show --no-logs hung.tsv" /dev/null
	! printf '%s' "$output" | grep -q $'\e\\['
	run script -qec "sp-show --no-color --no-logs hung.tsv" /dev/null
	! printf '%s' "$output" | grep -q $'\e\\['
	run sp-show --no-logs hung.tsv
	! printf '%s' "$output" | grep -q $'\e\\['
}

# An OOM kill as sacct records it: ExitCode 0:125, the 125 Slurm's mark.
OOM="jobid=5100300 jobid_raw=5100300 name=tokenize user=alice uid=1000
partition=cpu state=OUT_OF_MEMORY exit_code=0 signal=125 reason=OutOfMemory
start=2026-11-10T08:00:00 end=2026-11-10T08:12:00 open=0 elapsed_s=720
timelimit_s=7200 alloc_cpus=2 ntasks=1 nnodes=1 nodelist=c006
mem_limit_node_b=4294967296 max_rss_b=4187593113 total_cpu_s=1400
workdir=/nonexistent/tok"

@test "on a terminal a gauge over its limit is red; one within it is not" {
	{ header; record $HUNG; record $HEALTHY; record $OOM; record $FIG3; } >jobs.tsv
	gauge() {	# gauge $1's line of job $2, as a terminal gets it
		script -qec "sp-show --no-logs --no-pager --width 100 -j $2 jobs.tsv" /dev/null |
			tr -d '\r' | grep -a "^$1 "
	}
	red=$'\e[1;31m'
	[[ "$(gauge time 5100002)" == *"$red"* ]]	# ran past its limit
	[[ "$(gauge memory 5100300)" == *"$red"* ]]	# killed for memory
	# 94% of the time, 92% of the memory: near, not over
	[[ "$(gauge time 5100021)" != *"$red"* ]]
	[[ "$(gauge memory 5100021)" != *"$red"* ]]
	[[ "$(gauge memory 5100021)" == *$'\e['* ]]	# coloured all the same
	# MaxRSS above a limit that killed nothing is no footprint: not drawn
	[[ "$(gauge memory 5100457)" != *"$red"* ]]
}

@test "an OOM kill is not shown as a signal, though sacct records 0:125" {
	{ header; record $OOM; } >oom.tsv
	run sp-show --no-logs --no-color --width 100 oom.tsv
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "5100300  tokenize  OUT_OF_MEMORY killed for memory"* ]]
	[[ "$output" != *"signal"* ]]
	[[ "$output" != *"125"* ]]
	[[ "$output" != *"SIG"* ]]
	# every field in words: the record's 125 is said to be no signal
	run sp-show --no-logs --no-color --all --width 100 oom.tsv
	[[ "$output" == *"signal             125 (Slurm's mark, not a signal)"* ]]
}

@test "--ascii, and a locale that cannot draw the glyphs, give ASCII" {
	{ header; record $FIG3; } >fig3.tsv
	run sp-show --ascii --no-logs --width 100 fig3.tsv
	! printf '%s' "$output" | LC_ALL=C grep -q '[^ -~]'
	[[ "$output" == *"time    ###......"* ]]
	LC_ALL=C run sp-show --no-logs fig3.tsv
	! printf '%s' "$output" | LC_ALL=C grep -q '[^ -~]'
}

@test "--json: every column, null for unknown, steps, findings, log" {
	{ header; record $FIG3
	  record jobid=5100457 jobid_raw=5100457 step=batch state=COMPLETED \
		max_rss_b=98784247808 total_cpu_s=5399
	  record jobid=5100457 jobid_raw=5100457 step=extern state=COMPLETED \
		max_rss_b=2002944 total_cpu_s=0; } >fig3.tsv
	run sp-show --json fig3.tsv
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	printf '%s\n' "$output" | jq -e '
		.jobid == "5100457" and .elapsed_s == 4032 and
		.max_rss_b == 98784247808 and .qos == "normal" and
		.reason == null and .gpu_util == null and
		.derived.mem_used == null and
		.derived.peak_trustworthy == false and
		.derived.sys_fraction > 0.487 and
		.derived.sys_fraction < 0.4871 and
		(.steps | length) == 2 and .steps[0].step == "batch" and
		.steps[1].max_rss_b == 2002944 and
		([.findings[].code] == ["rss-above-limit",
			"system-cpu-heavy", "walltime-slack"]) and
		.findings[0].severity == "warning" and
		.log.status == "absent" and .log.files == []'
	# Every value: the 66 columns, the derived values, site, log, steps.
	n=$(printf '%s\n' "$output" | jq '[.. | scalars] | length')
	[ "$n" -ge 150 ]
}

@test "--json: numbers are JSON numbers, their words in *_text, unknown null" {
	{ header; record $FIG3; } >fig3.tsv
	run sp-show --json --no-logs fig3.tsv
	printf '%s\n' "$output" | jq -e '
		(.elapsed_s | type) == "number" and
		.elapsed_s_text == "01:07:12" and
		(.max_rss_b | type) == "number" and
		.max_rss_b_text == "92.0 GiB" and
		.timelimit_s == 43200 and .timelimit_s_text == "12:00:00" and
		.alloc_cpus == 8 and .exit_code == 0 and .signal == 0 and
		.gpu_util == null and .gpu_util_text == null and
		.ave_rss_b == null and .ave_rss_b_text == null and
		(.derived.cpu_util | type) == "number" and
		(.derived.core_h | type) == "number" and
		([.[] | strings | select(test("^-?[0-9]+(\\.[0-9]+)?$"))] |
			. == ["5100457", "5100457"])'
}

@test "--json with --no-logs: the log is null, not absent" {
	{ header; record $FIG3; } >fig3.tsv
	run sp-show --json --no-logs fig3.tsv
	printf '%s\n' "$output" | jq -e '.log.status == null and
		.log.expected.path == null and .log.expected.status == null'
}

@test "--json holds invalid UTF-8 and control characters as valid JSON" {
	{ header; record jobid=3 name=$'bad\xff\xfe\e[1m' state=COMPLETED; } \
		>bad.tsv
	run sp-show --json --no-logs bad.tsv
	printf '%s\n' "$output" | jq -e '.name == "bad\ufffd\ufffd\u001b[1m"'
}

@test "--findings: finding records for every job, in sp-size's columns" {
	{ header; record $HEALTHY; record $HUNG; } >two.tsv
	run sp-show --findings --no-logs two.tsv
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "$(printf 'user\tworkload\tworkload_key\tjobid\tcode\tseverity\tevidence\taction')" ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == "$(printf 'youzhi\tcot-exp\tyouzhi/test/gpu/cot-exp\t5100002\ttimeout-hang\tcritical\tHeld the allocation for 00:30:26')"* ]]
}

@test "--findings folds the workload when the input has none" {
	{ header; record jobid=1 name=s1e20 user=al partition=p \
		state=FAILED exit_code=2; } >w.tsv
	run sp-show --findings --no-logs w.tsv
	# No alloc_gpus: whether it held GPUs is unknown, as sp-group says.
	[[ "${lines[1]}" == "$(printf 'al\ts#e#\tal/p/?/s#e#\t1\texit-nonzero-nolog\twarning\tExited 2, but no log was read')"* ]]
}

@test "--findings keeps sp-group's workload columns" {
	printf '%s\tworkload\tworkload_key\n' "$(header)" >g.tsv
	printf '%s\tW\tK\n' "$(record jobid=1 name=n state=DEADLINE)" >>g.tsv
	run sp-show --findings --no-logs g.tsv
	[[ "${lines[1]}" == "$(printf '\tW\tK\t1\tdeadline\tcritical\t')"* ]]
}

@test "the log ladder from the command line: found, labelled, tailed" {
	mkdir -p wd logs
	printf 'step 1\nstep 2\nTraceback (most recent call last):\n  File "t.py", line 1, in <module>\nKeyError: 3\n' \
		>logs/train-55.err
	{ header; record jobid=55 name=train state=FAILED exit_code=1 \
		workdir="$PWD/wd" stdout="$PWD/wd/out-%j.log" \
		stderr="logs/gone-%j.err"; } >l.tsv
	run sp-show --no-color --width 200 --log-dir "$PWD/logs" l.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *"error $PWD/wd/logs/gone-55.err (the StdErr field): not there any more (moved or deleted)"* ]]
	[[ "$output" == *"error $PWD/logs/train-55.err (a log named after the job)"* ]]
	[[ "$output" == *"│ KeyError: 3"* ]]
	[[ "$output" == *"INFO traceback: The last Python traceback"* ]]
	[[ "$output" != *"exit-nonzero-nolog"* ]]
}

@test "--no-logs reads nothing" {
	mkdir wd
	printf 'hello\n' >wd/slurm-56.out
	{ header; record jobid=56 name=x state=FAILED exit_code=1 \
		workdir="$PWD/wd"; } >l.tsv
	run sp-show --no-color --no-logs l.tsv
	[[ "$output" == *"not read (--no-logs)"* ]]
	[[ "$output" != *"hello"* ]]
	[[ "$output" == *"no log was read"* ]]
}

@test "--log-dir with --no-logs warns that it has no effect" {
	{ header; record $HEALTHY; } >ok.tsv
	run --separate-stderr sp-show --no-logs --log-dir /tmp ok.tsv
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-show: --log-dir has no effect with --no-logs" ]
}

@test "step records follow their allocation and are shown" {
	{ header; record $HUNG
	  record jobid=5100002 step=batch state=CANCELLED elapsed_s=1826 \
		total_cpu_s=0.5 max_rss_b=1048576 ntasks=1; } >s.tsv
	run sp-show --all --no-color --no-logs --width 100 s.tsv
	[[ "$output" == *"  batch: CANCELLED · elapsed 00:30:26 · CPU 0.50s · peak memory 1.0 MiB · tasks 1"* ]]
}

# Twelve failures of workload w on bad1, forty completions elsewhere.
node_history() {
	header
	for i in $(seq 1 12); do
		record jobid=$((100 + i)) name=w user=u partition=p \
			state=FAILED exit_code=1 elapsed_s=100 nodelist=bad1 \
			total_cpu_s=90
	done
	for i in $(seq 1 40); do
		record jobid=$((200 + i)) name=w user=u partition=p \
			state=COMPLETED exit_code=0 elapsed_s=100 \
			nodelist=good$((i % 4)) total_cpu_s=90
	done
}

@test "a node with a history of failing this work gets a note" {
	node_history >h.tsv
	run sp-show --findings --no-logs h.tsv
	[[ "$output" == *$'\t101\tnode-history\tinfo\tbad1 failed 12 of 12 placements there'* ]]
	n=$(printf '%s\n' "$output" | grep -c node-history)
	[ "$n" -eq 12 ]
}

@test "usage errors: one line, exit 2" {
	run --separate-stderr sp-show --width x
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --width: not a width in columns: 'x'" ]
	run --separate-stderr sp-show --findings --json --csv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --json and --csv are different outputs: choose one" ]
	run --separate-stderr sp-show -j
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: option '-j' needs a value" ]
}

@test "bad input: the missing column, and the file and line of a bad value" {
	printf 'jobid\tname\n1\tx\n' >nostate.tsv
	run --separate-stderr sp-show nostate.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: nostate.tsv: no column 'state' (pipe through sp-fetch first)" ]
	{ header; record jobid=1 state=COMPLETED elapsed_s=1:00; } >bad.tsv
	run --separate-stderr sp-show bad.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: bad.tsv:2: field 'elapsed_s' is not a number: \"1:00\"" ]
}

@test "standard input works, and a full disk is a failed run" {
	{ header; record $HEALTHY; } >ok.tsv
	run sh -c 'sp-show --no-logs < ok.tsv'
	[ "$status" -eq 0 ]
	[[ "$output" == *midtrain* ]]
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run --separate-stderr sh -c 'sp-show --no-logs ok.tsv >/dev/full'
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: <stdout>: No space left on device" ]
}

@test "both passes see the same records from a file, stdin, a pipe or a fifo" {
	node_history >h.tsv
	sp-show --findings --no-logs h.tsv >want
	grep -q node-history want
	sp-show --findings --no-logs <h.tsv >stdin.out
	cmp want stdin.out
	cat h.tsv | sp-show --findings --no-logs >pipe.out
	cmp want pipe.out
	# Standard input read again from where it stood, not from byte 0.
	{ echo "a line that is not ours"; cat h.tsv; } >skip.tsv
	{ IFS= read -r _; sp-show --findings --no-logs; } <skip.tsv >skip.out
	cmp want skip.out
	mkfifo fifo
	cat h.tsv >fifo &
	sp-show --findings --no-logs fifo >fifo.out
	cmp want fifo.out
}

@test "a pipe is spooled in TMPDIR; a TMPDIR that is not there is said" {
	# valgrind keeps its own files in TMPDIR: it fails first.
	[ -z "${SP_UNDER_VALGRIND:-}" ] || skip "valgrind needs TMPDIR itself"
	{ header; record $HEALTHY; } >ok.tsv
	run --separate-stderr sh -c 'cat ok.tsv | TMPDIR=/nonexistent sp-show --findings --no-logs'
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: cannot make a spool file in /nonexistent: No such file or directory" ]
	run --separate-stderr sh -c 'cat ok.tsv | TMPDIR="$PWD" sp-show --findings --no-logs'
	[ "$status" -eq 0 ]
}

# The demo's evaluation of the article's figure 3 (examples/ and
# sp-fetch --demo): if the demo's numbers change, regenerate the golden
# with the command in the test and read it before committing.
demo_fig3() {
	sp-fetch --demo >demo.tsv 2>/dev/null ||
		skip "sp-fetch --demo is not available in this build"
	id=$(awk -F '\t' '$7 == "eval-ckpt-4000" && $5 == "" { print $1 }' \
		demo.tsv)
	[ -n "$id" ]
}

@test "the demo's figure-3 job renders as the article describes" {
	demo_fig3
	run sp-show -j "$id" --plain --no-color --width 100 demo.tsv
	[ "$status" -eq 0 ]
	diff -u "$GOLDEN/demo-fig3.txt" <(printf '%s\n' "$output")
}

@test "the demo's figure-3 job: its three findings, no memory percentage" {
	demo_fig3
	run sp-show -j "$id" --json demo.tsv
	printf '%s\n' "$output" | jq -e '
		[.findings[].code] == ["rss-above-limit", "system-cpu-heavy",
			"walltime-slack"] and
		.derived.mem_used == null and
		(.derived.sys_fraction * 1000 | round) == 487 and
		.derived.walltime_used < 0.05'
}

@test "the demo: what examples/demo-expected.md says sp-show finds" {
	demo_fig3
	codes() {
		sp-show -j "$1" --json demo.tsv |
			jq -r '[.findings[] | .code + "/" + .severity] | join(" ")'
	}
	[ "$(codes 53563545)" = "noop-allocation/critical cancelled/info" ]
	[ "$(codes 52662000)" = "straggler/warning exit-nonzero-nolog/warning" ]
	[ "$(codes 51926935)" = "timeout-hang/critical" ]
	[ "$(codes 53176200)" = "cpu-overrequest/warning system-cpu-heavy/warning io-heavy/warning" ]
	[ "$(codes 52971120)" = "cpu-overrequest/warning paging/warning" ]
	[ "$(codes 53511658)" = "walltime-slack/info" ]
	# Restraint: the midtrain and att-speed runs have nothing to say.
	ids=$(awk -F '\t' '$5 == "" && ($7 == "midtrain" || $7 ~ /^att-speed-/) \
		{ print $1 }' demo.tsv | paste -sd, -)
	[ -n "$ids" ]
	run sp-show -j "$ids" --findings demo.tsv
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
}

# ------------------------------------------------------ a real terminal

# A failed job with a long name, a long node list and a log whose lines
# run past any window.
wide_job() {
	mkdir -p wd
	{ printf 'starting\n'
	  printf 'x%.0s' $(seq 1 300); printf '\n'
	  printf 'RuntimeError: the last line, also long: %s\n' \
		"$(printf 'word %.0s' $(seq 1 40))"; } >wd/slurm-61.out
	{ header; record jobid=61 name=$(printf 'n%.0s' $(seq 1 150)) \
		user=alice partition=gpu state=FAILED exit_code=1 \
		start=2026-11-10T08:00:01 end=2026-11-10T09:52:50 \
		elapsed_s=6769 timelimit_s=7200 alloc_cpus=4 nnodes=12 \
		nodelist=node[001-003,005,007-009,011,013-017,019,023,029-031,037,041-043,047,053,059,061,067,071,073,079,083,089,097] \
		total_cpu_s=20 workdir="$PWD/wd"; } >wide.tsv
}

@test "on a terminal nothing is wider than the window, at 40 and 80 columns" {
	wide_job
	for cols in 40 80; do
		term_start "$cols" 200 "sp-show --no-pager --all wide.tsv"
		term_wait_done
		# -J joins what the terminal wrapped: a line wider than the
		# window would come back longer than it.
		term_screen -J
		printf '%s\n' "$output" | lines_wider_than "$cols" ||
			{ printf '%s\n' "$output"; return 1; }
		# Cut, not wrapped: the log's long lines end in an ellipsis.
		[[ "$output" == *"│ xxxx"*"…"* ]]
		[[ "$output" == *"RuntimeError: the last line"*"…"* ]]
		# The name gives way on the verdict line, the verdict stays.
		[[ "${lines[0]}" == "61  nnnn"*"…"* ]]
		[[ "$output" == *"FAILED exit 1"* ]]
		term_stop
	done
}

@test "into a pipe nothing is cut: the log's long line is whole" {
	wide_job
	run sp-show --no-color --width 80 wide.tsv
	[[ "$output" != *"…"* ]]
	[[ "$output" == *"$(printf 'x%.0s' $(seq 1 60))"* ]]
	n=$(printf '%s\n' "$output" | awk '{ n += gsub(/x/, "x") } END { print n }')
	[ "$n" -ge 300 ]
}

@test "prose wraps at words under a hanging indent; no value is broken" {
	wide_job
	run sp-show --no-color --width 80 --all wide.tsv
	# The node list breaks only after its commas.
	printf '%s\n' "$output" | awk '/node list/,/^$/' >nodes
	! grep -q '[0-9]$' <(sed '$d' nodes | grep -v ',$' | grep -v '^$' | grep -v 'node list.*]$')
	# Into a pipe the name on the verdict line is whole; every other line
	# fits, its value wrapped (the name's 150 letters under its label).
	[ "${#lines[0]}" -gt 150 ]
	printf '%s\n' "$output" | sed 1d | lines_wider_than 80
	[[ "$output" == *"  name        nnnnnnnnnnnnnnnnn"* ]]
}

@test "--width below its minimum is refused" {
	run --separate-stderr sp-show --width 39
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --width: at least 40 columns, not 39" ]
}

@test "a common post-mortem fits an 80x24 screen" {
	# The hung timeout and a failed job with its log: the verdict line
	# is still on the first row when the command has ended.
	{ header; record $HUNG; } >hung.tsv
	mkdir wd
	printf 'epoch 1\nepoch 2\nTraceback (most recent call last):\n  File "t.py", line 9, in <module>\n    main()\nKeyError: 3\n' >wd/slurm-62.out
	{ header; record jobid=62 name=train user=alice partition=gpu \
		state=FAILED exit_code=1 start=2026-11-10T08:00:01 \
		end=2026-11-10T08:10:00 elapsed_s=599 timelimit_s=3600 \
		alloc_cpus=4 nnodes=1 nodelist=g001 total_cpu_s=2000 \
		mem_limit_node_b=17179869184 max_rss_b=4294967296 \
		workdir="$PWD/wd"; } >failed.tsv
	for f in hung.tsv failed.tsv; do
		term_start 80 24 "sp-show --no-pager $f; printf END"
		term_wait_done
		term_screen
		[ "${#lines[@]}" -le 24 ] || { printf '%s\n' "$output"; return 1; }
		[[ "${lines[0]}" == 5100002* || "${lines[0]}" == 62* ]] ||
			{ printf '%s\n' "$output"; return 1; }
		[[ "${lines[-1]}" == *END ]]
		term_stop
	done
}

@test "longer than the screen: through less -FRX, q ends it" {
	command -v less >/dev/null || skip "less is not installed"
	{ header; record $FIG3; } >fig3.tsv
	term_start 80 24 "sp-show --all fig3.tsv; printf 'EXIT %s' \$?"
	term_wait_for "walltime-slack"
	term_screen
	# less holds the screen: the first page, its prompt, no exit yet.
	[[ "${lines[0]}" == "5100457  eval-gsm8k  COMPLETED exit 0"* ]]
	[[ "$output" != *"EXIT"* ]]
	term_keys q
	term_wait_done
	term_screen
	[[ "$output" == *"EXIT 0"* ]]
}

@test "a post-mortem that fits: less -F shows it and ends by itself" {
	command -v less >/dev/null || skip "less is not installed"
	{ header; record $HUNG; } >hung.tsv
	term_start 80 24 "sp-show --no-logs hung.tsv; printf 'EXIT %s' \$?"
	term_wait_done
	term_screen
	[[ "${lines[0]}" == "5100002  cot-exp  TIMEOUT"* ]]
	[[ "$output" == *"EXIT 1"* ]]
}

@test "--no-pager, SLURMPAST_PAGER and PAGER, as git has them" {
	{ header; record $FIG3; } >fig3.tsv
	# --no-pager: the whole text scrolls past, the command ends.
	term_start 80 24 "sp-show --no-pager --all fig3.tsv; printf 'EXIT %s' \$?"
	term_wait_done
	term_screen
	[[ "$output" == *"EXIT 0"* ]]
	term_stop
	# SLURMPAST_PAGER wins over PAGER; its words are the command's.
	printf '#!/bin/sh\necho "pager: $*"; wc -l\n' >mypager
	chmod +x mypager
	term_start 80 24 "PAGER=false SLURMPAST_PAGER='$PWD/mypager -x y' sp-show --all fig3.tsv"
	term_wait_done
	term_screen
	[[ "${lines[0]}" == "pager: -x y" ]]
	[ "${lines[1]}" -gt 24 ]
	term_stop
	# PAGER when SLURMPAST_PAGER is unset; cat or empty means none.
	term_start 80 24 "PAGER='$PWD/mypager' sp-show --all fig3.tsv"
	term_wait_done
	term_screen
	[[ "${lines[0]}" == "pager:" ]]
	term_stop
	term_start 80 24 "PAGER=$PWD/mypager SLURMPAST_PAGER=cat sp-show --all fig3.tsv"
	term_wait_done
	term_screen
	[[ "$output" != *"pager:"* ]]
	term_stop
	# A pager that is not there is said, and the text still comes.
	term_start 80 24 "SLURMPAST_PAGER=/nonexistent/pager sp-show --no-logs fig3.tsv 2>&1 | head -n 3 >out.txt"
	term_wait_done
	# Into a pipe there is no pager to start at all.
	[ "$(head -n 1 out.txt)" = "5100457  eval-gsm8k  COMPLETED exit 0 · warning: rss-above-limit (+2)" ]
	term_stop
	{ header; record $HUNG; } >hung.tsv
	term_start 80 24 "SLURMPAST_PAGER=/nonexistent/pager sp-show --no-logs hung.tsv 2>err.txt"
	term_wait_done
	[ "$(cat err.txt)" = "sp-show: cannot run the pager '/nonexistent/pager' (set SLURMPAST_PAGER, or --no-pager): No such file or directory" ]
	term_screen
	[[ "${lines[0]}" == "5100002  cot-exp  TIMEOUT"* ]]
}

@test "fields of 20 MB: every output ends (a hang guard; t/bench/show-linear counts the work)" {
	[ -z "${SP_UNDER_VALGRIND:-}" ] || skip "20 MB under valgrind is a bench, not a test"
	{ printf 'jobid\tstate\texit_code\tname\tuser\tworkdir\tsubmit_line\tnodelist\n'
	  printf '9\tFAILED\t1\t'; head -c 20000000 /dev/zero | tr '\0' Z
	  printf '\tu\t/nonexistent\t'; head -c 20000000 /dev/zero | tr '\0' b
	  printf '\t'; yes n1, | tr -d '\n' | head -c 20000000; printf '\n'; } >big.tsv
	# Into files, not bats' variables: bash would spend longer on 40 MB
	# of output than sp-show does.
	for opts in --plain --all --json --findings; do
		st=0
		timeout 60 sp-show $opts --width 80 big.tsv >out.txt || st=$?
		[ "$st" -eq 0 ] || { echo "$opts: status $st"; return 1; }
	done
	# Into a pipe the name is all there twice: whole on the verdict line,
	# wrapped under its label.
	sp-show --all --width 80 big.tsv >out.txt
	[ "$(tr -cd Z <out.txt | wc -c)" -eq 40000000 ]
}

# ------------------------------------------------------ --table, arrays

# Array 800 of seven tasks: five completed at rising sizes, one killed
# for memory, one timed out; and a job of its own.
array_input() {
	header
	for i in 1 2 3 4 5; do
		record jobid=800_$i jobid_raw=$((800 + i)) array_job=800 \
			array_task=$i name=scan user=alice partition=cpu \
			state=COMPLETED exit_code=0 signal=0 \
			start=2026-11-10T08:00:00 end=2026-11-10T08:30:00 \
			elapsed_s=$((600 * i)) timelimit_s=7200 alloc_cpus=2 \
			ntasks=1 nnodes=1 nodelist=c00$i \
			mem_limit_node_b=4294967296 \
			max_rss_b=$((i * 536870912)) total_cpu_s=$((900 * i))
	done
	record jobid=800_6 jobid_raw=806 array_job=800 array_task=6 name=scan \
		user=alice partition=cpu state=OUT_OF_MEMORY exit_code=0 \
		signal=125 start=2026-11-10T08:00:00 end=2026-11-10T08:12:00 \
		elapsed_s=720 timelimit_s=7200 alloc_cpus=2 ntasks=1 nnodes=1 \
		nodelist=c006 mem_limit_node_b=4294967296 max_rss_b=4187593113 \
		total_cpu_s=1400
	record jobid=800_7 jobid_raw=807 array_job=800 array_task=7 name=scan \
		user=alice partition=cpu state=TIMEOUT exit_code=0 signal=15 \
		start=2026-11-10T08:00:00 end=2026-11-10T10:00:05 \
		elapsed_s=7205 timelimit_s=7200 alloc_cpus=2 ntasks=1 nnodes=1 \
		nodelist=c007 mem_limit_node_b=4294967296 max_rss_b=1073741824 \
		total_cpu_s=14000
	record jobid=900 jobid_raw=900 name=solo user=alice partition=gpu \
		state=COMPLETED exit_code=0 signal=0 elapsed_s=100 \
		timelimit_s=200 alloc_cpus=1 alloc_gpus=1 gpu_util=0.5 \
		mem_limit_node_b=1073741824 max_rss_b=536870912 total_cpu_s=50
}

@test "--table: one row a job, TSV with a header into a pipe" {
	array_input >a.tsv
	run sp-show --table a.tsv
	[ "$status" -eq 0 ]
	diff -u "$GOLDEN/table.tsv" <(printf '%s\n' "$output")
	# Numbers are plain: efficiencies as fractions, unknown empty.
	run sp-show --table --json -j 900 a.tsv
	printf '%s\n' "$output" | jq -e '.time_eff == 0.5 and .cpu_eff == 0.5 and
		.mem_eff == 0.5 and .gpu_eff == 0.5 and .elapsed_s == 100 and
		.exit_code == 0'
	run sp-show --table --json -j 800_7 a.tsv
	printf '%s\n' "$output" | jq -e '.gpu_eff == null and .time_eff > 1'
}

@test "--table --plain: aligned, human units, n/a for unknown" {
	array_input >a.tsv
	run sp-show --table --plain a.tsv
	[ "$status" -eq 0 ]
	diff -u "$GOLDEN/table.txt" <(printf '%s\n' "$output")
}

@test "--table on a terminal: aligned, and the name gives way to the window" {
	{ header
	  record jobid=1 name=$(printf 'long%.0s' $(seq 1 40)) state=COMPLETED \
		elapsed_s=60 timelimit_s=120
	  record jobid=2 name=short state=FAILED exit_code=1; } >t.tsv
	term_start 80 24 "sp-show --table t.tsv"
	term_wait_done
	term_screen -J
	# 80 columns: the name's 160 letters give way, its heading stays.
	[ "${lines[0]}" = "jobid  name       state       elapsed  time_eff  cpu_eff  mem_eff  gpu_eff  exit" ]
	[ "${lines[1]}" = "1      longlong…  COMPLETED  00:01:00     50.0%      n/a      n/a      n/a   n/a" ]
	[ "${lines[2]}" = "2      short      FAILED          n/a       n/a      n/a      n/a      n/a     1" ]
}

@test "an array named by its id: one view of its tasks, not a post-mortem each" {
	array_input >a.tsv
	run sp-show -j 800 --no-logs --width 80 a.tsv
	[ "$status" -eq 1 ]
	diff -u "$GOLDEN/array.txt" <(printf '%s\n' "$output")
	# A task by its id, or a set of them, is a post-mortem each.
	run sp-show -j 800_6 --no-logs --width 80 a.tsv
	[[ "${lines[0]}" == "800_6  scan  OUT_OF_MEMORY killed for memory · critical: host-oom" ]]
	run sp-show -j '800_[6-7]' --no-logs --width 80 a.tsv
	[ "$(printf '%s\n' "$output" | grep -c '^800_[67]  scan  ')" -eq 2 ]
	# With another job: the job's post-mortem, then the array.
	run sp-show -j 900,800 --no-logs --width 80 a.tsv
	[[ "${lines[0]}" == "900  solo  COMPLETED exit 0"* ]]
	[[ "$output" == *$'\n800  scan  array, 7 tasks'* ]]
	# --json and --table keep one line a task.
	[ "$(sp-show -j 800 --json --no-logs a.tsv | wc -l)" -eq 7 ]
	[ "$(sp-show -j 800 --table a.tsv | wc -l)" -eq 8 ]
}

@test "the demo's 142-task array is one screen of summary and a table" {
	demo_fig3
	run sp-show -j 52581003 --no-logs --width 80 demo.tsv
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "52581003  scan-corpus  array, 142 tasks · critical: host-oom in 71 of 142" ]
	[ "${lines[2]}" = "tasks         71 COMPLETED · 71 OUT_OF_MEMORY" ]
	[[ "$output" == *$'\nkilled        71 for memory:\n              52581003_[1,6,8-13,15,'* ]]
	# One row a task under the header, and nothing else: no post-mortem.
	[ "$(printf '%s\n' "$output" | grep -c '^52581003_[0-9]')" -eq 142 ]
	[[ "$output" != *"findings"* ]]
}

@test "an array on a narrow terminal: nothing wider than the window, the ids whole" {
	demo_fig3
	for cols in 40 72; do
		for args in "" --table; do
			term_start "$cols" 40 "sp-show --no-pager --no-logs $args -j 52581003 demo.tsv"
			term_wait_done
			# every line, history too; -J joins what the terminal wrapped
			output=$(tmux -S "$TERM_SOCK" capture-pane -p -J -S - -t t)
			printf '%s\n' "$output" | lines_wider_than "$cols" ||
				{ echo "$cols $args"; printf '%s\n' "$output"; return 1; }
			# the table's rows keep their job ids whole; its cells give way
			[ "$(printf '%s\n' "$output" | grep -c '^52581003_[0-9]* ')" -eq 142 ]
			[[ "$output" == *"…"* ]]
			term_stop
		done
	done
	# the verdict on a line of its own when the window is too narrow
	term_start 72 40 "sp-show --no-pager --no-logs -j 52581003 demo.tsv"
	term_wait_done
	output=$(tmux -S "$TERM_SOCK" capture-pane -p -J -S - -t t)
	[[ "$output" == *$'52581003  scan-corpus\n  array, 142 tasks · critical: host-oom in 71 of 142\n'* ]]
}

@test "-j A,B with B unknown: A is shown, B named on stderr, exit 2" {
	array_input >a.tsv
	run --separate-stderr sp-show -j 900,77,800_9 --no-logs a.tsv
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "900  solo  COMPLETED"* ]]
	[ "$stderr" = "sp-show: no job 77, 800_9 in the input" ]
}

@test "outputs and formats: one of each, and the post-mortem takes no TSV" {
	run --separate-stderr sp-show --findings --table
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --findings and --table are different outputs: choose one" ]
	run --separate-stderr sp-show --json --plain
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --json and --plain are different outputs: choose one" ]
	run --separate-stderr sp-show --tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-show: --tsv and --csv are for --findings and --table: the post-mortem is --plain or --json" ]
}

@test "--findings --json: the finding records as JSON Lines" {
	{ header; record $HUNG; } >hung.tsv
	run sp-show --findings --json --no-logs hung.tsv
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" | jq -e '.code == "timeout-hang" and
		.severity == "critical" and .jobid == "5100002"'
}

@test "--table on real dumps: slurm2sql's Aalto jobs, the hpc-cost-simulator's 483" {
	need_fixtures
	sp-fetch --input "$FIXTURES/slurm2sql/test-data1.txt" >s2s.tsv 2>/dev/null
	run sp-show --table --plain s2s.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "jobid     name                state       elapsed  time_eff  cpu_eff  mem_eff  gpu_eff  exit
43974388  spawner-jupyterhub  CANCELLED  03:33:25      3.0%     0.1%    10.3%      n/a     0
43977780  _interactive        CANCELLED     17.0s     28.3%     4.7%     0.2%      n/a     0" ]
	sp-fetch --input "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" \
		--fields State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition \
		>hpc.tsv 2>/dev/null
	run sp-show --table hpc.tsv
	# One row an allocation; no time limit in that dump, so no time_eff.
	[ "${#lines[@]}" -eq 484 ]
	[ "${lines[1]}" = "$(printf '67108865\t\tOUT_OF_MEMORY\t316\t\t0.413241\t\t\t0')" ]
	[ -z "$(printf '%s\n' "$output" | awk -F '\t' 'NR > 1 && $5 != ""')" ]
}

@test "a timeout with no CPU time in the record is only a timeout (pozidriv)" {
	need_fixtures
	sp-fetch --input "$FIXTURES/xdmod/pozidriv.log" --fields JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName 2>/dev/null >poz.tsv
	run sp-show --findings --no-logs poz.tsv
	printf '%s\n' "$output" >found.tsv
	# Issue 14, item 3: ten critical timeout-real "while working (n/a of
	# CPU)" on records with no CPU time.
	! grep -q 'timeout-real' found.tsv
	timeouts=$(awk -F '\t' '$14 == "TIMEOUT" && $5 == ""' poz.tsv | wc -l)
	[ "$timeouts" -gt 0 ]
	[ "$(awk -F '\t' '$5 == "timeout" && $6 == "warning"' found.tsv | wc -l)" -eq "$timeouts" ]
	grep -q 'CPU time (total_cpu_s) is not in this record, so whether it was working or hung cannot be told' found.tsv
	run sp-show --json --no-logs -j "$(awk -F '\t' '$5 == "timeout" { print $4; exit }' found.tsv)" poz.tsv
	[[ "$output" == *'"noop":null'* ]]
}

@test "--plain cells show a field decoded: no \\n on the screen (issue 15, item 17)" {
	mkdir wd
	printf 'srun: error: n3: task 0: Exited with exit code 1\n' >wd/slurm-15.out
	# The name holds a tab, escaped in the record as sp-fetch writes it.
	{ header; record jobid=15 name='multi\tstep' state=FAILED exit_code=1 \
		workdir="$PWD/wd"; } >m.tsv
	run sp-show --findings --plain m.tsv
	[[ "$output" == *"log-tail  info      The last lines of $PWD/wd/slurm-15.out: srun: error: n3: task 0: Exited with exit code 1"* ]]
	run sp-show --table --plain m.tsv
	[[ "${lines[1]}" == "15     multi step  FAILED"* ]]
	[[ "$output" != *'\n'* ]]
	# The record form keeps its escapes: what a program reads is exact.
	run sp-show --findings m.tsv
	[[ "$output" == *'slurm-15.out:\nsrun: error:'* ]]
}

# Issue 15, item 7: one job killed at 100M is told the workload's 150M
# (hpc-cost-simulator), as sp-size says it, never 1G.
@test "a job killed under 1 GiB: the same MiB figure as its workload's advice (hpc)" {
	need_fixtures
	# named, so the runs are one workload (nameless, none is: issue 30)
	sp-fetch --input "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" --fields State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition 2>/dev/null |
		awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "name") n = i; if ($i == "user") u = i } }
			NR > 1 { $n = "stress"; $u = "u" } 1' | sp-group >hpc.tsv
	run sp-show --findings --no-logs -j 67108865 hpc.tsv
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$5 == "host-oom" { print $8 }')" = \
	  "Raise --mem to 150M (sp-size's advice from 15 runs of this workload), or hold less at once: fewer dataloader workers, a smaller prefetch or cache." ]
	[[ "$output" != *"--mem=1G"* && "$output" != *" 1G "* ]]
}

# Issue 15, item 9: slurm2sql's job 43974388 was told to raise --mem
# after 2,048 major faults in 3.5 hours, far below its limit.
@test "a few faults over hours is no paging (slurm2sql)" {
	need_fixtures
	sp-fetch --input "$FIXTURES/slurm2sql/test-data1.txt" 2>/dev/null >s2s.tsv
	[ "$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["jobid"] == "43974388" { print $c["max_pages"] }' s2s.tsv)" = 2048 ]
	run sp-show --findings --no-logs -j 43974388 s2s.tsv
	[ "$(printf '%s\n' "$output" | awk -F '\t' 'NR > 1 { print $5 }' | paste -sd ' ')" = "cpu-overrequest cancelled" ]
	[[ "$output" != *"Raise --mem"* ]]
}


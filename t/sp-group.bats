#!/usr/bin/env bats
# sp-group: the workload fold and key on every record, streaming; the
# rollup of workloads by compute; the errors, exactly.

load lib/common
load lib/tmux

teardown() {
	term_stop
}

setup() {
	T=$BATS_TEST_TMPDIR
	# Columns in an order of their own, one the tool does not know.
	cat >"$T/jobs.tsv" <<-'EOF'
	jobid	name	user	partition	alloc_gpus	extra	state	elapsed_s	alloc_cpus	total_cpu_s	start	end
	1	s1e20	alice	gpu	1	x	COMPLETED	3600	4	7200	2026-11-01T10:00:00	2026-11-01T11:00:00
	2	s2e47	alice	gpu	1	y	FAILED	600	4	100	2026-11-02T10:00:00	2026-11-02T10:10:00
	3	mid85_059	alice	cpu	0	z	COMPLETED	60	1	59	2026-11-03T10:00:00	2026-11-03T10:01:00
	4		bob		2		CANCELLED	400	2	1	2026-11-04T10:00:00	2026-11-04T10:06:40
	5	tool-bench-2026-03-15	bob	cpu		w	TIMEOUT	1800	8	14000	2026-11-05T10:00:00	2026-11-05T10:30:00
	6	20261101	bob	cpu		v	COMPLETED	100	1	90	2026-11-06T10:00:00	2026-11-06T10:01:40
	7	20261102	bob	cpu		v	COMPLETED	100	1	90	2026-11-07T10:00:00	2026-11-07T10:01:40
	8	20261103	bob	cpu		v	RUNNING	100	1	90	2026-11-08T10:00:00	
	EOF
}

@test "sp-group: workload and workload_key on every record, columns passed through" {
	run --separate-stderr sp-group "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "$(printf 'jobid\tname\tuser\tpartition\talloc_gpus\textra\tstate\telapsed_s\talloc_cpus\ttotal_cpu_s\tstart\tend\tworkload\tworkload_key')" ]
	run sh -c 'sp-group "$1" | cut -f1,2,6,13,14' sh "$T/jobs.tsv"
	[ "$output" = "$(printf '%s\n' \
		'jobid	name	extra	workload	workload_key' \
		'1	s1e20	x	s#e#	alice/gpu/gpu/s#e#' \
		'2	s2e47	y	s#e#	alice/gpu/gpu/s#e#' \
		'3	mid85_059	z	mid#_#	alice/cpu/cpu/mid#_#' \
		'4			?	bob/?/gpu/?' \
		'5	tool-bench-2026-03-15	w	tool-bench-#-#-#	bob/cpu/?/tool-bench-#-#-#' \
		'6	20261101	v	#	bob/cpu/?/#' \
		'7	20261102	v	#	bob/cpu/?/#' \
		'8	20261103	v	#	bob/cpu/?/#')" ]
}

@test "sp-group: only name is needed; an absent user or partition is unknown" {
	printf 'name\tuser\tpartition\nc9ea44e\tu\tp\n' >"$T/min.tsv"
	run sp-group "$T/min.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'name\tuser\tpartition\tworkload\tworkload_key\nc9ea44e\tu\tp\tc#ea#e\tu/p/?/c#ea#e')" ]
	printf 'name\nc9ea44e\n' >"$T/name.tsv"
	run sp-group "$T/name.tsv"
	[ "$output" = "$(printf 'name\tworkload\tworkload_key\nc9ea44e\tc#ea#e\t?/?/?/c#ea#e')" ]
}

@test "sp-group: a step takes its allocation's workload" {
	printf 'jobid\tstep\tname\tuser\tpartition\talloc_gpus\n' >"$T/steps.tsv"
	printf '42\t\ttrain7\tu\tp\t2\n42\tbatch\tbatch\tu\tp\t\n42\t0\tpython\tu\tp\t\n43\t\tprep\tu\tp\t0\n' >>"$T/steps.tsv"
	run sh -c 'sp-group "$1" | cut -f2,7,8' sh "$T/steps.tsv"
	[ "$output" = "$(printf 'step\tworkload\tworkload_key\n\ttrain#\tu/p/gpu/train#\nbatch\ttrain#\tu/p/gpu/train#\n0\ttrain#\tu/p/gpu/train#\n\tprep\tu/p/cpu/prep')" ]
}

@test "sp-group: run twice, the columns are recomputed in place, not doubled" {
	run sh -c 'sp-group "$1" | sp-group | head -2' sh "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(sp-group "$T/jobs.tsv" | head -2)" ]
}

@test "sp-group: a missing column names the stage that adds it" {
	printf 'jobid\tuser\tpartition\n1\tu\tp\n' >"$T/noname.tsv"
	run --separate-stderr sp-group "$T/noname.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-group: $T/noname.tsv: no column 'name' (pipe through sp-fetch first)" ]
}

@test "sp-group: a GPU count that is not a number names file and line" {
	printf 'name\tuser\tpartition\talloc_gpus\na\tu\tp\t1\nb\tu\tp\tfour\n' >"$T/bad.tsv"
	run --separate-stderr sp-group "$T/bad.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: $T/bad.tsv:3: field 'alloc_gpus' is not a number" ]
}

# severity is the workload's verdict (sp_wl_verdict): its findings across
# runs, one scale with the report's and the dashboard's (issue 30).  These
# records have no time limit, memory limit or cores: no finding below
# critical can be ruled out, so every severity is unknown.
@test "sp-group --rollup: one record per workload, most compute first" {
	run --separate-stderr sp-group --rollup "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-group: left out 1 open record (never ended)" ]
	[ "$output" = "$(printf '%s\n' \
		'user	workload	workload_key	label	partition	names	runs	completed	failed	cancelled	noop	problems	gpu_h	core_h	compute	share	cum_share	severity	first	last' \
		'alice	s#e#	alice/gpu/gpu/s#e#	s#e#	gpu	2	2	1	1	0	0	1	1.166667	4.666667	23.333333	0.748263	0.748263		2026-11-01T10:00:00	2026-11-02T10:10:00' \
		'bob	tool-bench-#-#-#	bob/cpu/?/tool-bench-#-#-#	tool-bench-2026-03-15	cpu	1	1	0	1	0	0	1		4	4	0.128274	0.876537		2026-11-05T10:00:00	2026-11-05T10:30:00' \
		'bob	?	bob/?/gpu/?	?	?		1	0	0	1	1	1	0.222222	0.222222	3.777778	0.121147	0.997684		2026-11-04T10:00:00	2026-11-04T10:06:40' \
		'bob	#	bob/cpu/?/#	20261102+1	cpu	2	2	2	0	0	0	0		0.0555556	0.0555556	0.00178158	0.999466		2026-11-06T10:00:00	2026-11-07T10:01:40' \
		'alice	mid#_#	alice/cpu/cpu/mid#_#	mid85_059	cpu	1	1	1	0	0	0	0	0	0.0166667	0.0166667	0.000534474	1		2026-11-03T10:00:00	2026-11-03T10:01:00')" ]
}

@test "sp-group --rollup --sort: each order, ties broken by the key" {
	run sh -c 'sp-group --rollup --sort failures "$1" 2>/dev/null | cut -f3' sh "$T/jobs.tsv"
	[ "$output" = "$(printf 'workload_key\nalice/gpu/gpu/s#e#\nbob/cpu/?/tool-bench-#-#-#\nbob/?/gpu/?\nbob/cpu/?/#\nalice/cpu/cpu/mid#_#')" ]
	run sh -c 'sp-group --rollup --sort rate "$1" 2>/dev/null | cut -f3' sh "$T/jobs.tsv"
	[ "$output" = "$(printf 'workload_key\nbob/cpu/?/tool-bench-#-#-#\nalice/gpu/gpu/s#e#\nbob/cpu/?/#\nalice/cpu/cpu/mid#_#\nbob/?/gpu/?')" ]
	run sh -c 'sp-group --rollup --sort recent "$1" 2>/dev/null | cut -f3' sh "$T/jobs.tsv"
	[ "$output" = "$(printf 'workload_key\nbob/cpu/?/#\nbob/cpu/?/tool-bench-#-#-#\nbob/?/gpu/?\nalice/cpu/cpu/mid#_#\nalice/gpu/gpu/s#e#')" ]
	run sh -c 'sp-group --rollup --sort runs "$1" 2>/dev/null | cut -f3' sh "$T/jobs.tsv"
	[ "$output" = "$(printf 'workload_key\nbob/cpu/?/#\nalice/gpu/gpu/s#e#\nbob/?/gpu/?\nalice/cpu/cpu/mid#_#\nbob/cpu/?/tool-bench-#-#-#')" ]
	run sh -c 'sp-group --rollup --sort name "$1" 2>/dev/null | cut -f3' sh "$T/jobs.tsv"
	[ "$output" = "$(printf 'workload_key\nbob/cpu/?/#\nbob/?/gpu/?\nalice/cpu/cpu/mid#_#\nalice/gpu/gpu/s#e#\nbob/cpu/?/tool-bench-#-#-#')" ]
}

@test "sp-group --rollup: a key already on the record is kept (merged by awk)" {
	run sh -c 'sp-group "$1" | awk -F "\t" -v OFS="\t" "NR > 1 && \$NF ~ /s#e#/ { \$NF = \"alice/gpu/gpu/sweep\" } 1" | sp-group --rollup 2>/dev/null | cut -f3,6,7' sh "$T/jobs.tsv"
	[ "${lines[1]}" = "$(printf 'alice/gpu/gpu/sweep\t2\t2')" ]
}

@test "sp-group --rollup: the same workload records from a split input" {
	sp-group "$T/jobs.tsv" >"$T/grouped.tsv"
	whole=$(sp-group --rollup "$T/grouped.tsv" 2>/dev/null | cut -f1-15,18-20 | sort)
	parts=$(for k in $(tail -n +2 "$T/grouped.tsv" | cut -f14 | sort -u); do
		awk -F '\t' -v k="$k" 'NR == 1 || $14 == k' "$T/grouped.tsv" |
		    sp-group --rollup 2>/dev/null | tail -n +2
	done | cut -f1-15,18-20 | sort)
	[ -n "$whole" ]
	[ "$(echo "$whole" | grep -v '^user')" = "$parts" ]
}

@test "sp-group: a split input streams to the same records" {
	sp-group "$T/jobs.tsv" | sort >"$T/whole"
	for f in 1 2 3 4 5 6 7 8; do
		awk -v n="$f" 'NR == 1 || NR == n + 1' "$T/jobs.tsv" | sp-group
	done | awk '!seen[$0]++' | sort >"$T/parts"
	cmp "$T/whole" "$T/parts"
}

@test "sp-group: --sort without --rollup, and an unknown key, are usage errors" {
	run --separate-stderr sp-group --sort cost "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: --sort orders the workloads of --rollup; add --rollup" ]
	run --separate-stderr sp-group --rollup --sort size "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: --sort: unknown key 'size' (cost, failures, rate, recent, runs or name)" ]
}

@test "sp-group --rollup --json: numbers are numbers, unknown is null" {
	run sh -c 'sp-group --rollup --json "$1" 2>/dev/null | grep "\"bob/cpu/?/#\""' sh "$T/jobs.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"runs":2'* ]]
	[[ "$output" == *'"gpu_h":null'* ]]
	[[ "$output" == *'"label":"20261102+1"'* ]]
}

# noop is sp-hang's rule: a NODE_FAIL that computed nothing is no hang;
# a run over five minutes without CPU time is unknown, not 0, and so are
# the counts it could change (issue 14, item 2).
@test "sp-group --rollup: noop counts judged hangs, unknown stays empty" {
	printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\ttotal_cpu_s\n1\tft\tu\tp\tNODE_FAIL\t1800\t0.5\n2\tft\tu\tp\tCOMPLETED\t1800\t900\n3\tnc\tu\tp\tCOMPLETED\t1800\t\n4\tnc\tu\tp\tCOMPLETED\t60\t\n5\tmix\tu\tp\tCOMPLETED\t1800\t\n6\tmix\tu\tp\tCANCELLED\t1800\t1\n' >"$T/noop.tsv"
	run --separate-stderr sh -c 'sp-group --rollup "$1" | cut -f2,7-12' sh "$T/noop.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' \
		'workload	runs	completed	failed	cancelled	noop	problems' \
		'ft	2	1	1	0	0	1' \
		'mix	2	1	0	1	1	1' \
		'nc	2	2	0	0		')" ]
	# A run that may have hung leaves its workload's problems and
	# severity unknown too; one that computed nothing with no state
	# recorded may be a hang or a kill, so its workload's noop is.
	run --separate-stderr sh -c 'sp-group --rollup "$1" | awk -F "\t" "\$2 == \"nc\" { print \$18 \"|\" }"' sh "$T/noop.tsv"
	[ "$output" = "|" ]
	printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\ttotal_cpu_s\n1\tst\tu\tp\tCOMPLETED\t1800\t900\n2\tst\tu\tp\t\t1800\t0.5\n' >"$T/stateless.tsv"
	run --separate-stderr sh -c 'sp-group --rollup "$1" | cut -f2,7-12,18' sh "$T/stateless.tsv"
	[ "${lines[1]}" = "$(printf 'st\t2\t\t\t\t\t\t')" ]
}

@test "sp-group --rollup: NODE_FAIL requeues are not noops (demo)" {
	run sh -c 'sp-fetch --demo | sp-group --rollup 2>/dev/null | awk -F "\t" "\$2 == \"finetune-vit-s#\" { print \$2, \$7, \$9, \$11, \$18 }"'
	[ "$status" -eq 0 ]
	[ "$output" = "finetune-vit-s# 17 5 0 warning" ]
}

@test "sp-group --rollup: the demo's workloads, as the article counts them" {
	run sh -c 'sp-fetch --demo | sp-group --rollup 2>/dev/null | awk -F "\t" "\$2 == \"att-speed-#\" || \$2 == \"reasoning-exp\" || \$2 == \"rc-tok-github_code\" { print \$2, \$6, \$7, \$9, \$11, \$18 }"'
	[ "$status" -eq 0 ]
	[[ "$output" == *"att-speed-# 7 7 0 0 ok"* ]]
	[[ "$output" == *"reasoning-exp 1 137 99 99 warning"* ]]
	[[ "$output" == *"rc-tok-github_code 1 10 8 0 critical"* ]]
}

@test "sp-group --rollup --by source: each session's workloads, the most compute first, the unknown last" {
	# The jobs above with a source each: two sessions, a log, none.
	awk -F'\t' 'BEGIN { OFS = "\t"; split("s1 s2 - log s2 s1 s1 -", src, " ") }
		NR == 1 { print $0, "source"; next }
		{ print $0, (src[NR - 1] == "-" ? "" : "claude-code:" src[NR - 1]) }' \
		"$T/jobs.tsv" | sed 's/claude-code:log/driver.log/' >"$T/src.tsv"
	run --separate-stderr sh -c 'sp-group --rollup --by source "$1" | cut -f1,3,8,16' sh "$T/src.tsv"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-group: left out 1 open record (never ended)" ]
	[ "$output" = "$(printf '%s\n' \
		'source	workload	runs	compute' \
		'claude-code:s1	s#e#	1	20' \
		'claude-code:s1	#	2	0.0555556' \
		'claude-code:s2	tool-bench-#-#-#	1	4' \
		'claude-code:s2	s#e#	1	3.333333' \
		'driver.log	?	1	3.777778' \
		'	mid#_#	1	0.0166667')" ]
	# The rows of a workload split this way add up to its own row.
	run --separate-stderr sh -c 'sp-group --rollup --by source "$1" | awk -F"\t" "NR > 1 && \$3 == \"s#e#\" { n += \$8 } END { print n }"' sh "$T/src.tsv"
	[ "$output" = 2 ]
	run --separate-stderr sp-group --rollup --by source "$T/jobs.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: $T/jobs.tsv: no column 'source' (pipe through sp-attr first)" ]
	run --separate-stderr sp-group --by source "$T/src.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: --by splits the workloads of --rollup; add --rollup" ]
}

@test "on a terminal: the columns a person reads, fitted, through the pager; --no-pager; --plain never paged" {
	sp-fetch --demo 2>/dev/null | sp-group >"$T/demo.tsv" 2>/dev/null
	# (the pager's "P:" makes a line of 80 wrap: -J joins it back)
	term_start 80 24 "SLURMPAST_PAGER='sed s/^/P:/;3q' sp-group --rollup '$T/demo.tsv' 2>/dev/null"
	term_wait_done
	term_screen -J
	[ "${lines[0]}" = "P:user   workload        partition  runs  failed  gpu_h   core_h   share  severity" ]
	[ "${lines[1]}" = "P:alice  train-web       gpu          22       1  4204.4  50452.7  16.8%  ok" ]
	[ "${#lines[@]}" -eq 3 ]
	# --no-pager: at once; a job's own columns and its workload, fitted
	term_start 80 24 "SLURMPAST_PAGER='sed s/^/P:/' sp-group --no-pager '$T/jobs.tsv' 2>/dev/null"
	term_wait_done
	term_screen
	[ "${lines[0]}" = "jobid  name                   user   partition  state      workload" ]
	[ "${lines[5]}" = "5      tool-bench-2026-03-15  bob    cpu        TIMEOUT    tool-bench-#-#-#" ]
	[ "$(printf '%s\n' "${lines[@]}" | widest_line)" -le 80 ]
	# --by's columns first, a column it names shown once; --plain asked
	# for is never paged
	term_start 80 24 "SLURMPAST_PAGER='sed s/^/P:/' sp-group --plain --rollup --by partition '$T/jobs.tsv' 2>/dev/null"
	term_wait_done
	term_screen
	[ "${lines[0]}" = "partition  user   workload          runs  failed  gpu_h  core_h  share  severity" ]
	[ "${lines[1]}" = "gpu        alice  s#e#                 2       1    1.2     4.7  74.8%  n/a" ]
	[ "${#lines[@]}" -eq 6 ]
	[ "$(printf '%s\n' "${lines[@]}" | widest_line)" -le 80 ]
	term_stop
	# into a pipe: the records, every column
	run --separate-stderr sp-group "$T/jobs.tsv"
	[ "${lines[0]}" = "$(printf 'jobid\tname\tuser\tpartition\talloc_gpus\textra\tstate\telapsed_s\talloc_cpus\ttotal_cpu_s\tstart\tend\tworkload\tworkload_key')" ]
}

#!/usr/bin/env bats
# sp-nodes: the node table of one workload on hand-written job records,
# --exclude, the metrics, the workload control, and every error path.

load lib/common
load lib/tmux

teardown() {
	term_stop
}

HDR='jobid\tuser\tpartition\tname\tworkload\tworkload_key\tstate\telapsed_s\ttotal_cpu_s\talloc_gpus\tnodelist\n'

# job NAME STATE CPU_S NODELIST [COUNT]: COUNT records of workload yz's NAME
job() {
	awk -v name="$1" -v state="$2" -v cpu="$3" -v nodes="$4" -v n="${5:-1}" 'BEGIN {
		for (i = 1; i <= n; i++)
			printf "%s\tyz\ttest\t%s\t%s\tyz/test/gpu/%s\t%s\t1826\t%s\t1\t%s\n",
			    i, name, name, name, state, cpu, nodes
	}'
}

# The reference's cot-exp: 12 hung timeouts on midway3-0385; on
# midway3-0602 two hung, six completed; and one run of another workload.
cot_exp() {
	printf "$HDR"
	job cot-exp TIMEOUT 0.5 midway3-0385 12
	job cot-exp TIMEOUT 0.5 midway3-0602 2
	job cot-exp COMPLETED 1780 midway3-0602 6
	job midtrain COMPLETED 19899 midway3-0600 1
}

setup() {
	cot_exp >"$BATS_TEST_TMPDIR/cot.tsv"
	COT="$BATS_TEST_TMPDIR/cot.tsv"
}

@test "sp-nodes: cot-exp, 12 of 12 hung against 2 of 8, is worse" {
	run --separate-stderr sp-nodes "$COT"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "$(printf 'user\tworkload\tworkload_key\tnode\ttrials\tbad\trate\tci_low\tci_high\tcomparison\tp\tverdict\tbad_gpu_h\tnote')" ]
	[ "${lines[1]}" = "$(printf 'yz\tcot-exp\tyz/test/gpu/cot-exp\tmidway3-0385\t12\t12\t1\t0.757506\t1\t0.25\t0.00144479\tworse\t6.086667\tp survives the correction for 1 tested row and the interval clears the comparison')" ]
	[ "${lines[2]}" = "$(printf 'yz\tcot-exp\tyz/test/gpu/cot-exp\tmidway3-0602\t8\t2\t0.25\t0.0714792\t0.590725\t1\t\tuntested\t1.014444\t8 placements; 10 needed for a test')" ]
}

@test "sp-nodes --exclude: the line to paste, under a comment saying for what" {
	run --separate-stderr sp-nodes --exclude "$COT"
	[ "$status" -eq 0 ]
	[ "$output" = "# cot-exp (yz): leave out midway3-0385, worse than the other machines for it
#SBATCH --exclude=midway3-0385" ]
	[ -z "$stderr" ]
}

@test "sp-nodes --plain: the workload, the table, the notes" {
	run --separate-stderr sp-nodes --plain "$COT"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	expected="workload yz/test/gpu/cot-exp, metric hang: 20 runs, 20 placements on 2 nodes; 14 runs computed nothing

node          trials  bad  rate    ci_low  ci_high  comparison  verdict
midway3-0385      12   12  100.0%   75.8%   100.0%       25.0%  worse
midway3-0602       8    2   25.0%    7.1%    59.1%      100.0%  untested

1 of 2 nodes tested, Benjamini-Hochberg at 5%; 1 untested (under 10 placements, or nothing to compare with)
worse than every other node: midway3-0385 (12 placements there computed nothing, holding 6.1 GPU-hours)
1 other workload not shown: --workload KEY picks one, --all-workloads pools them (confounded)"
	[ "$output" = "$expected" ]
}

@test "sp-nodes --json: one object per node, unknown as null" {
	run sp-nodes --json "$COT"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = '{"user":"yz","workload":"cot-exp","workload_key":"yz/test/gpu/cot-exp","node":"midway3-0602","trials":8,"bad":2,"rate":0.25,"ci_low":0.0714792,"ci_high":0.590725,"comparison":1,"p":null,"verdict":"untested","bad_gpu_h":1.014444,"note":"8 placements; 10 needed for a test"}' ]
}

@test "sp-nodes --workload: another workload, judged on its own" {
	run --separate-stderr sp-nodes --workload yz/test/gpu/midtrain "$COT"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[1]}" = "$(printf 'yz\tmidtrain\tyz/test/gpu/midtrain\tmidway3-0600\t1\t0\t0\t0\t0.793451\t\t\tuntested\t0\t1 placement; 10 needed for a test')" ]
	run --separate-stderr sp-nodes --exclude --workload yz/test/gpu/midtrain "$COT"
	[ "$output" = "# no --exclude: nothing to attribute to a node: no placement computed nothing" ]
}

@test "sp-nodes --all-workloads: pooled rows, and it says confounded" {
	run --separate-stderr sp-nodes --all-workloads "$COT"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-nodes: --all-workloads pools 2 workloads: the result is confounded by the work each node happened to run" ]
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[1]}" = "$(printf 'yz\t*\t*\tmidway3-0385\t12\t12\t1\t0.757506\t1\t0.222222\t0.000619195\tworse\t6.086667\tp survives the correction for 1 tested row and the interval clears the comparison')" ]
	[[ "${lines[3]}" == "$(printf 'yz\t*\t*\tmidway3-0600\t1\t0\t')"* ]]
	run --separate-stderr sp-nodes --all-workloads --plain "$COT"
	[ -z "$stderr" ]
	[ "${lines[$((${#lines[@]} - 1))]}" = "confounded: the rows pool 2 workloads, so a node that ran more of a failing one looks worse; drop --all-workloads to compare like with like" ]
}

@test "sp-nodes: two users pooled read '*' for the user" {
	{ cat "$COT"; printf '99\tbo\ttest\tx\tx\tbo/test/gpu/x\tCOMPLETED\t600\t500\t1\tn1\n'; } >"$BATS_TEST_TMPDIR/two.tsv"
	run --separate-stderr sp-nodes --all-workloads "$BATS_TEST_TMPDIR/two.tsv"
	[[ "${lines[1]}" == "$(printf '*\t*\t*\tmidway3-0385\t')"* ]]
}

@test "sp-nodes --metric failure: cancelled, OOM-killed and unknown-state runs leave" {
	{
		printf "$HDR"
		job ft FAILED 500 n1 10
		job ft CANCELLED 500 n1 30
		job ft OUT_OF_MEMORY 500 n1 30
		job ft COMPLETED 500 n2 10
		job ft PREEMPTED 500 n2 30
		job ft FOO 500 n2 30
	} >"$BATS_TEST_TMPDIR/f.tsv"
	run --separate-stderr sp-nodes --metric failure "$BATS_TEST_TMPDIR/f.tsv"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "$(printf 'yz\tft\tyz/test/gpu/ft\tn1\t10\t10\t1\t')"* ]]
	[[ "${lines[1]}" == *"$(printf '\tworse\t')"* ]]
	[[ "${lines[2]}" == "$(printf 'yz\tft\tyz/test/gpu/ft\tn2\t10\t0\t0\t')"* ]]
	[[ "${lines[2]}" == *"$(printf '\tbetter\t')"* ]]
	# under hang the states that explain an idle CPU are no hang
	run --separate-stderr sp-nodes --exclude "$BATS_TEST_TMPDIR/f.tsv"
	[ "$output" = "# no --exclude: nothing to attribute to a node: no placement computed nothing" ]
}

@test "sp-nodes --exclude --json: one JSON object, not the comment line" {
	run --separate-stderr sp-nodes --exclude --json "$COT"
	[ "$status" -eq 0 ]
	[ "$output" = '{"sbatch":"#SBATCH --exclude=midway3-0385","nodes":["midway3-0385"],"more":0}' ]
	run --separate-stderr sp-nodes --exclude --json --workload yz/test/gpu/midtrain "$COT"
	[ "$output" = '{"sbatch":null,"why":"nothing to attribute to a node: no placement computed nothing"}' ]
}

@test "sp-nodes: a NODE_FAIL that computed nothing is no hang" {
	{
		printf "$HDR"
		job ft NODE_FAIL 0.5 n1 12
		job ft COMPLETED 1780 n2 12
	} >"$BATS_TEST_TMPDIR/nf.tsv"
	run --separate-stderr sp-nodes --exclude "$BATS_TEST_TMPDIR/nf.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "# no --exclude: nothing to attribute to a node: no placement computed nothing" ]
}

# An XDMoD-style dump has no TotalCPU: no placement can be judged.
@test "sp-nodes: without CPU time every row is untested, and says why" {
	{
		printf "$HDR"
		job ft COMPLETED '' n1 12
		job ft TIMEOUT '' n2 12
	} >"$BATS_TEST_TMPDIR/nocpu.tsv"
	run --separate-stderr sp-nodes "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "$(printf 'yz\tft\tyz/test/gpu/ft\tn1\t0\t\t\t\t\t\t\tuntested\t\t12 placements, none judged: no CPU time recorded')" ]
	[ "${lines[2]}" = "$(printf 'yz\tft\tyz/test/gpu/ft\tn2\t0\t\t\t\t\t\t\tuntested\t\t12 placements, none judged: no CPU time recorded')" ]
	run --separate-stderr sp-nodes --plain "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "${lines[0]}" = "workload yz/test/gpu/ft, metric hang: 24 runs, 24 placements on 2 nodes, none judged: no CPU time recorded" ]
	run sp-nodes --exclude "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "$output" = "# no --exclude: the record has no CPU time (total_cpu_s) to judge hangs by: none of 24 runs could be judged" ]
	run sp-nodes --exclude --json "$BATS_TEST_TMPDIR/nocpu.tsv"
	[ "$output" = '{"sbatch":null,"why":"the record has no CPU time (total_cpu_s) to judge hangs by: none of 24 runs could be judged"}' ]
}

@test "sp-nodes: no usable record with a node list" {
	{
		printf "$HDR"
		job a COMPLETED 0.5 "None assigned" 3
		job a COMPLETED 0.5 "" 3
	} >"$BATS_TEST_TMPDIR/none.tsv"
	run --separate-stderr sp-nodes "$BATS_TEST_TMPDIR/none.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf "$HDR" | sed 's/^.*$/user\tworkload\tworkload_key\tnode\ttrials\tbad\trate\tci_low\tci_high\tcomparison\tp\tverdict\tbad_gpu_h\tnote/')" ]
	run sp-nodes --exclude "$BATS_TEST_TMPDIR/none.tsv"
	[ "$output" = "# no --exclude: no usable job record with a node list" ]
	run sp-nodes --plain "$BATS_TEST_TMPDIR/none.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "no usable job record with a node list" ]
}

@test "sp-nodes --exclude: every node too thin to test" {
	{
		printf "$HDR"
		job a TIMEOUT 0.5 n1 9
		job a COMPLETED 900 n2 4
	} >"$BATS_TEST_TMPDIR/thin.tsv"
	run sp-nodes --exclude "$BATS_TEST_TMPDIR/thin.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "# no --exclude: no node has the 10 placements a comparison needs (the most is 9)" ]
}

@test "sp-nodes --exclude: a uniform fleet has no worse node" {
	{
		printf "$HDR"
		for n in 1 2 3 4; do
			job a TIMEOUT 0.5 "n$n" 3
			job a COMPLETED 900 "n$n" 9
		done
	} >"$BATS_TEST_TMPDIR/flat.tsv"
	run sp-nodes --exclude "$BATS_TEST_TMPDIR/flat.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "# no --exclude: no node is worse than the rest after correcting for 4 tested rows" ]
}

@test "sp-nodes --exclude: at most 8 nodes, compressed, the rest counted" {
	# b01-b10: 10 of 10 hung each; g01-g40: none of 10
	{
		printf "$HDR"
		awk 'BEGIN {
			for (n = 1; n <= 50; n++)
				for (i = 0; i < 10; i++)
					printf "%d\tyz\ttest\ta\ta\tyz/test/gpu/a\t%s\t1826\t%s\t1\t%s%02d\n",
					    i, n <= 10 ? "TIMEOUT" : "COMPLETED",
					    n <= 10 ? 0.5 : 900, n <= 10 ? "b" : "g",
					    n <= 10 ? n : n - 10
		}'
	} >"$BATS_TEST_TMPDIR/many.tsv"
	run sp-nodes --exclude "$BATS_TEST_TMPDIR/many.tsv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# a (yz): leave out b01, b02, b03, b04, b05, b06, b07, b08, worse than the other machines for it" ]
	[ "${lines[1]}" = "#SBATCH --exclude=b[01-08]" ]
	[ "${lines[2]}" = "# 2 more worse nodes not listed (sp-nodes shows them all)" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "sp-nodes: a hostlist gives one placement per node, repeats once" {
	{
		printf "$HDR"
		job a TIMEOUT 0.5 "n[1-2],n1" 10
	} >"$BATS_TEST_TMPDIR/hl.tsv"
	run sp-nodes "$BATS_TEST_TMPDIR/hl.tsv"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "$(printf 'yz\ta\tyz/test/gpu/a\tn1\t10\t10\t')"* ]]
	[[ "${lines[2]}" == "$(printf 'yz\ta\tyz/test/gpu/a\tn2\t10\t10\t')"* ]]
}

@test "sp-nodes: steps and open records give no placement" {
	{
		printf 'jobid\tstep\topen\tuser\tpartition\tname\tworkload_key\tstate\telapsed_s\ttotal_cpu_s\tnodelist\n'
		printf '1\tbatch\t0\tyz\tp\ta\tk\tTIMEOUT\t900\t0\tn9\n'
		printf '2\t\t1\tyz\tp\ta\tk\tRUNNING\t900\t0\tn9\n'
		printf '3\t\t0\tyz\tp\ta\tk\tTIMEOUT\t900\t0\tn1\n'
	} >"$BATS_TEST_TMPDIR/st.tsv"
	run sp-nodes "$BATS_TEST_TMPDIR/st.tsv"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == "$(printf 'yz\ta\tk\tn1\t1\t1\t')"* ]]
}

@test "sp-nodes: a node list past the cap is counted in part, and said" {
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\tnodelist\tworkload_key\n1\tTIMEOUT\t900\t0\tn[1-99999999]\tk\n2\tTIMEOUT\t900\t0\tn1\tk\n3\tTIMEOUT\t900\t0\tu[1-2000]r[1-2000]\tk\n' >"$BATS_TEST_TMPDIR/cap.tsv"
	run --separate-stderr sh -c 'sp-nodes "$1" >"$1.out"' sh "$BATS_TEST_TMPDIR/cap.tsv"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-nodes: $BATS_TEST_TMPDIR/cap.tsv:2: node list past 65536 names: only the names that fit were counted
sp-nodes: 2 node lists in all were cut the same way" ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/cap.tsv.out")" -eq 131073 ]
	[[ "$(sed -n 2p "$BATS_TEST_TMPDIR/cap.tsv.out")" == "$(printf '\t?\tk\tn1\t2\t2\t')"* ]]
}

@test "sp-nodes --workload: the shard holding the workload gives the same table" {
	awk -F '\t' 'NR == 1 { print > (f "/a.tsv"); print > (f "/b.tsv"); next }
		{ print > (f ($6 == "yz/test/gpu/cot-exp" ? "/a.tsv" : "/b.tsv")) }' \
		f="$BATS_TEST_TMPDIR" "$COT"
	whole=$(sp-nodes --workload yz/test/gpu/cot-exp "$COT")
	part=$(sp-nodes --workload yz/test/gpu/cot-exp "$BATS_TEST_TMPDIR/a.tsv")
	[ "$(printf '%s\n' "$whole" | wc -l)" -eq 3 ]
	[ "$part" = "$whole" ]
}

@test "sp-nodes: without workload_key, pipe through sp-group" {
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\tnodelist\n1\tTIMEOUT\t900\t0\tn1\n' >"$BATS_TEST_TMPDIR/raw.tsv"
	run --separate-stderr sp-nodes "$BATS_TEST_TMPDIR/raw.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-nodes: $BATS_TEST_TMPDIR/raw.tsv: no column 'workload_key' (pipe through sp-group first)" ]
}

@test "sp-nodes: without nodelist, pipe through sp-fetch" {
	printf 'jobid\tstate\telapsed_s\ttotal_cpu_s\tworkload_key\n' >"$BATS_TEST_TMPDIR/raw.tsv"
	run --separate-stderr sp-nodes "$BATS_TEST_TMPDIR/raw.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: $BATS_TEST_TMPDIR/raw.tsv: no column 'nodelist' (pipe through sp-fetch first)" ]
}

@test "sp-nodes: a bad number names file and line" {
	{ cat "$COT"; printf '99\tyz\ttest\ta\ta\tk\tTIMEOUT\t1:00\t0\t1\tn1\n'; } >"$BATS_TEST_TMPDIR/bad.tsv"
	run --separate-stderr sp-nodes "$BATS_TEST_TMPDIR/bad.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: $BATS_TEST_TMPDIR/bad.tsv:23: field 'elapsed_s' is not a number: \"1:00\"" ]
}

@test "sp-nodes: usage errors are one line and exit 2" {
	run --separate-stderr sp-nodes --metric speed "$COT"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-nodes: --metric is hang or failure, not 'speed'" ]
	run --separate-stderr sp-nodes --workload x --all-workloads "$COT"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: --workload and --all-workloads exclude each other" ]
	run --separate-stderr sp-nodes --workload
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: option '--workload' needs a value" ]
	run --separate-stderr sp-nodes --bogus
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: unknown option '--bogus' (see sp-nodes --help)" ]
}

@test "sp-nodes --workload: a workload without placements is an error" {
	run --separate-stderr sp-nodes --workload yz/test/gpu/nope "$COT"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-nodes: no placements of workload 'yz/test/gpu/nope' in the input (under --metric hang)" ]
}

@test "sp-nodes: a missing file is one line and exit 2" {
	run --separate-stderr sp-nodes "$BATS_TEST_TMPDIR/absent.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: $BATS_TEST_TMPDIR/absent.tsv: No such file or directory" ]
}

@test "sp-nodes: writing to /dev/full fails with exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run --separate-stderr sh -c 'sp-nodes "$1" >/dev/full' sh "$COT"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: <stdout>: No space left on device" ]
	run --separate-stderr sh -c 'sp-nodes --exclude "$1" >/dev/full' sh "$COT"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-nodes: <stdout>: No space left on device" ]
}

# ------------------------------------------------------------- the demo

demo_records() {
	command -v sp-group >/dev/null || skip "sp-group is not built yet"
	sp-fetch --demo | sp-group >"$BATS_TEST_TMPDIR/demo.tsv"
	DEMO=$BATS_TEST_TMPDIR/demo.tsv
}

# verdicts VERDICT: the nodes with that verdict, in table order
verdicts() {
	awk -F '\t' -v v="$1" 'NR > 1 && $12 == v { printf "%s ", $4 }' "$BATS_TEST_TMPDIR/nodes.tsv"
}

@test "demo: rollout-gen, three worse nodes, the big node better (figure 11)" {
	demo_records
	sp-nodes "$DEMO" >"$BATS_TEST_TMPDIR/nodes.tsv"
	[ "$(awk -F '\t' 'NR > 1 { print $3 }' "$BATS_TEST_TMPDIR/nodes.tsv" | sort -u)" = "alice/gpu/gpu/rollout-gen" ]
	[ "$(awk -F '\t' 'NR > 1 { n += $5 } END { print n }' "$BATS_TEST_TMPDIR/nodes.tsv")" -eq 1098 ]
	[ "$(verdicts worse)" = "g003 g011 g017 " ]
	[ "$(verdicts better)" = "g041 " ]
	[ "$(verdicts untested)" = "g019 g016 g014 g013 g015 g018 g020 g021 " ]
	[ "$(verdicts inconclusive)" = "g005 g012 g009 g008 g007 g002 g001 " ]
	# g041 ran 403 of the 1,098 and is compared without them: 97 of 695
	[ "$(awk -F '\t' '$4 == "g041" { print $5, $6, $10 }' "$BATS_TEST_TMPDIR/nodes.tsv")" = "403 8 0.139568" ]
	grep -q "$(printf '\tg005\t69\t12\t.*\tinconclusive\t[0-9.]*\theld back: the interval clears the comparison, but p does not survive the correction for 11 tested rows$')" "$BATS_TEST_TMPDIR/nodes.tsv"
}

@test "demo --plain: the notes name the nodes and what they cost" {
	demo_records
	run --separate-stderr sp-nodes --plain "$DEMO"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "workload alice/gpu/gpu/rollout-gen, metric hang: 1098 runs, 1098 placements on 19 nodes; 105 runs computed nothing" ]
	[[ "$output" == *"
11 of 19 nodes tested, Benjamini-Hochberg at 5%; 8 untested (under 10 placements, or nothing to compare with)
worse than every other node: g003, g011 and g017 (45 placements there computed nothing, holding 689.0 GPU-hours)
better than every other node: g041
held back: g005 (1 interval stands out on its own, not after the correction: with many rows, about one in twenty does by chance)
"* ]]
}

@test "demo --exclude: the three worse nodes, compressed" {
	demo_records
	run --separate-stderr sp-nodes --exclude "$DEMO"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "#SBATCH --exclude=g[003,011,017]" ]
	[ -z "$stderr" ]
}

@test "demo: cot-exp, 12 of 12 hung on g027 against 2 of 8 on g031" {
	demo_records
	run sp-nodes --workload alice/gpu/gpu/cot-exp "$DEMO"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "$(printf 'alice\tcot-exp\talice/gpu/gpu/cot-exp\tg027\t12\t12\t1\t0.757506\t1\t0.25\t0.00144479\tworse\t')"* ]]
	[[ "${lines[2]}" == "$(printf 'alice\tcot-exp\talice/gpu/gpu/cot-exp\tg031\t8\t2\t0.25\t')"*"$(printf '\tuntested\t')"* ]]
}

@test "demo --all-workloads: pooling changes the answer and says so" {
	demo_records
	run --separate-stderr sp-nodes --all-workloads --exclude "$DEMO"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "sp-nodes: --all-workloads pools "*" workloads: the result is confounded by the work each node happened to run" ]]
}

@test "--exclude over pooled workloads: confounded, no line to paste" {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/demo.tsv"
	run --separate-stderr sp-nodes --exclude --all-workloads --metric failure \
		"$BATS_TEST_TMPDIR/demo.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "# not to paste: the rows pool 465 workloads (confounded), so a node that ran more of a failing one looks worse; drop --all-workloads to compare like with like: --exclude="* ]]
	[[ "$output" != *"#SBATCH"* ]]
	run --separate-stderr sp-nodes --exclude --all-workloads --metric failure \
		--json "$BATS_TEST_TMPDIR/demo.tsv"
	[ "$(jq -r .sbatch <<<"$output")" = null ]
	[ "$(jq -r .why <<<"$output")" = "the rows pool 465 workloads: confounded" ]
	# one workload's table is no pool: its line stands
	run --separate-stderr sp-nodes --exclude "$BATS_TEST_TMPDIR/demo.tsv"
	[ "${lines[1]}" = "#SBATCH --exclude=g[003,011,017]" ]
}

@test "sp-nodes(1)'s example: the demo's exclude line, as the program prints it" {
	page=$SP_TOP/man1/sp-nodes.1
	awk '/^\$ sp-fetch --demo \| sp-group \| sp-nodes --exclude$/ { f = 1; next }
		f && /^\.Ed$/ { exit } f' "$page" >"$BATS_TEST_TMPDIR/want"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -ge 2 ]
	sp-fetch --demo 2>/dev/null | sp-group | sp-nodes --exclude >"$BATS_TEST_TMPDIR/got"
	diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "on a terminal: the table a person reads, fitted, through the pager; --no-pager; --plain never paged" {
	demo_records 2>/dev/null
	# (the pager's "P:" makes a line of 80 wrap: -J joins it back)
	term_start 80 24 "SLURMPAST_PAGER='sed s/^/P:/;5q' sp-nodes '$DEMO' 2>/dev/null"
	term_wait_done
	term_screen -J
	[ "${lines[3]}" = 'P:node  trials  bad  rate   ci_low  ci_high  comparison  verdict' ]
	[ "${lines[4]}" = 'P:g003      52   16  30.8%   19.9%    44.3%        8.5%  worse' ]
	[ "${#lines[@]}" -eq 5 ]
	# --no-pager: at once, no line wider than the window
	term_start 80 40 "SLURMPAST_PAGER='sed s/^/P:/' sp-nodes --no-pager '$DEMO' 2>/dev/null"
	term_wait_done
	term_screen
	[ "${lines[0]}" = "workload alice/gpu/gpu/rollout-gen, metric hang: 1098 runs, 1098 placements on" ]
	[ "${lines[3]}" = "node  trials  bad  rate   ci_low  ci_high  comparison  verdict" ]
	[ "$(printf '%s\n' "${lines[@]}" | widest_line)" -le 80 ]
	# --plain asked for: text as it comes, never paged
	term_start 80 40 "SLURMPAST_PAGER='sed s/^/P:/' sp-nodes --plain '$DEMO' 2>/dev/null"
	term_wait_done
	term_screen
	[ "${lines[3]}" = "node  trials  bad  rate   ci_low  ci_high  comparison  verdict" ]
	term_stop
	# into a pipe: the records, every column
	run --separate-stderr sp-nodes "$DEMO"
	[[ "${lines[0]}" == $'user\tworkload\tworkload_key\tnode\t'*$'\tp\tverdict\tbad_gpu_h\tnote' ]]
}

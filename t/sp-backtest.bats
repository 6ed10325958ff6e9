#!/usr/bin/env bats
# sp-backtest: the advice replayed out of sample, on hand-made histories
# whose answer is known, and the records it refuses to guess about.

load lib/common

COLS='jobid\tuser\tpartition\tname\tstate\tsubmit\tstart\tend\telapsed_s\ttimelimit_s\ttotal_cpu_s\talloc_cpus\tmem_limit_node_b\tmax_rss_b\tworkload_key\n'

# slow: four completed runs of ten minutes, then one twenty times longer
# (still inside its own limit).  big: four runs peaking at 2 GiB of a 4G
# limit, then one killed for memory at 1G.  Each run ends before the
# next is submitted.
history() {
	printf "$COLS"
	for i in 1 2 3 4; do
		printf "10$i\tu\tp\tslow\tCOMPLETED\t2026-01-0${i}T00:00:00\t2026-01-0${i}T00:00:00\t2026-01-0${i}T00:10:00\t600\t3600\t590\t1\t4294967296\t1073741824\tu/p/cpu/slow\n"
	done
	printf "105\tu\tp\tslow\tCOMPLETED\t2026-01-05T00:00:00\t2026-01-05T00:00:00\t2026-01-05T03:20:00\t12000\t14400\t11900\t1\t4294967296\t1073741824\tu/p/cpu/slow\n"
	for i in 1 2 3 4; do
		printf "20$i\tu\tp\tbig\tCOMPLETED\t2026-01-0${i}T00:00:00\t2026-01-0${i}T00:00:00\t2026-01-0${i}T01:00:00\t3600\t7200\t3500\t1\t4294967296\t2147483648\tu/p/cpu/big\n"
	done
	printf "205\tu\tp\tbig\tOUT_OF_MEMORY\t2026-01-05T00:00:00\t2026-01-05T00:00:00\t2026-01-05T00:05:00\t300\t7200\t290\t1\t1073741824\t1073741824\tu/p/cpu/big\n"
}

setup() {
	export SLURMPAST_NO_SITE=1
	IN="$BATS_TEST_TMPDIR/jobs.tsv"
	history >"$IN"
}

# The columns of one workload's row for a flag and policy, from judged on.
row() {
	awk -F '\t' -v k="$1" -v f="$2" -v p="$3" \
		'$1 == k && $2 == f && $3 == p { print $5, $6, $7, $8, $9 }'
}

@test "sp-backtest: a run 20x longer than its 4 predecessors is one cut_off" {
	run --separate-stderr sp-backtest --time "$IN"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "$(printf 'workload_key\tflag\tpolicy\truns_before\tjudged\tcut_off\tkilled_again\tgiven_room\tno_figure\toverask\tunused_gib_h')" ]
	# The fourth run (3 before) fits; the fifth (4 before) is cut off
	# by the advice and by the rule, never by its own request.
	[ "$(printf '%s\n' "$output" | row u/p/cpu/slow --time advice)" = "2 1 0 0 0" ]
	[ "$(printf '%s\n' "$output" | row u/p/cpu/slow --time requested)" = "2 0 0 0 0" ]
	[ "$(printf '%s\n' "$output" | row u/p/cpu/slow --time rule)" = "2 1 0 0 0" ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "u/p/cpu/slow" { print $4 }' | sort -u)" = 4 ]
}

@test "sp-backtest: a run killed at 1G after peaks of 2 GiB is one given_room" {
	run --separate-stderr sp-backtest --mem "$IN"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | row u/p/cpu/big --mem advice)" = "2 0 0 1 0" ]
	# Its own request killed it: killed again.  The rule's 2.6 GiB is
	# room too.
	[ "$(printf '%s\n' "$output" | row u/p/cpu/big --mem requested)" = "2 0 1 0 0" ]
	[ "$(printf '%s\n' "$output" | row u/p/cpu/big --mem rule)" = "2 0 0 1 0" ]
	# The run killed for memory says nothing about --time.
	[ "$(printf '%s\n' "$output" | grep -c -e '--time')" -eq 0 ]
}

@test "sp-backtest: the memory reserved and never used, and the overask" {
	run --separate-stderr sp-backtest --mem "$IN"
	[ "$status" -eq 0 ]
	# slow peaked at 1 GiB for 10 and 200 minutes: the request (4G)
	# left 3 GiB unused for 3.5 hours; the rule's 1.3 GiB, 0.3.
	printf '%s\n' "$output" | grep -q "$(printf '^u/p/cpu/slow\t--mem\trequested\t4\t2\t0\t0\t0\t0\t4\t10.5$')"
	printf '%s\n' "$output" | grep -q "$(printf '^u/p/cpu/slow\t--mem\trule\t4\t2\t0\t0\t0\t0\t1.3\t1.05$')"
}

@test "sp-backtest --summary: one record per flag, policy and evidence level" {
	run --separate-stderr sp-backtest --summary --time "$IN"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 16 ]
	[ "${lines[0]}" = "$(printf 'flag\tpolicy\truns_before\tworkloads\tjudged\tcut_off\tkilled_again\tgiven_room\tno_figure\toverask\tunused_gib_h')" ]
	# Two runs judged from 3 runs before (the fourth of slow and of big),
	# one from 4 (slow's fifth; big's kill is no --time run); the
	# workloads each level rests on, then the runs and the cut-offs.
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$2 == "advice" { print $3, $4, $5, $6 }' | tr '\n' ,)" = "3 2 2 0,4-5 1 1 1,6-10 0 0 0,11+ 0 0 0,all 2 3 1," ]
	# Nothing judged: no overask, not a zero one.
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$2 == "advice" && $3 == "6-10" { print "[" $10 "]" }')" = "[]" ]
}

@test "sp-backtest --headline: the report's one line, from the all rows" {
	run --separate-stderr sp-backtest --headline "$IN"
	[ "$status" -eq 0 ]
	# Judged from the fourth runs on (submitted 2026-01-04); big's kill
	# at its own 1G is the one kill, and the advice's 2.6 GiB gave it
	# room; slow's fifth run is the one cut off; the requests' 12.5
	# GiB-hours unused less the advice's 5.5.
	[ "$output" = "Had the advice been followed since 2026-01-04: 1 of 1 kills avoided, 1 run cut off, 7 GiB-hours not reserved" ]
	# --time alone reserves no memory: n/a, not 0
	run --separate-stderr sp-backtest --headline --time "$IN"
	[ "$output" = "Had the advice been followed since 2026-01-04: 0 of 0 kills avoided, 1 run cut off, n/a GiB-hours not reserved" ]
	# nothing judged: n/a
	head -n 4 "$IN" >"$BATS_TEST_TMPDIR/three.tsv"
	run --separate-stderr sp-backtest --headline "$BATS_TEST_TMPDIR/three.tsv"
	[ "$output" = "Had the advice been followed: n/a (no run had 3 earlier runs of its workload to judge it on)" ]
	run --separate-stderr sp-backtest --headline --json "$IN"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-backtest: --headline is one line of text: no --summary, --tsv, --plain, --json or --csv" ]
}

@test "sp-backtest --json: numbers, and null where nothing was reserved" {
	run --separate-stderr sp-backtest --json --time "$IN"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q '"workload_key":"u/p/cpu/slow","flag":"--time","policy":"advice","runs_before":4,"judged":2,"cut_off":1,'
	printf '%s\n' "$output" | grep -q '"unused_gib_h":null'
}

@test "sp-backtest: what it cannot judge is said once and counted" {
	{
		printf 'jobid\tstate\tsubmit\tend\telapsed_s\ttimelimit_s\ttotal_cpu_s\tworkload_key\topen\n'
		printf '1\tCOMPLETED\t2026-01-01T00:00:00\t2026-01-01T00:10:00\t600\t3600\t590\t\t0\n'
		printf '2\tCOMPLETED\t\t2026-01-01T00:10:00\t600\t3600\t590\tu/p/cpu/x\t0\n'
		printf '3\tWEIRD\t2026-01-01T00:00:00\t2026-01-01T00:10:00\t600\t3600\t590\tu/p/cpu/x\t0\n'
		printf '4\tODD\t2026-01-01T00:00:00\t2026-01-01T00:10:00\t600\t3600\t590\tu/p/cpu/x\t0\n'
		printf '5\tCOMPLETED\t2026-01-01T00:00:00\t2026-01-01T00:10:00\t600\t3600\t590\tu/p/cpu/x\t0\n'
		printf '6\tRUNNING\t2026-01-01T00:00:00\t\t600\t3600\t590\tu/p/cpu/x\t1\n'
	} >"$IN"
	run --separate-stderr sp-backtest --time "$IN"
	[ "$status" -eq 0 ]
	# The one run left has nothing to judge: its records say none.
	[ "${lines[1]}" = "$(printf 'u/p/cpu/x\t--time\tadvice\t\t0\t0\t0\t0\t0\t\t')" ]
	[ "${#lines[@]}" -eq 4 ]
	expected="sp-backtest: left out 1 open record (never ended)
sp-backtest: left out 1 record with no workload_key
sp-backtest: left out 2 records in a state the replay does not know (the first: 'WEIRD')
sp-backtest: left out 1 record with no submit time"
	[ "$stderr" = "$expected" ]
	# --summary: in no level's workloads.
	run --separate-stderr sp-backtest --summary --time "$IN"
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$3 == "all" { print $4, $5 }' | sort -u)" = "0 0" ]
}

@test "sp-backtest: runs that had not ended when it was submitted are not its evidence" {
	# The same five slow runs, all submitted at once (an array): none
	# had ended before another was submitted, so nothing is judged.
	history | awk -F '\t' -v OFS='\t' 'NR > 1 { $6 = "2026-01-01T00:00:00" } 1' >"$IN"
	run --separate-stderr sp-backtest --time "$IN"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | row u/p/cpu/slow --time advice)" = "0 0 0 0 0" ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "u/p/cpu/slow" { print "[" $4 "]" }' | sort -u)" = "[]" ]
}

@test "sp-backtest: no workload_key column is a usage error naming sp-group" {
	history | cut -f1-14 >"$IN"
	run --separate-stderr sp-backtest "$IN"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-backtest: $IN: no column 'workload_key' (pipe through sp-group first)" ]
}

@test "sp-backtest: --help lists every option; a bad one is exit 2" {
	run sp-backtest --help
	[ "$status" -eq 0 ]
	for o in --summary --time --mem --tsv --plain --json --csv --version; do
		[[ "$output" == *"$o"* ]]
	done
	run --separate-stderr sp-backtest --bogus
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-backtest: unknown option '--bogus' (see sp-backtest --help)" ]
}

@test "sp-backtest: the same records from an input split by workload_key" {
	key=15
	sp-backtest "$IN" >"$BATS_TEST_TMPDIR/whole"
	for w in slow big; do
		awk -F '\t' -v k="$key" -v w="u/p/cpu/$w" 'NR == 1 || $k == w' "$IN" |
			sp-backtest | tail -n +2
	done >"$BATS_TEST_TMPDIR/parts"
	tail -n +2 "$BATS_TEST_TMPDIR/whole" | cmp - "$BATS_TEST_TMPDIR/parts"
}

@test "t/bench/history: one seed, the same records; the replay's policies as issue 31 reads them" {
	gen=$SP_BUILD/t/history
	[ -x "$gen" ] || skip "build/t/history not built (make units)"
	"$gen" --seed 7 --jobs 3000 >"$BATS_TEST_TMPDIR/a"
	"$gen" --seed 7 --jobs 3000 | cmp - "$BATS_TEST_TMPDIR/a"
	! "$gen" --seed 8 --jobs 3000 | cmp -s - "$BATS_TEST_TMPDIR/a"
	# --jobs is reached, the submission in hand finished (an array whole)
	[ "$(wc -l <"$BATS_TEST_TMPDIR/a")" -ge 3001 ]
	sp-group "$BATS_TEST_TMPDIR/a" | sp-backtest --summary >"$BATS_TEST_TMPDIR/s"
	all() { awk -F '\t' -v f="$1" -v p="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == f && $2 == p && $3 == "all" { print $k[c] }' "$BATS_TEST_TMPDIR/s"; }
	for f in --time --mem; do
		# A run's own request never cut it off, and gave no room.
		[ "$(all $f requested cut_off)" -eq 0 ]
		[ "$(all $f requested given_room)" -eq 0 ]
		# The advice kills again no more often than the users did.
		[ "$(all $f advice killed_again)" -le "$(all $f requested killed_again)" ]
		[ "$(all $f advice judged)" -gt 2000 ]
	done
}

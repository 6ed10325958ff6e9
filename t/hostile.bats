#!/usr/bin/env bats
# Hostile and broken input (issue 10): every shape of text a user, a
# scheduler or an attacker can hand the filters.  The promise each test
# checks: never a crash, never a silent partial result, one clear line and
# the documented exit status.  Bounds on time and memory are generous
# (timeout, ulimit -v): the assertion is that the program ends, not how
# fast.  A program not built yet is skipped by name.

load lib/common

STAGES="sp-group sp-select sp-size sp-backtest sp-hang sp-nodes sp-show"

need() {
	local p
	for p in "$@"; do
		[ -x "$SP_BIN/$p" ] || skip "$p not built yet"
	done
}

# A few job records by hand: the columns sp-group reads, nothing else.
small_jobs() {
	printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\talloc_gpus\n'
	printf '1\ttrain1\talice\tgpu\tCOMPLETED\t100\t1\n'
	printf '2\ttrain2\talice\tgpu\tFAILED\t200\t1\n'
	printf '3\tprep\tbob\tcpu\tCOMPLETED\t50\t0\n'
}

# Job records from the demo, and the same grouped: real input for every
# stage.  Made once per file; the first 400 records are enough to reach
# every stage's code and keep sp-show (which draws each job) quick.
setup_file() {
	local d=$BATS_FILE_TMPDIR
	export JOBS=$d/jobs.tsv GROUPED=$d/grouped.tsv
	if [ -x "$SP_BIN/sp-fetch" ]; then
		{ "$SP_BIN/sp-fetch" --demo 2>/dev/null | head -401; } \
			>"$JOBS" || rm -f "$JOBS"
	fi
	if [ -s "$JOBS" ] && [ -x "$SP_BIN/sp-group" ]; then
		"$SP_BIN/sp-group" "$JOBS" >"$GROUPED" 2>/dev/null ||
			rm -f "$GROUPED"
	fi
}

need_jobs() {
	need sp-fetch
	[ -s "$JOBS" ] || skip "sp-fetch --demo gives no records yet"
}

need_grouped() {
	need_jobs
	need sp-group
	[ -s "$GROUPED" ] || skip "sp-group gives no records yet"
}

# The input a stage reads: grouped records for the stages after sp-group.
input_for() {
	case $1 in
	sp-size|sp-backtest|sp-nodes) echo "$GROUPED" ;;
	*) echo "$JOBS" ;;
	esac
}

# Sets column COL of data row ROW (1 = first record) of a TSV to VALUE
# (raw bytes, already in record form); prints the file.  The value may be
# megabytes: it goes through a file, never an argument or the environment.
set_field() {
	printf '%s' "$4" >"$BATS_TEST_TMPDIR/value"
	set_field_from "$1" "$2" "$3" "$BATS_TEST_TMPDIR/value" $'\t'
}

# The same with the value in a file and any one-byte separator.
set_field_from() {
	local file=$1 col=$2 row=$3 value=$4 sep=$5 at line
	at=$(head -1 "$file" | tr "$sep" '\n' | grep -nx -- "$col" | cut -d: -f1)
	[ -n "$at" ] || { echo "no column $col in $file" >&2; return 1; }
	line=$((row + 1))
	head -n "$((line - 1))" "$file"
	sed -n "${line}p" "$file" >"$BATS_TEST_TMPDIR/row"
	if [ "$at" -gt 1 ]; then
		cut -d "$sep" -f "1-$((at - 1))" "$BATS_TEST_TMPDIR/row" |
			tr -d '\n'
		printf '%s' "$sep"
	fi
	cat "$value"
	if [ "$(head -1 "$file" | tr "$sep" '\n' | wc -l)" -gt "$at" ]; then
		printf '%s' "$sep"
		cut -d "$sep" -f "$((at + 1))-" "$BATS_TEST_TMPDIR/row"
	else
		echo
	fi
	tail -n "+$((line + 1))" "$file"
}

# The number of records in a TSV text on stdin: lines that are neither
# empty nor sp-fetch's header.
records_in() {
	grep -cv -e '^jobid' -e '^$' || true
}

# A column of a TSV by name, one value a line (records only).
column() {
	awk -F'\t' -v col="$1" 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == col) at = i; next } { print $at }' "$2"
}

# ------------------------------------------------------------ the reader

@test "a line of 10 MB passes through sp-group whole" {
	need sp-group
	local big=$BATS_TEST_TMPDIR/big.tsv
	head -c 10485760 /dev/zero | tr '\0' x >"$BATS_TEST_TMPDIR/name"
	small_jobs >"$big"
	set_field_from "$big" name 1 "$BATS_TEST_TMPDIR/name" $'\t' >"$big.2"
	run --separate-stderr timeout 120 sp-group "$big.2"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	sp-group "$big.2" >"$BATS_TEST_TMPDIR/out"
	[ "$(column name "$BATS_TEST_TMPDIR/out" | head -1 | wc -c)" \
		-eq 10485761 ]
	[ "$(column workload "$BATS_TEST_TMPDIR/out" | head -1 | wc -c)" \
		-eq 10485761 ]
}

@test "a sacct row of 10 MB is read by sp-fetch --input" {
	need sp-fetch
	need_fixtures
	local dump=$BATS_TEST_TMPDIR/big.txt
	head -c 10485760 /dev/zero | tr '\0' y >"$BATS_TEST_TMPDIR/name"
	set_field_from "$FIXTURES/slurm2sql/test-data1.txt" JobName 1 \
		"$BATS_TEST_TMPDIR/name" '|' >"$dump"
	run --separate-stderr timeout 120 sp-fetch --input "$dump"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	[ "$(column name "$BATS_TEST_TMPDIR/out" | head -1 | wc -c)" \
		-eq 10485761 ]
}

@test "a million columns pass through sp-group" {
	need sp-group
	local wide=$BATS_TEST_TMPDIR/wide.tsv
	seq 1000000 | sed 's/^/c/' | paste -sd '\t' >"$wide.cols"
	head -c 999999 /dev/zero | tr '\0' '\t' >"$wide.empty"
	small_jobs | while IFS= read -r line; do
		printf '%s\t' "$line"
		if [[ $line == jobid* ]]; then cat "$wide.cols"
		else cat "$wide.empty"; echo; fi
	done >"$wide"
	run --separate-stderr timeout 300 sp-group "$wide"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# Every input column, then workload and workload_key, on every line.
	run awk -F'\t' '{ print NF }' <<<"$output"
	[ "${#lines[@]}" -eq 4 ]
	for n in "${lines[@]}"; do [ "$n" -eq 1000009 ]; done
}

@test "a header repeated mid-stream (cat a b) is skipped, not a record" {
	need sp-group
	small_jobs >"$BATS_TEST_TMPDIR/a.tsv"
	run --separate-stderr sh -c \
		'cat "$1" "$1" | sp-group' _ "$BATS_TEST_TMPDIR/a.tsv"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 7 ]
	[ "$(grep -c '^jobid' <<<"$output")" -eq 1 ]
}

@test "a header repeated mid-stream is skipped by every stage" {
	need_grouped
	for p in $STAGES; do
		need "$p"
		local in
		in=$(input_for "$p")
		run --separate-stderr sh -c 'cat "$2" "$2" | "$1"' _ "$p" "$in"
		# sp-show exits 1 on a critical finding; that is no error.
		[ "$status" -le 1 ] || { echo "$p: $status $stderr"; return 1; }
		[ "$p" = sp-show ] && continue
		# The input's header never comes out as a record.
		[ "$(grep -cxF "$(head -1 "$in")" <<<"$output")" -le 1 ] ||
			{ echo "$p: the header came out twice"; return 1; }
	done
}

@test "a NUL byte is bad input with its line, exit 2" {
	need sp-group
	{ small_jobs; printf '4\tna\0me\talice\tgpu\tFAILED\t1\t1\n'; } \
		>"$BATS_TEST_TMPDIR/nul.tsv"
	run --separate-stderr sp-group "$BATS_TEST_TMPDIR/nul.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: $BATS_TEST_TMPDIR/nul.tsv:5: NUL byte in the input (binary data?)" ]
}

@test "a NUL byte in a sacct dump never reaches the job records" {
	need sp-fetch sp-group
	need_fixtures
	local dump=$BATS_TEST_TMPDIR/nul.txt
	printf 'spaw\0ner' >"$BATS_TEST_TMPDIR/name"
	set_field_from "$FIXTURES/slurm2sql/test-data1.txt" JobName 1 \
		"$BATS_TEST_TMPDIR/name" '|' >"$dump"
	local st=0
	sp-fetch --input "$dump" >"$BATS_TEST_TMPDIR/out" \
		2>"$BATS_TEST_TMPDIR/err" || st=$?
	# Refused with its place (2), or the row dropped and counted (0):
	# never silent, and never a record the next stage refuses.
	[ "$st" -eq 0 ] || [ "$st" -eq 2 ]
	grep -q '^sp-fetch: ' "$BATS_TEST_TMPDIR/err"
	run --separate-stderr sp-group "$BATS_TEST_TMPDIR/out"
	echo "$stderr"
	[ "$status" -eq 0 ]
}

@test "invalid UTF-8 passes through TSV untouched, shown escaped in --plain" {
	need sp-group
	local bad=$BATS_TEST_TMPDIR/bad.tsv
	small_jobs >"$bad"
	set_field "$bad" name 2 $'tr\xff\xfe\xc0\xafain' >"$bad.2"
	run --separate-stderr sp-group "$bad.2"
	[ "$status" -eq 0 ]
	sp-group "$bad.2" >"$BATS_TEST_TMPDIR/out"
	[ "$(column name "$BATS_TEST_TMPDIR/out" | sed -n 2p)" = \
		$'tr\xff\xfe\xc0\xafain' ]
	run --separate-stderr sp-group --plain "$bad.2"
	[ "$status" -eq 0 ]
	[[ "$output" == *'tr\xff\xfe\xc0\xafain'* ]]
	run --separate-stderr sp-group --json "$bad.2"
	[ "$status" -eq 0 ]
	jq -e . >/dev/null <<<"$output"
	[[ "$output" == *'"name":"tr\ufffd\ufffd\ufffd\ufffdain"'* ]]
}

@test "a field of only backslashes survives every format" {
	need sp-group
	local f=$BATS_TEST_TMPDIR/bs.tsv
	small_jobs >"$f"
	# Record form: eight backslashes stand for four.
	set_field "$f" name 1 '\\\\\\\\' >"$f.2"
	sp-group "$f.2" >"$BATS_TEST_TMPDIR/out"
	[ "$(column name "$BATS_TEST_TMPDIR/out" | head -1)" = '\\\\\\\\' ]
	run --separate-stderr sp-group --json "$f.2"
	[ "$status" -eq 0 ]
	[ "$(jq -r 'select(.jobid == "1") | .name' <<<"$output")" = '\\\\' ]
	run --separate-stderr sp-group --csv "$f.2"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == *'"\\\\"'* ]]
	# An odd count: a lone backslash at the end of a field is kept.
	set_field "$f" name 1 '\\\' >"$f.3"
	run --separate-stderr sp-group --json "$f.3"
	[ "$status" -eq 0 ]
	[ "$(jq -r 'select(.jobid == "1") | .name' <<<"$output")" = '\\' ]
}

@test "a missing final newline loses no record" {
	need sp-group
	small_jobs | head -c -1 >"$BATS_TEST_TMPDIR/nonl.tsv"
	run --separate-stderr sp-group "$BATS_TEST_TMPDIR/nonl.tsv"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[3]}" == 3$'\t'prep$'\t'* ]]
}

@test "a missing final newline in a sacct dump loses no row" {
	need sp-fetch
	need_fixtures
	local f=$FIXTURES/slurm2sql/test-data1.txt
	head -c -1 "$f" >"$BATS_TEST_TMPDIR/nonl.txt"
	run --separate-stderr sp-fetch --input "$f"
	[ "$status" -eq 0 ]
	local want=$output
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/nonl.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
}

@test "empty input: every stage says so in one line, exit 2" {
	for p in $STAGES; do
		[ -x "$SP_BIN/$p" ] || continue
		run --separate-stderr "$p" </dev/null
		[ "$status" -eq 2 ] || { echo "$p: status $status"; return 1; }
		[ "$stderr" = "$p: <stdin>: no header line (empty input)" ] ||
			{ echo "$p: $stderr"; return 1; }
		[ -z "$output" ] || { echo "$p: stdout $output"; return 1; }
	done
	need sp-group
}

@test "an empty sacct dump is no error and no record" {
	need sp-fetch
	: >"$BATS_TEST_TMPDIR/empty.txt"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/empty.txt" \
		--fields JobID,JobName,User,State
	[ "$status" -le 2 ]
	[ "$status" -ne 1 ]
	# Whatever it says, it claims no job.
	[ "$(records_in <<<"$output")" -eq 0 ]
	[ -n "$stderr" ]
}

# ------------------------------------------------------------ the screen

@test "terminal escapes in a job name reach sp-show visible, not obeyed" {
	need_jobs
	need sp-show
	local f=$BATS_TEST_TMPDIR/esc.tsv
	# OSC (set the title), CSI (red), C1 CSI, a bell and a backspace.
	set_field "$JOBS" name 1 $'\e]0;pwned\a\e[31mred\xc2\x9b2J\b' |
		head -2 >"$f"
	run --separate-stderr sp-show "$f"
	[ "$status" -le 1 ]
	[ -n "$output" ]
	! grep -q $'\e' <<<"$output"
	! grep -q $'\a' <<<"$output"
	! grep -q $'\xc2\x9b' <<<"$output"
	[[ "$output" == *'\x1b]0;pwned'* ]]
	[[ "$output" == *'\x1b[31mred'* ]]
	# Forced colour still never lets the record's own escapes through.
	run --separate-stderr env CLICOLOR_FORCE=1 sp-show --color=always "$f"
	if [ "$status" -le 1 ]; then
		! grep -q $'\e]0;pwned' <<<"$output"
		! grep -q $'\e\[31mred' <<<"$output"
	fi
}

@test "terminal escapes in any field never reach --plain raw" {
	need_grouped
	for p in sp-group sp-size sp-hang sp-nodes; do
		need "$p"
		local in f=$BATS_TEST_TMPDIR/esc-$p.tsv
		in=$(input_for "$p")
		set_field "$in" name 1 $'\e[2J\e]0;x\a' >"$f"
		run --separate-stderr "$p" --plain "$f"
		[ "$status" -le 1 ] || { echo "$p: $status $stderr"; return 1; }
		! grep -q $'\e' <<<"$output" || { echo "$p: raw ESC"; return 1; }
	done
}

# ------------------------------------------------------------ node lists

# Runs a stage on records whose nodelist is $2, bounded in time and
# memory; it must end (any exit but a crash or the timeout).
bounded_nodelist() {
	local p=$1 list=$2 in f
	in=$(input_for "$p")
	f=$BATS_TEST_TMPDIR/nl-$p.tsv
	set_field "$in" nodelist 1 "$list" >"$f"
	if asan_build; then
		run --separate-stderr timeout 300 "$p" "$f"
	else
		run --separate-stderr bash -c \
			'ulimit -v 1048576; exec timeout 300 "$@"' _ "$p" "$f"
	fi
	[ "$status" -ne 124 ] || { echo "$p: timed out"; return 1; }
	[ "$status" -le 2 ] || { echo "$p: status $status: $stderr"; return 1; }
}

@test "NodeList n[1-99999999]: every stage ends in bounded time and memory" {
	need_grouped
	for p in $STAGES; do
		need "$p"
		bounded_nodelist "$p" 'n[1-99999999]'
	done
}

@test "NodeList u[1-2000]r[1-2000]: every stage ends in bounded time and memory" {
	need_grouped
	for p in $STAGES; do
		need "$p"
		bounded_nodelist "$p" 'u[1-2000]r[1-2000]'
	done
}

@test "sp-nodes on a list past the cap says the list was cut, not a crash" {
	need_grouped
	need sp-nodes
	local f=$BATS_TEST_TMPDIR/cap.tsv
	set_field "$GROUPED" nodelist 1 'n[1-99999999]' >"$f"
	run --separate-stderr timeout 300 sp-nodes "$f"
	[ "$status" -le 2 ]
	# Either refused with its place, or kept with a warning: never silent.
	[ -n "$stderr" ]
	[[ "$stderr" == "sp-nodes: "* ]]
}

@test "a NodeList past the cap in a sacct dump: sp-fetch ends" {
	need sp-fetch
	need_fixtures
	local f=$BATS_TEST_TMPDIR/nl.txt
	# test-data1's NodeList is its fifteenth field.
	awk -F'|' -v OFS='|' 'NR == 2 { $15 = "u[1-2000]r[1-2000]" }
		{ print }' "$FIXTURES/slurm2sql/test-data1.txt" >"$f"
	run --separate-stderr timeout 300 sp-fetch --input "$f"
	[ "$status" -ne 124 ]
	[ "$status" -le 2 ]
}

# ------------------------------------------------------------ sacct itself

# A fake sacct on PATH: --helpformat lists the fields; a query prints the
# rows of $FAKE_ROWS (JobID=...;State=... one row a line) in the order
# --format asks, with the --delimiter asked for, then does $FAKE_THEN.
fake_sacct() {
	mkdir -p "$BATS_TEST_TMPDIR/fake"
	cat >"$BATS_TEST_TMPDIR/fake/sacct" <<-'EOF'
	#!/bin/sh
	fmt= delim='|'
	for a; do
		case $a in
		--helpformat)
			[ "${FAKE_HANG_HELP:-}" = 1 ] && exec sleep 600
			cat <<-F
			Account AllocCPUS AllocNodes AllocTRES AveCPU AveRSS Cluster
			Comment Constraints CPUTime CPUTimeRAW DerivedExitCode Elapsed
			ElapsedRaw Eligible End ExitCode Flags JobID JobIDRaw JobName
			MaxRSS MaxVMSize NCPUS NNodes NodeList NTasks Partition QOS
			Reason ReqCPUS ReqMem ReqTRES Start State Submit SystemCPU
			Timelimit TimelimitRaw TotalCPU UID User UserCPU WorkDir
			F
			exit 0 ;;
		--format=*) fmt=${a#--format=} ;;
		--delimiter=*) delim=${a#--delimiter=} ;;
		esac
	done
	[ "${FAKE_HANG:-}" = 1 ] && exec sleep 600
	printf '%s\n' "$FAKE_ROWS" | awk -v fmt="$fmt" -v d="$delim" '
		BEGIN { n = split(fmt, f, ",") }
		NF { split($0, kv, ";"); delete v
		     for (k in kv) { i = index(kv[k], "=")
			v[tolower(substr(kv[k], 1, i - 1))] = substr(kv[k], i + 1) }
		     line = ""
		     for (i = 1; i <= n; i++)
			line = line (i > 1 ? d : "") v[tolower(f[i])]
		     print line; fflush() }'
	case ${FAKE_THEN:-exit0} in
	exit0) exit 0 ;;
	exit2) echo "sacct: error: Connection lost" >&2; exit 2 ;;
	kill) kill -9 $$ ;;
	esac
	EOF
	chmod +x "$BATS_TEST_TMPDIR/fake/sacct"
	PATH="$SP_BIN:$BATS_TEST_TMPDIR/fake:$PATH"
}

ROW_COMMON='User=alice;UID=1000;Account=lab;Partition=cpu;QOS=normal;Cluster=c1;Submit=2026-01-01T00:00:00;Eligible=2026-01-01T00:00:00;Start=2026-01-01T00:00:10;End=2026-01-01T01:00:10;Elapsed=01:00:00;Timelimit=02:00:00;ReqMem=4G;ReqCPUS=1;NCPUS=1;NNodes=1;NodeList=n1;ExitCode=0:0;ReqTRES=cpu=1,mem=4G;AllocTRES=cpu=1,mem=4G'

@test "a sacct that never answers is killed at SLURMPAST_TIMEOUT, exit 2" {
	need sp-fetch
	fake_sacct
	SLURMPAST_TIMEOUT=2 FAKE_HANG=1 run --separate-stderr \
		timeout 120 sp-fetch
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "sp-fetch: "* ]]
	[[ "$stderr" == *sacct* ]]
	[ "$(records_in <<<"$output")" -eq 0 ]
}

@test "a sacct that never answers --helpformat is bounded too" {
	need sp-fetch
	fake_sacct
	SLURMPAST_TIMEOUT=2 FAKE_HANG_HELP=1 run --separate-stderr \
		timeout 120 sp-fetch
	[ "$status" -ne 124 ]
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sp-fetch: "* ]]
}

@test "SLURMPAST_TIMEOUT garbage is a usage error naming the value" {
	need sp-fetch
	fake_sacct
	for v in abc 0 -5 inf; do
		SLURMPAST_TIMEOUT=$v run --separate-stderr timeout 60 sp-fetch
		[ "$status" -eq 2 ] || { echo "$v: $status"; return 1; }
		[[ "$stderr" == *"$v"* ]] || { echo "$v: $stderr"; return 1; }
	done
}

# Two whole jobs, then a third whose step rows never come.
cut_rows() {
	printf 'JobID=101;JobIDRaw=101;JobName=a;State=COMPLETED;TotalCPU=10:00;%s\n' "$ROW_COMMON"
	printf 'JobID=101.batch;JobIDRaw=101.batch;JobName=batch;State=COMPLETED;TotalCPU=10:00;MaxRSS=1G;%s\n' "$ROW_COMMON"
	printf 'JobID=102;JobIDRaw=102;JobName=b;State=COMPLETED;TotalCPU=20:00;%s\n' "$ROW_COMMON"
	printf 'JobID=102.batch;JobIDRaw=102.batch;JobName=batch;State=COMPLETED;TotalCPU=20:00;MaxRSS=2G;%s\n' "$ROW_COMMON"
	printf 'JobID=103;JobIDRaw=103;JobName=c;State=COMPLETED;TotalCPU=30:00;%s\n' "$ROW_COMMON"
}

@test "the fake sacct answers whole: sp-fetch reads three jobs" {
	need sp-fetch
	fake_sacct
	FAKE_ROWS=$(cut_rows) run --separate-stderr timeout 60 sp-fetch
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	[ "$(column jobid "$BATS_TEST_TMPDIR/out" | tr '\n' ' ')" = "101 102 103 " ]
}

@test "a sacct that dies mid-stream (exit 2): exit 2, the cut job not written" {
	need sp-fetch
	fake_sacct
	FAKE_ROWS=$(cut_rows) FAKE_THEN=exit2 run --separate-stderr \
		timeout 60 sp-fetch
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[-1]}" == "sp-fetch: "* ]]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	! column jobid "$BATS_TEST_TMPDIR/out" | grep -qx 103
}

@test "a sacct killed mid-stream: exit 2, the cut job not written" {
	need sp-fetch
	fake_sacct
	FAKE_ROWS=$(cut_rows) FAKE_THEN=kill run --separate-stderr \
		timeout 60 sp-fetch
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[-1]}" == "sp-fetch: "* ]]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	! column jobid "$BATS_TEST_TMPDIR/out" | grep -qx 103
}

# ------------------------------------------------------------ the output

@test "writing to /dev/full: every program exits 1, the failure said last" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	need_grouped
	for p in sp-fetch $STAGES; do
		need "$p"
		local in
		if [ "$p" = sp-fetch ]; then
			run --separate-stderr sh -c 'sp-fetch --demo >/dev/full'
		else
			in=$(input_for "$p")
			run --separate-stderr sh -c '"$1" "$2" >/dev/full' _ \
				"$p" "$in"
		fi
		[ "$status" -eq 2 ] || { echo "$p: status $status"; return 1; }
		# Notes about the input may come first; the failure is last.
		[ "${stderr_lines[-1]}" = "$p: <stdout>: No space left on device" ] ||
			{ echo "$p: $stderr"; return 1; }
	done
}

@test "slurmpast --demo --plain to /dev/full exits 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	need slurmpast sp-fetch
	run --separate-stderr sh -c 'slurmpast --demo --plain >/dev/full'
	[ "$status" -eq 2 ]
	[ -n "$stderr" ]
}

@test "| head -1: every program is quiet and its pipeline succeeds" {
	need_grouped
	for p in sp-fetch $STAGES; do
		need "$p"
		local in
		if [ "$p" = sp-fetch ]; then
			run --separate-stderr bash -c \
				'set -o pipefail; sp-fetch --demo | head -1; \
				 s=("${PIPESTATUS[@]}"); echo "${s[0]}" >&2'
		else
			in=$(input_for "$p")
			run --separate-stderr bash -c \
				'"$1" "$2" | head -1; s=("${PIPESTATUS[@]}")
				 echo "${s[0]}" >&2' _ "$p" "$in"
		fi
		[ "${#lines[@]}" -eq 1 ] || { echo "$p: $output"; return 1; }
		# Killed by SIGPIPE (141) or finished (0, or sp-hang's 1: the
		# demo's hangs are a critical finding); never a message.
		[[ "$stderr" == 0 || "$stderr" == 141 ||
		   ( "$p" == sp-hang && "$stderr" == 1 ) ]] ||
			{ echo "$p: $stderr"; return 1; }
	done
}

# The first grouped record with a 256 MB name, into a process allowed
# 64 MB: the stage reads the header, finds its columns, then cannot hold
# the line.
@test "ulimit -v tight: a clean 'out of memory', exit 2, from every stage" {
	need_grouped
	asan_build && skip "ulimit -v cannot bound an ASan build"
	local at head tail
	at=$(head -1 "$GROUPED" | tr '\t' '\n' | grep -nx name | cut -d: -f1)
	head -1 "$GROUPED" >"$BATS_TEST_TMPDIR/head"
	sed -n 2p "$GROUPED" | cut -f"1-$((at - 1))" >"$BATS_TEST_TMPDIR/pre"
	sed -n 2p "$GROUPED" | cut -f"$((at + 1))-" >"$BATS_TEST_TMPDIR/post"
	for p in $STAGES; do
		need "$p"
		run --separate-stderr bash -c '
			{ cat "$2/head"; printf "%s\t" "$(cat "$2/pre")"
			  head -c 268435456 /dev/zero | tr "\0" x
			  printf "\t%s\n" "$(cat "$2/post")"; } |
			( ulimit -v 65536; exec "$1" )' _ "$p" "$BATS_TEST_TMPDIR"
		[ "$status" -eq 2 ] || { echo "$p: $status $stderr"; return 1; }
		[ "$stderr" = "$p: out of memory" ] ||
			{ echo "$p: $stderr"; return 1; }
	done
}

@test "ulimit -v tight: sp-fetch --input says out of memory, exit 2" {
	need sp-fetch
	asan_build && skip "ulimit -v cannot bound an ASan build"
	run --separate-stderr bash -c '
		{ printf "JobID|JobName|User|State\n1|"
		  head -c 268435456 /dev/zero | tr "\0" x; echo "|a|COMPLETED"; } |
		( ulimit -v 65536; exec sp-fetch --input - )'
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: out of memory" ]
}

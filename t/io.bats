#!/usr/bin/env bats
# Output discipline shared by the filters: writing to a full disk is a
# failed run (exit 2, as every error), a closed pipe is quiet, bad input names file and line.

load lib/common

# 20,000 records, more than any buffer holds: made once for the file
# (a shell loop per test was most of this file's time).
setup_file() {
	records="$BATS_FILE_TMPDIR/jobs.tsv"
	printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\n' >"$records"
	seq 1 20000 | awk '{ printf "%s\tjob%s\talice\tcpu\tCOMPLETED\t%s\n", $1, $1, $1 }' \
		>>"$records"
}

setup() {
	records="$BATS_FILE_TMPDIR/jobs.tsv"
}

@test "sp-group: writing to /dev/full fails with exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run --separate-stderr sh -c 'sp-group "$1" >/dev/full' sh "$records"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: <stdout>: No space left on device" ]
}

@test "sp-group | head -1 prints no error" {
	run --separate-stderr sh -c 'sp-group "$1" | head -1' sh "$records"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == jobid* ]]
}

@test "a record with the wrong field count names file and line" {
	printf 'jobid\tname\n1\tx\n2\n' >"$BATS_TEST_TMPDIR/bad.tsv"
	run --separate-stderr sp-group "$BATS_TEST_TMPDIR/bad.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: $BATS_TEST_TMPDIR/bad.tsv:3: 1 fields, the header has 2" ]
}

@test "a CR before the LF is refused with a hint" {
	printf 'jobid\tname\r\n' >"$BATS_TEST_TMPDIR/dos.tsv"
	run --separate-stderr sp-group <"$BATS_TEST_TMPDIR/dos.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: <stdin>:1: carriage return before the line end (DOS line endings? try: tr -d '\\r')" ]
}

@test "empty input is one line and exit 2" {
	run --separate-stderr sp-group </dev/null
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: <stdin>: no header line (empty input)" ]
}

@test "every stage names the full disk, not a stale errno" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	sp-fetch --demo | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	for stage in sp-group "sp-group --rollup" sp-size "sp-size --findings" \
	    sp-hang "sp-hang --summary" sp-nodes "sp-group --json"; do
		run --separate-stderr sh -c "$stage \"\$1\" >/dev/full" sh \
			"$BATS_TEST_TMPDIR/g.tsv"
		[ "$status" -eq 2 ] || { echo "$stage: status $status"; return 1; }
		[ "$stderr" = "${stage%% *}: <stdout>: No space left on device" ] ||
			{ echo "$stage: $stderr"; return 1; }
	done
}

@test "--plain fits \$COLUMNS: text cells cut, names and numbers whole" {
	sp-fetch --demo | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	sp-group --rollup --plain "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/whole"
	COLUMNS=75 sp-group --rollup --plain "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/fit"
	# the whole table is wider; the fitted one is not, line by line
	[ "$(widest_line "$BATS_TEST_TMPDIR/whole")" -gt 75 ]
	[ "$(widest_line "$BATS_TEST_TMPDIR/fit")" -le 75 ]
	# every column keeps its name, every number its value
	[ "$(head -1 "$BATS_TEST_TMPDIR/fit" | tr -s ' ' '\n')" = \
	  "$(head -1 "$BATS_TEST_TMPDIR/whole" | tr -s ' ' '\n')" ]
	[ "$(awk '{ print $4, $6, $8 }' "$BATS_TEST_TMPDIR/fit")" = \
	  "$(awk '{ print $4, $6, $8 }' "$BATS_TEST_TMPDIR/whole")" ]
	grep -q 'rollou\.\.\.' "$BATS_TEST_TMPDIR/fit"
	# into a pipe without COLUMNS: as it was
	! grep -q '\.\.\.' "$BATS_TEST_TMPDIR/whole"
	# narrower than the names and numbers allow: each line cut at the width
	COLUMNS=50 sp-group --rollup --plain "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/cut"
	[ "$(widest_line "$BATS_TEST_TMPDIR/cut")" -eq 50 ]
	[[ "$(head -1 "$BATS_TEST_TMPDIR/cut")" == *'...' ]]
}

@test "records without their header: said so, and how to keep it" {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	sp-size "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/advice.tsv" 2>/dev/null
	want="line 1 is a record, not a header: the stages find their columns by the names on line 1; keep it where you filter (awk 'NR == 1 || /TIMEOUT/', not grep TIMEOUT; sort or tail only the lines after it)"
	for how in "grep TIMEOUT" "tail -n +2" "sort"; do
		run --separate-stderr sh -c "$how \"\$1\" | sp-group" sh "$BATS_TEST_TMPDIR/g.tsv"
		[ "$status" -eq 2 ] || { echo "$how: $status"; return 1; }
		[ "$stderr" = "sp-group: <stdin>:1: $want" ] || { echo "$how: $stderr"; return 1; }
	done
	# a stage's own records, grepped: the same (a key holds a '/')
	run --separate-stderr sh -c 'grep -w raise "$1" | sp-select --keys' sh "$BATS_TEST_TMPDIR/advice.tsv"
	[ "$stderr" = "sp-select: <stdin>:1: $want" ]
	# a user's own columns, named as they please, are a header all the same
	awk 'BEGIN { FS = OFS = "\t" } NR == 1 { print $0, "run.id", "cpu/gpu", "at 12:00"; next }
		{ print $0, "x", "y", "z" }' "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/own.tsv"
	run --separate-stderr sp-group --rollup "$BATS_TEST_TMPDIR/own.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(sp-group --rollup "$BATS_TEST_TMPDIR/g.tsv")" ]
	# kept as said, it reads
	run --separate-stderr sh -c "awk 'NR == 1 || /TIMEOUT/' \"\$1\" | sp-group --rollup" sh "$BATS_TEST_TMPDIR/g.tsv"
	[ "$status" -eq 0 ]
}

# A key that names a quantity (elapsed_s, max_rss_b, gpu_h, *_eff,
# sp-size's requested, target and observed, --cost's figures) holds a
# JSON number or null in every --json, never its digits as a string; and
# no other value is a string of digits but a name that may be one: a
# job, step or task id, a user who cancelled (name or uid), a
# quantity's words in its *_text key (sp-size's requested_text "12"), or
# sp-backtest's level of evidence (runs_before "3", "4-5", "all").
@test "--json everywhere: quantities are JSON numbers, their words apart" {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	g=$BATS_TEST_TMPDIR/g.tsv
	# The cheap tests first and no regular expression on names: the
	# same judgement at a third of jq's time on the larger outputs.
	quantity='[.. | objects | to_entries[] |
		select(.value != null and (.value | type) != "number") |
		select(.key | endswith("_s") or endswith("_b") or
			endswith("_h") or endswith("_hz") or endswith("_j") or
			endswith("_eff") or . == "requested" or . == "target" or
			. == "observed" or . == "used" or . == "recommended" or
			. == "reductions_only") | .key] | .[]'
	digits='[.. | objects | to_entries[] |
		select((.value | type) == "string") |
		select(.key | . == "jobid" or . == "jobid_raw" or
			. == "array_job" or . == "array_task" or
			. == "max_rss_step" or . == "min_cpu_task" or
			. == "cancelled_by" or . == "runs_before" or
			endswith("_text") | not) |
		select(.value | test("^-?[0-9]+([.][0-9]+)?$")) | .key] | .[]'
	while read -r cmd; do
		# shellcheck disable=SC2086 # the command's words apart
		$cmd >"$BATS_TEST_TMPDIR/out.json" 2>/dev/null || [ $? -eq 1 ] ||
			{ echo "$cmd failed"; return 1; }
		[ -s "$BATS_TEST_TMPDIR/out.json" ] || { echo "$cmd: nothing"; return 1; }
		bad=$(jq -r "$quantity" "$BATS_TEST_TMPDIR/out.json" | sort -u | tr '\n' ' ')
		[ -z "$bad" ] || { echo "$cmd: quantities as strings: $bad"; return 1; }
		bad=$(jq -r "$digits" "$BATS_TEST_TMPDIR/out.json" | sort -u | tr '\n' ' ')
		[ -z "$bad" ] || { echo "$cmd: numbers as strings: $bad"; return 1; }
	done <<EOF2
slurmpast --demo --json
slurmpast --demo --json 52581003
slurmpast --demo --json 53904442
sp-fetch --demo --json
sp-group --rollup --json $g
sp-size --json $g
sp-size --findings --json $g
sp-size --cost --json $g
sp-backtest --json $g
sp-backtest --summary --json $g
sp-hang --json $g
sp-hang --summary --json $g
sp-nodes --json $g
sp-nodes --exclude --json $g
sp-show --table --json $g
sp-show --findings --json -j 52581003 $g
sp-select --json $g
EOF2
}

# Issue 17: "--sizing --json's requested is "12", observed "633.9 GiB"".
# The advice's figures are numbers in the row's unit, null when unknown
# (never 0), their words beside them in *_text; the same in sp-size
# --json, slurmpast --sizing --json and every section of slurmpast
# --json.  --cost's figures are numbers too.
@test "--json: the advice's requested, target and observed are numbers, their words in _text" {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	figures='select(.workload_key == "alice/gpu/gpu/train-web" or
		(.workload == "cot-exp" and .flag == "--time")) |
		[.flag, .unit, .requested, .requested_text, .target,
		 .observed, .observed_text] | map(tojson) | join(" ")'
	want='"--time" "seconds" 172800 "2-00:00:00" 70200 59090 "16:24:50"
"--mem" "bytes" 858993459200 "800G" 777389080576 680609752064 "633.9 GiB"
"--cpus-per-task" "cores" 12 "12" 6 4.788148 "4.8 cores busy per task at peak across 22 runs"
"--gpus" "GPUs" 16 "16" 18 14.72 "14.7 GPUs busy at peak across 22 runs"
"--time" "seconds" 1800 "00:30:00" null null "14 of 14 timeouts computed nothing"'
	sp-size --json "$BATS_TEST_TMPDIR/g.tsv" 2>/dev/null >"$BATS_TEST_TMPDIR/size.json"
	[ "$(jq -r "$figures" "$BATS_TEST_TMPDIR/size.json")" = "$want" ]
	run --separate-stderr slurmpast --demo --sizing --json
	[ "$status" -le 1 ]
	[ "$(jq -r "select(.section == \"sizing\") | $figures" <<<"$output")" = "$want" ]
	run --separate-stderr slurmpast --demo --json
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/all.json"
	[ "$(jq -r "select(.section == \"sizing\") | $figures" "$BATS_TEST_TMPDIR/all.json")" = "$want" ]
	# every record: the figures numbers or null, never 0 where none
	# (--exclude's record: no request, no observed, its target the
	# number of nodes left out)
	[ "$(jq -r 'select(.section == "sizing") |
		[.requested, .target, .observed] | map(type) | join(" ")' \
		"$BATS_TEST_TMPDIR/all.json" | sort -u | tr '\n' ,)" = \
		"null number null,null number number,number null null,number null number,number number number," ]
	[ -z "$(jq -r 'select(.section == "sizing" and
		(.requested == 0 or .target == 0 or .observed == 0)) | .workload_key' \
		"$BATS_TEST_TMPDIR/all.json")" ]
	# a figure known is a figure worded, and the reverse
	[ -z "$(jq -r 'select(.section == "sizing" and
		((.requested == null) != (.requested_text == null))) | .workload_key' \
		"$BATS_TEST_TMPDIR/all.json")" ]
	# and no _value column is left to read instead
	[ -z "$(jq -r 'select(.section == "sizing") | keys[] | select(endswith("_value"))' \
		"$BATS_TEST_TMPDIR/all.json" | sort -u)" ]
	# --cost: the issue's "1564539.975556", a number
	want='"memory" "GiB-hours" 1564539.975556 823984.161725 1300221.655278 1295783.760556'
	costs='select(.resource == "memory") | [.resource, .unit, .requested,
		.used, .recommended, .reductions_only] | map(tojson) | join(" ")'
	[ "$(jq -r "select(.section == \"cost\") | $costs" "$BATS_TEST_TMPDIR/all.json")" = "$want" ]
	run --separate-stderr sp-size --cost --json "$BATS_TEST_TMPDIR/g.tsv"
	[ "$(jq -r "$costs" <<<"$output")" = "$want" ]
}

# The stages' --plain sentences, not only their tables, fit a terminal.
@test "--plain prose on a terminal 60 wide: wrapped at words; into a pipe whole" {
	command -v script >/dev/null || skip "no script(1)"
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	g=$BATS_TEST_TMPDIR/g.tsv
	for cmd in "sp-nodes --plain" "sp-hang --summary --plain" "sp-nodes --plain --metric failure"; do
		run script -qec "stty cols 60; $cmd $g 2>/dev/null" /dev/null
		printf '%s\n' "$output" | tr -d '\r' | lines_wider_than 60 ||
			{ echo "$cmd"; printf '%s\n' "$output"; return 1; }
		# a sentence goes on under a hanging indent
		printf '%s\n' "$output" | tr -d '\r' | grep -q '^  [a-z0-9]'
		# into a pipe, one line a sentence, as before
		# shellcheck disable=SC2086 # the words apart
		run --separate-stderr $cmd "$g"
		! printf '%s\n' "$output" | lines_wider_than 60 >/dev/null
	done
}

#!/usr/bin/env bats
# Output discipline shared by the filters: writing to a full disk is a
# failed run (exit 2, as every error), a closed pipe is quiet, bad input names file and line.

load lib/common

setup() {
	records="$BATS_TEST_TMPDIR/jobs.tsv"
	printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\n' >"$records"
	for i in $(seq 1 20000); do
		printf '%s\tjob%s\talice\tcpu\tCOMPLETED\t%s\n' "$i" "$i" "$i"
	done >>"$records"
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
	COLUMNS=200 sp-group --rollup --plain "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/fit"
	widest() { awk '{ if (length($0) > m) m = length($0) } END { print m }' "$1"; }
	# the whole table is wider; the fitted one is not, line by line
	[ "$(widest "$BATS_TEST_TMPDIR/whole")" -gt 200 ]
	[ "$(widest "$BATS_TEST_TMPDIR/fit")" -le 200 ]
	# every column keeps its name, every number its value
	[ "$(head -1 "$BATS_TEST_TMPDIR/fit" | tr -s ' ' '\n')" = \
	  "$(head -1 "$BATS_TEST_TMPDIR/whole" | tr -s ' ' '\n')" ]
	[ "$(awk '{ print $7, $8, $15 }' "$BATS_TEST_TMPDIR/fit")" = \
	  "$(awk '{ print $7, $8, $15 }' "$BATS_TEST_TMPDIR/whole")" ]
	grep -q 'alice/gpu\.\.\.' "$BATS_TEST_TMPDIR/fit"
	# into a pipe without COLUMNS: as it was
	! grep -q '\.\.\.' "$BATS_TEST_TMPDIR/whole"
	# narrower than the names and numbers allow: each line cut at the width
	COLUMNS=100 sp-group --rollup --plain "$BATS_TEST_TMPDIR/g.tsv" >"$BATS_TEST_TMPDIR/cut"
	[ "$(widest "$BATS_TEST_TMPDIR/cut")" -eq 100 ]
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
	# kept as said, it reads
	run --separate-stderr sh -c "awk 'NR == 1 || /TIMEOUT/' \"\$1\" | sp-group --rollup" sh "$BATS_TEST_TMPDIR/g.tsv"
	[ "$status" -eq 0 ]
}

# A key that names a quantity (elapsed_s, max_rss_b, gpu_h, *_eff,
# sp-size's *_value) holds a JSON number or null in every --json, never
# its digits as a string; and no other value is a string of digits but
# a name that may be one: a job, step or task id, a user who cancelled
# (name or uid), sp-size's requested (its words as sbatch takes them).
@test "--json everywhere: quantities are JSON numbers, their words apart" {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	g=$BATS_TEST_TMPDIR/g.tsv
	quantity='[.. | objects | to_entries[] |
		select(.key | test("(_s|_b|_h|_value|_hz|_j|_eff)$")) |
		select(.value != null and (.value | type) != "number") | .key] | .[]'
	digits='[.. | objects | to_entries[] |
		select(.key | test("^(jobid|jobid_raw|array_job|array_task|max_rss_step|min_cpu_task|cancelled_by|requested)$") | not) |
		select((.value | type) == "string" and
			(.value | test("^-?[0-9]+([.][0-9]+)?$"))) | .key] | .[]'
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
sp-hang --json $g
sp-hang --summary --json $g
sp-nodes --json $g
sp-nodes --exclude --json $g
sp-show --table --json $g
sp-show --findings --json -j 52581003 $g
sp-select --json $g
EOF2
	# sp-size's figures, in the unit its unit column names
	run --separate-stderr sp-size --json "$g"
	[ "$(jq -s -r 'map(select(.flag == "--time"))[0] |
		[.unit, (.requested_value | type), .requested] | join(" ")' <<<"$output")" = \
		"seconds number 2-00:00:00" ]
}

# The stages' --plain sentences, not only their tables, fit a terminal.
@test "--plain prose on a terminal 60 wide: wrapped at words; into a pipe whole" {
	command -v script >/dev/null || skip "no script(1)"
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g.tsv"
	g=$BATS_TEST_TMPDIR/g.tsv
	for cmd in "sp-nodes --plain" "sp-hang --summary --plain" "sp-nodes --plain --metric failure"; do
		run script -qec "stty cols 60; $cmd $g 2>/dev/null" /dev/null
		over=$(printf '%s\n' "$output" | tr -d '\r' |
			LC_ALL=C.UTF-8 awk 'length($0) > 60 { n++ } END { print n + 0 }')
		[ "$over" -eq 0 ] || { echo "$cmd"; printf '%s\n' "$output"; return 1; }
		# a sentence goes on under a hanging indent
		printf '%s\n' "$output" | tr -d '\r' | grep -q '^  [a-z0-9]'
		# into a pipe, one line a sentence, as before
		# shellcheck disable=SC2086 # the words apart
		run --separate-stderr $cmd "$g"
		printf '%s\n' "$output" | LC_ALL=C.UTF-8 awk 'length($0) > 60 { n++ } END { exit !n }'
	done
}

#!/usr/bin/env bats
# One text module (lib/ground/sp_text.c): every program escapes a record's text
# the same way.  A C1 control (CSI, U+009B, the bytes C2 9B) in a job
# name is a terminal escape to anyone who prints the JSON: every --json
# writes it \u009b.  A bidi override (U+202E) would reorder a screen:
# every --plain shows it \u202e, as sp-show's screen does.

load lib/common

CSI=$'\xc2\x9b'
RLO=$'\xe2\x80\xae'

# The demo, with one workload's name holding $1: job records (JOBS) and
# the same grouped (GROUPED), and the sacct text (DUMP).
setup_file() {
	local d=$BATS_FILE_TMPDIR
	export DUMP=$d/dump.txt JOBS=$d/jobs.tsv GROUPED=$d/grouped.tsv
	sp-fetch --demo-sacct | sed "s/rollout-gen/rollout${CSI}gen/g" >"$DUMP"
	sp-fetch --input "$DUMP" >"$JOBS"
	sp-group "$JOBS" >"$GROUPED"
}

# The JSON a program writes holds the escape and never the raw bytes.
escaped() {
	[ -n "$output" ] || { echo "no output"; return 1; }
	! grep -q "$CSI" <<<"$output" || { echo "raw C1 in the JSON"; return 1; }
	grep -qF 'rollout\u009bgen' <<<"$output" ||
		{ echo "no \\u009b in the JSON"; return 1; }
}

@test "sp-fetch --json: a C1 control in a name is \\u009b" {
	run --separate-stderr sp-fetch --input "$DUMP" --json
	[ "$status" -eq 0 ]
	escaped
}

@test "sp-group --json: a C1 control in a name is \\u009b" {
	run --separate-stderr sp-group --json "$JOBS"
	[ "$status" -eq 0 ]
	escaped
	run --separate-stderr sp-group --rollup --json "$JOBS"
	[ "$status" -eq 0 ]
	escaped
}

@test "sp-size --json: a C1 control in a workload is \\u009b" {
	run --separate-stderr sp-size --json "$GROUPED"
	[ "$status" -eq 0 ]
	escaped
	run --separate-stderr sp-size --findings --json "$GROUPED"
	[ "$status" -le 1 ]
	escaped
}

@test "sp-hang --json: a C1 control in a name is \\u009b" {
	run --separate-stderr sp-hang --json "$GROUPED"
	[ "$status" -le 1 ]
	escaped
}

@test "sp-nodes --json: a C1 control in a workload is \\u009b" {
	run --separate-stderr sp-nodes --json --workload "$(awk -F '\t' '
	    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["workload_key"] ~ /rollout/ { print $c["workload_key"]; exit }' \
	    "$GROUPED")" "$GROUPED"
	[ "$status" -le 1 ]
	escaped
}

@test "sp-show --json: a C1 control in a name is \\u009b" {
	id=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["name"] ~ /rollout/ { print $c["jobid"]; exit }' "$JOBS")
	run --separate-stderr sp-show --json --no-logs -j "$id" "$GROUPED"
	[ "$status" -le 1 ]
	escaped
}

@test "sp-select --json: a C1 control in a name is \\u009b" {
	run --separate-stderr sp-select --json "$JOBS"
	[ "$status" -eq 0 ]
	escaped
}

@test "--plain: a bidi override in a name is \\u202e, as on sp-show's screen" {
	printf 'jobid\tname\tuser\tpartition\tstate\telapsed_s\n1\tab%scd\talice\tgpu\tCOMPLETED\t100\n' \
		"$RLO" >"$BATS_TEST_TMPDIR/rlo.tsv"
	run --separate-stderr sp-group --plain "$BATS_TEST_TMPDIR/rlo.tsv"
	[ "$status" -eq 0 ]
	! grep -q "$RLO" <<<"$output"
	grep -qF 'ab\u202ecd' <<<"$output"
}

@test "sp-nodes --exclude: the comment for a script shows a C1 control, never obeys it" {
	run --separate-stderr sp-nodes --exclude "$GROUPED"
	[ "$status" -eq 0 ]
	! grep -q "$CSI" <<<"$output"
	[ "${lines[0]}" = '# rollout\u009bgen (alice): leave out g003, g011, g017, worse than the other machines for it' ]
	[ "${lines[1]}" = "#SBATCH --exclude=g[003,011,017]" ]
}

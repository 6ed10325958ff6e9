#!/usr/bin/env bats
# slurmpast --attribute and --attributed: where the jobs came from, on the
# demo (its own transcripts) and on a saved dump with transcripts beside
# it; the headline's split, the sessions' workloads, the re-costing of
# the attributable part, the view, and the refusals.

load lib/common

setup() {
	export TZ=UTC
}

# The line after the window: the split of the whole record.
split_line() {
	printf '%s\n' "$1" | grep ' allocations are attributable: \|^No allocation is attributable'
}

@test "--demo --attribute: the headline splits the record, the sessions' workloads follow" {
	run --separate-stderr slurmpast --demo --attribute --plain --overview
	[ "$status" -eq 0 ]
	[ "$(split_line "$output")" = "2211 of 3611 allocations are attributable: 1809 to 24 sessions, 402 to a log." ]
	# Right after the window line, before the workloads.
	[ "${lines[4]}" = "2211 of 3611 allocations are attributable: 1809 to 24 sessions, 402 to a log." ]
	printf '%s\n' "$output" | grep -qx 'Workloads by session'
	# The driver's log holds the most compute, then alice's sessions by
	# their first letters and directories, the jobs of no source last.
	printf '%s\n' "$output" | sed -n '/^Workloads by session$/,$p' >"$BATS_TEST_TMPDIR/v"
	[ "$(sed -n 2p "$BATS_TEST_TMPDIR/v" | tr -s ' ')" = "source directory runs failed gpu_h share workloads" ]
	[ "$(sed -n 3p "$BATS_TEST_TMPDIR/v" | tr -s ' ')" = "logs/sweep-driver.log n/a 402 69 3882.2 14.9% quant-reddit, label-arxiv, quant-mol +75" ]
	sed -n 4p "$BATS_TEST_TMPDIR/v" | grep -q '^session [0-9a-f]\{8\}  *\/home\/alice\/agents '
	[ "$(sed -n 13p "$BATS_TEST_TMPDIR/v" | tr -s ' ')" = "(no source) n/a 1400 166 11313.4 44.8% train-web, rollout-gen, parse-vqa +263" ]
	[ "$(sed -n 14p "$BATS_TEST_TMPDIR/v")" = "15 more sources (825 runs)" ]
	[ "$stderr" = "slurmpast: 1 job was claimed only more than 2 days from its submit time (another cluster's or a reused id): no source
slurmpast: left out 4 open records (never ended)" ]
}

@test "--attributed: the attributable jobs shown, every run of their workloads judged" {
	run --separate-stderr slurmpast --demo --attributed --plain --overview
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "2932 jobs of alice and bob, 2026-01-06 to 2026-03-13, in 256 workloads: every run of the workloads of the 2211 jobs shown (attributable); 3 still running or pending, left out." ]
	# Of the jobs the report rests on: every run of those workloads.
	[ "$(split_line "$output")" = "2211 of 2932 allocations are attributable: 1809 to 24 sessions, 402 to a log." ]
	# carol typed her jobs: none of her workloads is shown.
	! printf '%s\n' "$output" | grep -q ' carol '
	# Every section takes the view: the hangs of the attributable jobs'
	# workloads, of 2932 runs, not the whole record's 3611.
	run --separate-stderr slurmpast --demo --attributed --hangs --json
	[ "$status" -le 1 ]
	[ "$(printf '%s\n' "$output" | jq -r 'select(.row == "record") | .runs')" = 2932 ]
	run --separate-stderr slurmpast --demo --hangs --json
	[ "$(printf '%s\n' "$output" | jq -r 'select(.row == "record") | .runs')" = 3611 ]
}

@test "--cost with --attribute: the attributable part re-costed apart, under the same advice" {
	run --separate-stderr slurmpast --demo --attribute --plain --cost
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx 'The value of following the advice'
	printf '%s\n' "$output" | grep -qx 'The value of following the advice, in the attributable part'
	# memory, cpu and time: the part's runs fewer than the whole's.
	run awk '/^The value/ { t++; next } $1 == "memory" || $1 == "cpu" || $1 == "time" { runs[t, $1] = $3 }
		END { for (r in runs) n++; if (n != 6) { print "rows: " n; exit }
			split("memory cpu time", k, " ")
			for (i = 1; i <= 3; i++)
				if (!(runs[2, k[i]] > 0 && runs[2, k[i]] < runs[1, k[i]]))
					print k[i] ": " runs[2, k[i]] " of " runs[1, k[i]] }' <<<"$output"
	[ -z "$output" ]
}

@test "--attribute DIR on a saved dump: the transcripts read where they lie" {
	d=$BATS_TEST_TMPDIR
	sp-fetch --demo --transcripts "$d/src" >/dev/null
	sp-fetch --demo-sacct >"$d/dump"
	run --separate-stderr slurmpast --input "$d/dump" --attribute "$d/src" --plain --overview
	[ "$status" -eq 0 ]
	[ "$(split_line "$output")" = "2211 of 3611 allocations are attributable: 1809 to 24 sessions, 402 to a log." ]
	# The path as given: not the demo's.
	printf '%s\n' "$output" | grep -q "^$d/src/logs/sweep-driver.log "
	run --separate-stderr slurmpast --input "$d/dump" --attribute="$d/src/logs" --plain --overview
	[ "$(split_line "$output")" = "402 of 3611 allocations are attributable: 402 to a log." ]
}

@test "--attribute with no path: the user's transcripts, or one line saying there are none" {
	d=$BATS_TEST_TMPDIR
	sp-fetch --demo-sacct >"$d/dump"
	run --separate-stderr env -u CLAUDE_CONFIG_DIR HOME="$d/home" \
		slurmpast --input "$d/dump" --attribute --plain --overview
	[ "$status" -eq 0 ]
	[ "$(split_line "$output")" = "No allocation is attributable: no transcript or log read names one of their jobs." ]
	[[ "$stderr" == *"slurmpast: no Claude Code transcripts in $d/home/.claude/projects (name the files or directories to read)"* ]]
	mkdir -p "$d/home/.claude"
	sp-fetch --demo --transcripts "$d/home/.claude" >/dev/null
	run --separate-stderr env -u CLAUDE_CONFIG_DIR HOME="$d/home" \
		slurmpast --input "$d/dump" --attribute --plain --overview
	# Only the projects directory is Claude Code's: the log is not read.
	[ "$(split_line "$output")" = "1809 of 3611 allocations are attributable: 1809 to 24 sessions." ]
	run --separate-stderr env -u CLAUDE_CONFIG_DIR HOME="$d/home" \
		slurmpast --input "$d/dump" --attributed --plain --overview
	[ "$status" -eq 0 ]
	run --separate-stderr env -u CLAUDE_CONFIG_DIR HOME="$d/nobody" \
		slurmpast --input "$d/dump" --attributed --plain --overview
	[ "$status" -eq 2 ]
	[ "${stderr_lines[-1]}" = "slurmpast: no job of the window is attributable: nothing read names one (--attribute without --attributed shows them all)" ]
}

@test "--attribute: the refusals" {
	run --separate-stderr slurmpast --demo --attribute 51031108
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --attribute splits a window of jobs: leave out the job ids" ]
	run --separate-stderr slurmpast --demo --attribute "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: the demo brings its own transcripts: --attribute takes no path with --demo" ]
	run --separate-stderr slurmpast --demo --attribute=
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --attribute: no file or directory named" ]
	run --separate-stderr slurmpast --demo --attributed=x
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --attributed takes no value" ]
	# more records than a pipe holds: sp-fetch is cut off by sp-attr's
	# refusal, which is the error said, not sp-fetch's SIGPIPE
	sp-fetch --demo-sacct --demo-jobs 2000 >"$BATS_TEST_TMPDIR/dump"
	run --separate-stderr slurmpast --input "$BATS_TEST_TMPDIR/dump" --attribute "$BATS_TEST_TMPDIR/nothere"
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: $BATS_TEST_TMPDIR/nothere: No such file or directory" ]
}

#!/usr/bin/env bats
# slurmpast, the front door: every command on the demo (the screen, the
# sections, job ids, --json), the refusals of bad options, and the error
# lines: no sacct, accounting off, an empty window, a filter that fails or
# is missing, a failed write.

load lib/common
load lib/tmux
load lib/slurmpast

teardown() {
	term_stop
}

setup_file() {
	remember screen --demo &
	for s in overview patterns hangs nodes sizing cost; do
		remember "$s" --demo --$s &
		remember "$s.json" --demo --$s --json &
	done
	wait
}

# ----------------------------------------------------------------------
# --help, --version

@test "--help: every option of the usage on a line of its own" {
	run slurmpast --help
	[ "$status" -eq 0 ]
	# t/cli.bats checks the usage against the man page's SYNOPSIS
	usage=$(printf '%s\n' "$output" | awk 'NR == 1 || /^ / { print; next } { exit }')
	for opt in $(printf '%s\n' "$usage" | grep -oE -- '(^|[[ |])--?[a-zA-Z][a-z-]*' |
	    sed 's/^[[ |]//' | sort -u); do
		printf '%s\n' "$output" | grep -qE "^  (-[a-zA-Z], )?$opt |^      $opt |^  $opt," ||
			{ echo "no line for $opt"; return 1; }
	done
}

@test "--version is the toolkit's SP_VERSION" {
	run slurmpast --version
	[ "$status" -eq 0 ]
	v=$(sed -n 's/^#define SP_VERSION "\(.*\)"$/\1/p' "$SP_TOP/lib/ground/sp_util.h")
	[ -n "$v" ]
	[ "$output" = "slurmpast $v" ]
	run sp-fetch --version
	[ "$output" = "sp-fetch $v" ]
}

# ----------------------------------------------------------------------
# The default screen on the demo

@test "--demo: the first line says the history is synthetic" {
	[ "$(screen | head -1)" = \
	  "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
}

@test "--demo never shows a relative time (now-...)" {
	! screen | grep -q 'now-'
	! grep -q 'now-' "$BATS_FILE_TMPDIR/screen.err"
}

@test "--demo exits 1: the tokenizer's memory search is critical" {
	[ "$(cat "$BATS_FILE_TMPDIR/screen.status")" -eq 1 ]
	screen | grep -qx 'critical  rc-tok-github_code (alice): memory-search'
	screen | grep -q 'Memory is not the deciding variable'
}

@test "the headline: the GPU-hours that never computed, and where" {
	run screen
	[[ "${lines[1]}" =~ ^[0-9]+\ GPU-hours,\ [0-9]+\ of\ them\ in\ allocations\ that\ never\ computed$ ]]
	[[ "${lines[2]}" =~ ^[0-9]+\ of\ them\ in\ rollout-gen\ \([0-9.]+%\ of\ its\ [0-9]+\ GPU-hours\)\.$ ]]
	[[ "${lines[3]}" =~ ^3611\ jobs\ of\ alice,\ bob\ and\ carol,\ 2026-01-05\ to\ 2026-03-1[0-9],\ in\ 470\ workloads\;\ 4\ still\ running\ or\ pending,\ left\ out\.$ ]]
}

@test "the default screen's parts, in order" {
	titles=$(screen | grep -n -x -e 'Workloads by compute' \
		-e 'Findings across runs' -e 'Problem jobs, newest first' \
		-e 'What the next submission should ask for' | cut -d: -f2)
	[ "$titles" = "Workloads by compute
Findings across runs
Problem jobs, newest first
What the next submission should ask for" ]
	# a blank line before each title
	screen | awk '/^(Workloads by compute|Findings across runs|Problem jobs, newest first|What the next submission should ask for)$/ {
		if (prev != "") exit 1 } { prev = $0 }'
}

@test "the workloads: the ten costliest, then the tail in one line" {
	run part "Workloads by compute" < <(screen)
	[ "${#lines[@]}" -eq 12 ]
	[[ "${lines[0]}" =~ ^workload\ +user\ +partition\ +runs\ +failed\ +noop\ +gpu_h\ +core_h\ +share\ +severity$ ]]
	[[ "${lines[1]}" =~ ^train-web\ +alice\ +gpu\ +22\  ]]
	[[ "${lines[1]}" == *" 16.8%"* ]]
	[[ "${lines[2]}" =~ ^rollout-gen\ +alice\ +gpu\ +1098\  ]]
	[[ "${lines[11]}" =~ ^460\ more\ workloads\ \([0-9]+\ runs\)\ holding\ [0-9.]+%\ of\ the\ compute$ ]]
}

@test "the findings: the article's cases across runs" {
	# The corpus array's kills ended with the rerun at 12G (issue 22):
	# resolved, it no longer takes a place among the alarms.
	! screen | grep -q 'warning   scan-corpus (alice): array-probes'
	screen | grep -qx 'warning   pretrain-slice-# (alice): near-limit'
	screen | grep -qx 'warning   reasoning-exp (alice): repeat-failure'
	screen | grep -q 'raising the limit will not help'
	screen | grep -qE '^[0-9]+ more findings: slurmpast --patterns$'
}

@test "the problem jobs: 25 lines, newest first, each with why" {
	run part "Problem jobs, newest first" < <(screen)
	[ "${#lines[@]}" -eq 27 ]	# header, 25 lines, how many more
	[[ "${lines[0]}" =~ ^jobid\ +name\ +state\ +started\ +finding$ ]]
	[[ "${lines[26]}" =~ ^[0-9]+\ more:\ slurmpast\ --top\ 0\ lists\ every\ one$ ]]
	# a line of several jobs starts "N jobs": its start is the newest's
	printf '%s\n' "${lines[@]:1:25}" |
		awk '{ print $2 == "jobs" ? $5 : $4 }' >"$BATS_TEST_TMPDIR/started"
	sort -r "$BATS_TEST_TMPDIR/started" | cmp - "$BATS_TEST_TMPDIR/started"
	printf '%s\n' "${lines[@]:1:25}" | grep -q 'blocked, not slow: held 1 GPU'
}

@test "--top 3 lists three problem jobs, --top 0 every one" {
	run slurmpast --demo --top 3
	[ "$status" -eq 1 ]
	run part "Problem jobs, newest first" <<<"$output"
	[ "${#lines[@]}" -eq 5 ]
	more=$(echo "${lines[4]}" | cut -d' ' -f1)
	shown=$(printf '%s\n' "${lines[@]:1:3}" | jobs_in_lines)
	run slurmpast --demo --top 0
	[ "$status" -eq 1 ]
	run part "Problem jobs, newest first" <<<"$output"
	[ "$(printf '%s\n' "${lines[@]:1}" | jobs_in_lines)" -eq $((more + shown)) ]
	! printf '%s\n' "${lines[@]}" | grep -q 'more: slurmpast --top 0'
}

@test "a requeued job's completed attempt is not a problem job" {
	# 51726950 failed with its node, then ran again and completed.
	run slurmpast --demo --top 0
	[ "$status" -eq 1 ]
	run part "Problem jobs, newest first" <<<"$output"
	printf '%s\n' "${lines[@]}" | grep -q '^51726950 .* NODE_FAIL '
	! printf '%s\n' "${lines[@]}" | grep -q '^51726950 .* COMPLETED '
}

@test "a failed job whose name is not UTF-8 is still a problem job" {
	# Latin-1 bytes in a name: a UTF-8 grep calls the line binary.
	local dump=$BATS_TEST_TMPDIR/dump.txt latin=$BATS_TEST_TMPDIR/latin.txt
	sp-fetch --demo-sacct --demo-jobs 300 >"$dump"
	id=$(awk -F '|' '$0 ~ /\|FAILED\|/ && $1 !~ /\./ { print $1; exit }' "$dump")
	[ -n "$id" ]
	awk -F '|' -v OFS='|' -v id="$id" '$1 == id { $3 = $3 "-r\351sum\351" } 1' \
		"$dump" >"$latin"
	grep -q "r$(printf '\351')sum" "$latin"
	run --separate-stderr env LC_ALL=C.UTF-8 slurmpast --input="$latin" --top 0
	[[ "$stderr" != *"binary file"* ]]
	run part "Problem jobs, newest first" <<<"$output"
	printf '%s\n' "${lines[@]}" | grep -q "^$id .*FAILED"
}

@test "an early exit stops the sp-size running beside the other stages" {
	bin=$(private_bin)
	# A slow sp-size that says who it is, then would run on for minutes.
	stage_fake "$bin" sp-size 'echo $$ >"$SP_PID_FILE"; exec sleep 300'
	export SP_PID_FILE=$BATS_TEST_TMPDIR/sp-size.pid
	"$bin/slurmpast" --demo >/dev/null 2>&1 &
	front=$!
	for i in $(seq 1 200); do
		[ -s "$SP_PID_FILE" ] && break
		sleep 0.1
	done
	[ -s "$SP_PID_FILE" ]
	kill -TERM "$front"
	wait "$front" || true
	pid=$(cat "$SP_PID_FILE")
	for i in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$pid" 2>/dev/null
}

@test "the advice: the article's raises as #SBATCH lines, the exclude line" {
	run part "What the next submission should ask for" < <(screen)
	printf '%s\n' "${lines[@]}" | grep -qx '#SBATCH --mem=61G'
	printf '%s\n' "${lines[@]}" | grep -qx '#SBATCH --time=12:30:00'
	printf '%s\n' "${lines[@]}" | grep -qx '#SBATCH --exclude=g\[003,011,017\]'
	printf '%s\n' "${lines[@]}" | grep -q '^# moe-gating-r# (bob), 5 runs: raise --mem from 24G; .*34.6 GiB'
	printf '%s\n' "${lines[@]}" | grep -q '^# ablate-warmup-# (carol), 8 runs: raise --time from 00:35:00; .*04:10:00'
	# the machines first, then the largest change
	[ "${lines[0]%%:*}" = "# rollout-gen (alice), 1098 runs" ]
	[ "${lines[4]%%:*}" = "# ablate-warmup-# (carol), 8 runs" ]
	[ "${lines[5]}" = "# from 8 runs; on this history advice from 6-10 runs cut off 0 of 383 later runs" ]
	# every line a comment or an #SBATCH line, then how many more
	n=${#lines[@]}
	for ((i = 0; i < n - 1; i++)); do
		[[ "${lines[i]}" == "# "* || "${lines[i]}" == "#SBATCH --"* ]] ||
			{ echo "line $i: ${lines[i]}"; return 1; }
	done
	[[ "${lines[n - 1]}" =~ ^[0-9]+\ more:\ slurmpast\ --sizing$ ]]
	[ "$(screen | grep -A 2 -x "${lines[n - 1]}" | sed -n 2,3p)" = "
Had the advice been followed since 2026-01-07: 26 of 228 kills avoided, 0 runs cut off, 86615 GiB-hours not reserved" ]
}

@test "the advice: the holds as comments alone, after the raises" {
	run part "What the next submission should ask for" < <(screen)
	printf '%s\n' "${lines[@]}" | grep -qx '# reasoning-exp (alice), 99 runs: hold --time at 00:30:00; blocked, not slow: 99 of the 99 timeouts (of 137 runs) used under 10 CPU-seconds, and a longer limit buys a longer hang; fix the blocking call (a data read, a lock, a rendezvous, a prompt); sp-hang lists the runs'
	printf '%s\n' "${lines[@]}" | grep -q '^# rc-tok-github_code (alice), 10 runs: hold --mem at 32G; .*no increment beyond 32G; .*; find what else changed between the runs'
	# no #SBATCH line after a hold, every raise before it
	n=${#lines[@]} holds=0
	for ((i = 0; i < n; i++)); do
		case ${lines[i]} in
		*" runs: hold "*)
			holds=$((holds + 1))
			[[ "${lines[i + 1]}" != "#SBATCH"* ]] ||
				{ echo "after a hold: ${lines[i + 1]}"; return 1; } ;;
		*" runs: raise "*)
			[ "$holds" -eq 0 ] ||
				{ echo "a raise after a hold: ${lines[i]}"; return 1; } ;;
		esac
	done
	[ "$holds" -eq 3 ]
}

# fake_advice ROWS: a copy of the toolkit whose sp-size's advice is the
# TSV rows in the file ROWS (its findings and costs the real ones).
fake_advice() {
	bin=$(private_bin)
	rm -f "$bin/sp-size"
	cat >"$bin/sp-size" <<FAKE
#!/bin/sh
case "\${1:-}" in
--findings|--cost|--running) exec "$SP_BIN/sp-size" "\$@" ;;
--findings-to=*) "$SP_BIN/sp-size" --findings >"\${1#*=}" ;;
*) cat >/dev/null ;;
esac
printf 'user\tworkload\tworkload_key\tflag\truns\tverdict\trequested_text\tsuggestion\tsbatch\tobserved_text\tbasis\tcaution\n'
cat "$1"
FAKE
	chmod +x "$bin/sp-size"
}

@test "the advice: capped as a comment alone; why there is nothing to change" {
	rows=$BATS_TEST_TMPDIR/rows
	printf 'alice\tbig\talice/gpu/gpu/big\t--mem\t9\tcapped\t1000G\t\t\t\tat the ceiling\ta larger request needs another partition\n' >"$rows"
	printf 'alice\tbig\talice/gpu/gpu/big\t--time\t9\tkeep\t01:00:00\t\t\t\tabout right\t\n' >>"$rows"
	fake_advice "$rows"
	run --separate-stderr "$bin/slurmpast" --demo
	run part "What the next submission should ask for" <<<"$output"
	[ "${lines[0]}" = "# big, 9 runs: capped --mem at 1000G; at the ceiling; a larger request needs another partition" ]
	# sp-size's records alone: its --exclude is one of them
	[ "${#lines[@]}" -eq 1 ]
	# every request judged and about right
	printf 'alice\tbig\talice/gpu/gpu/big\t--time\t9\tkeep\t01:00:00\t\t\t\tabout right\t\n' >"$rows"
	run --separate-stderr "$bin/slurmpast" --demo --sizing
	[ "${lines[2]}" = "# big, 9 runs: keep --time at 01:00:00; about right" ]
	[ "${#lines[@]}" -eq 4 ]
	run --separate-stderr "$bin/slurmpast" --demo
	run part "What the next submission should ask for" <<<"$output"
	[ "${lines[0]}" = "Nothing to change: every request is within 20% of what its history supports." ]
	# about right where judged, too few runs elsewhere
	printf 'bob\tsmall\tbob/gpu/gpu/small\t--time\t2\trefuse\t\t\t\t\t2 runs\t\n' >>"$rows"
	run --separate-stderr "$bin/slurmpast" --demo
	run part "What the next submission should ask for" <<<"$output"
	[ "${lines[0]}" = "Nothing to change where the history suffices: every request judged is within 20% of what its history supports; 1 of the 2 workloads has a request with fewer than the 3 usable runs a verdict needs." ]
	# nothing judged: no claim that anything is about right
	printf 'bob\tsmall\tbob/gpu/gpu/small\t--time\t2\trefuse\t\t\t\t\t2 runs\t\n' >"$rows"
	run --separate-stderr "$bin/slurmpast" --demo --sizing
	[ "${lines[2]}" = "No advice yet: the one workload has fewer than the 3 usable runs a verdict needs." ]
	[ "${#lines[@]}" -eq 4 ]
}

@test "too few runs anywhere is said, not called about right (slurm2sql)" {
	need_fixtures
	run --separate-stderr slurmpast --input "$FIXTURES/slurm2sql/test-data1.txt"
	[ "$status" -eq 0 ]
	[ "${lines[${#lines[@]} - 2]}" = "No advice yet: none of the 2 workloads has the 3 usable runs a verdict needs." ]
	[ "${lines[${#lines[@]} - 1]}" = "Had the advice been followed: n/a (no run had 3 earlier runs of its workload to judge it on)" ]
	[[ "$output" != *"Nothing to change"* ]]
	run --separate-stderr slurmpast --input "$FIXTURES/slurm2sql/test-data1.txt" --sizing
	[ "$status" -eq 0 ]
	[ "$output" = "What to request next time
No advice yet: none of the 2 workloads has the 3 usable runs a verdict needs.

Had the advice been followed: n/a (no run had 3 earlier runs of its workload to judge it on)" ]
}

@test "no colour when standard output is not a terminal" {
	! screen | grep -q $'\033'
}

@test "colour on a terminal; none with NO_COLOR, --no-color, --plain or TERM=dumb" {
	command -v script >/dev/null || skip "no script(1) to give a terminal"
	export TERM=xterm
	unset NO_COLOR
	# script's terminal has no size a pager could trust: none here
	export SLURMPAST_PAGER=cat
	script -qec "slurmpast --demo --overview" /dev/null >"$BATS_TEST_TMPDIR/tty"
	grep -q $'\033\[1m' "$BATS_TEST_TMPDIR/tty"
	for how in "NO_COLOR=1 slurmpast" "slurmpast --no-color" \
	    "slurmpast --plain" "TERM=dumb slurmpast"; do
		script -qec "env $how --demo --overview" /dev/null \
			>"$BATS_TEST_TMPDIR/tty"
		grep -q 'Workloads by compute' "$BATS_TEST_TMPDIR/tty"
		! grep -q $'\033' "$BATS_TEST_TMPDIR/tty" || { echo "$how"; return 1; }
	done
}

# The widest line of the screen, the lines the terminal wrapped joined.
widest() {
	term_screen -J
	printf '%s\n' "${lines[@]}" | widest_line
}

@test "a terminal: slurmpast --demo opens the dashboard on the demo" {
	term_exec 80 24 "slurmpast --demo"
	term_wait_for "? keys"
	[ "${lines[0]}" = "slurmpast · 470 workloads · by share of compute" ]
	# The headline says which history it browses.
	[ "${lines[3]}" = "3611 jobs of alice, bob and carol, 2026-01-05 to 2026-03-13, the synthetic demo" ]
	[ "${lines[4]}" = "(sp-fetch --demo), in 470 workloads; 4 still running or pending, left out." ]
	[ "${lines[5]}" = "Had the advice been followed since 2026-01-07: 26 of 228 kills avoided, 0 runs" ]
	[[ "${lines[8]}" == "train-web          alice gpu    22      1    0 4204.4"* ]]
	term_keys Enter
	term_wait_for "1 [runs]"
	term_keys Q
	term_dead
	[ "$output" = 0 ]
	[ "$(term_alt)" = 0 ]
	# Nothing copied, nothing to say: the main screen as it was.
	term_screen
	[ -z "$output" ]
	term_stop
	# y: the workload's #SBATCH lines on standard output once left.
	term_exec 80 24 "slurmpast --demo"
	term_wait_for "? keys"
	term_keys Down y
	term_wait_for "copied 3 #SBATCH lines of rollout-gen"
	term_keys q
	term_dead
	[ "$output" = 0 ]
	term_left
	[ "$output" = "$(printf '#SBATCH --time=01:45:00\n#SBATCH --mem=72G\n#SBATCH --exclude=g[003,011,017]')" ]
}

@test "a terminal: the view's workloads in the dashboard, every run of them" {
	term_exec 100 30 "slurmpast --demo --failed -r gpu"
	term_wait_for "? keys"
	[[ "$output" == *"the workloads of the jobs of partition gpu, failed"* ]]
	term_keys q
	term_dead
	[ "$output" = 0 ]
}

@test "a terminal: the text instead of the dashboard when asked" {
	local how
	for how in "slurmpast --demo --no-pager" "slurmpast --demo --plain" \
	    "slurmpast --demo --overview --no-pager" \
	    "TERM=dumb slurmpast --demo"; do
		term_start 100 400 "$how"
		term_wait_done
		term_screen
		[[ "$output" == *"Workloads by compute"* ]] ||
			{ echo "$how"; printf '%s\n' "$output" | head; return 1; }
		[[ "$output" != *"? keys"* ]]
		term_stop
	done
}

@test "a terminal: the screen fits 80 columns, through the pager, q leaves" {
	# A section asked for: the text, not the dashboard.
	term_start 80 24 "slurmpast --demo --overview --patterns --problems"
	term_wait_for "Demo: a synthetic history"
	# less holds the rest: the first screen only, and no prompt of ours
	term_screen
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	[[ "$output" != *"What the next submission"* ]]
	[ "$(widest)" -le 80 ]
	# tables cut their cells, the column keeping its name
	[[ "$output" == *"workload  user   partition"* ]]
	[[ "$output" == *"train-w…"* ]]
	term_keys q
	term_wait_done
}

# --plain on a terminal: no colour, no pager, and its tables as fitted as
# its prose (the screen wraps prose to the window; a table laid out for
# no width was wrapped as prose, a row broken under "  severity").
@test "a terminal 80 wide, --plain: no wider than the window, tables cut" {
	term_start 80 400 "slurmpast --demo --plain --overview --patterns 2>/dev/null"
	term_wait_done
	term_screen -J
	[ "$(widest)" -le 80 ]
	[[ "$output" != *$'\e'* ]]
	[[ "$output" == *"workload  user   partition"* ]]
	[[ "$output" == *"train-w…"* ]]
	# every row one line: none begins with the wrap's hanging indent
	[ -z "$(printf '%s\n' "$output" | sed -n '/^Workloads by compute/,/^$/p' |
		grep '^  ')" ]
	# into a pipe, as it was
	run --separate-stderr slurmpast --demo --plain --overview
	[[ "$output" == *"workload         user   partition  runs  failed  noop  gpu_h   core_h   share  severity"* ]]
	[[ "$output" == *$'\ntrain-web        alice  gpu'* ]]
}

@test "a terminal 40 wide: prose wrapped at words under a hanging indent" {
	# (messages on stderr are one line each, never wrapped)
	term_start 40 200 "slurmpast --demo --overview --no-pager 2>/dev/null"
	term_wait_done
	term_screen
	[ "$(widest)" -le 40 ]
	[ "${lines[2]}" = "26033 GPU-hours, 1568 of them in" ]
	[ "${lines[3]}" = "  allocations that never computed" ]
	# nothing broken inside a word
	[[ "$output" != *"pe"$'\n'"nding"* ]]
}

@test "a terminal 40 wide, a job id: the demo's own lines wrapped too" {
	term_start 40 200 "slurmpast --demo --no-pager 53904442 2>/dev/null"
	term_wait_done
	term_screen -J
	[ "$(widest)" -le 40 ]
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch" ]
	[ "${lines[1]}" = "  --demo), not a real cluster's record." ]
	[[ "${lines[4]}" == "53904442  "* ]]
	# into a pipe, as they are
	run --separate-stderr slurmpast --demo 53904442
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
}

@test "a terminal: --no-pager and SLURMPAST_PAGER=cat write it all at once" {
	# (a section asked for, so the text and not the dashboard)
	for how in "slurmpast --demo --no-pager" \
	    "SLURMPAST_PAGER=cat slurmpast --demo --overview --patterns --problems" \
	    "PAGER= slurmpast --demo --overview --patterns --problems"; do
		term_start 100 400 "$how"
		term_wait_done
		term_screen
		[[ "$output" == *"Problem jobs, newest first"* ]] ||
			{ echo "$how"; printf '%s\n' "$output" | head; return 1; }
		term_stop
	done
}

@test "--width: the screen laid out for it into a pipe too; below 40 refused" {
	run --separate-stderr slurmpast --demo --overview --width 60
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | widest_line)" -le 60 ]
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real" ]
	[ "${lines[1]}" = "  cluster's record." ]
	[ "${lines[5]}" = "3611 jobs of alice, bob and carol, 2026-01-05 to 2026-03-13," ]
	[ "${lines[6]}" = "  in 470 workloads; 4 still running or pending, left out." ]
	run --separate-stderr slurmpast --demo --width 39
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --width: '39' is not a count (40 or more)" ]
}

@test "--plain is the screen a pipe gets" {
	run --separate-stderr slurmpast --demo --plain
	[ "$status" -eq 1 ]
	[ "$output" = "$(screen)" ]
}

@test "the filters' warnings reach standard error once, as ours" {
	[ -s "$BATS_FILE_TMPDIR/screen.err" ]
	! grep -v '^slurmpast: ' "$BATS_FILE_TMPDIR/screen.err"
	[ -z "$(sort "$BATS_FILE_TMPDIR/screen.err" | uniq -d)" ]
}

# ----------------------------------------------------------------------
# Sections

@test "--overview: the headline and the workloads, exit 0" {
	recall overview
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	[[ "${lines[1]}" == *" of them in allocations that never computed" ]]
	[[ "$output" == *$'\nWorkloads by compute\n'* ]]
	[[ "$output" != *"Findings across runs"* ]]
}

@test "--patterns: every finding across runs, exit 1 for a critical one" {
	recall patterns
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "Findings across runs" ]
	[ "${lines[2]}" = "critical  rc-tok-github_code (alice): memory-search" ]
	[[ "$output" != *"more findings"* ]]
	# A raise that held (issue 22): the change, and the alarm it resolved.
	[[ "$output" == *$'\ninfo      scan-corpus (alice): array-probes\n          Resolved by --mem 6G -> 12G on 2026-02-10 (142 runs since, none killed for memory). Found before the change: Array 52581003 '* ]]
	[[ "$output" == *$'\ninfo      scan-corpus (alice): change-held\n          --mem 6G -> 12G on 2026-02-10: 142 runs since, none killed for memory; 71 of 142 before were.'* ]]
	n=$(printf '%s\n' "$output" | grep -cE '^(critical|warning|info) ')
	m=$(grep -c '^{"section":"patterns",' "$BATS_FILE_TMPDIR/patterns.json.out")
	[ "$n" -eq "$m" ]
}

@test "--hangs: the allocations that computed nothing" {
	recall hangs
	[ "$status" -eq 1 ]	# they hung: a critical finding (sp-hang's 1)
	[ "${lines[1]}" = "Allocations that computed nothing" ]
	[[ "$output" == *"53563545"*"node-evaluation"* ]]
	[[ "$output" == *"blocked, not slow"* ]]
}

@test "--nodes: the machines, and the line that leaves the bad ones out" {
	recall nodes
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "Machines that fail one workload" ]
	printf '%s\n' "$output" | grep -qE '^g003 .* worse'
	printf '%s\n' "$output" | grep -qE '^g041 .* better'
	[ "${lines[${#lines[@]} - 1]}" = '#SBATCH --exclude=g[003,011,017]' ]
	[ "${lines[${#lines[@]} - 2]}" = '# rollout-gen (alice): leave out g003, g011, g017, worse than the other machines for it' ]
}

@test "--nodes --metric failure --all-workloads reach sp-nodes" {
	run --separate-stderr slurmpast --demo --nodes --metric failure --all-workloads
	[ "$status" -eq 0 ]
	[[ "$output" == *"metric failure"* ]]
	[[ "$output" == *"confounded"* ]]
	# a confounded table gives no line to paste
	[[ "$output" != *"#SBATCH"* ]]
	[[ "${lines[-1]}" == "# not to paste: the rows pool "* ]]
}

# Issue 14, item 4: the one-job view suggested --time=16:15:00 where
# train-web's runs took up to 16:24:50 and --sizing said 19:30:00.
@test "one job's view: its workload's figures, with the runs they rest on" {
	run --separate-stderr slurmpast --demo 51176530
	[[ "$output" == *"A tighter --time=19:30:00 (sp-size's advice from 21 runs of this workload)"* ]]
	[[ "$output" != *"16:15:00"* ]]
	run --separate-stderr slurmpast --demo 51126620
	[[ "$output" == *"--mem=72G (sp-size's advice from 993 runs of this workload)"* ]]
	[[ "$output" != *"--mem=55G"* ]]
}

# Issue 30, item 4: killed at 18G where 32G is known to complete.
@test "one job's view: a run killed below the memory hold's size is told that size, never 'do not raise'" {
	run --separate-stderr slurmpast --demo 53508535
	[ "$status" -eq 1 ]
	[[ "$output" == *"Raise --mem to 32G, the size this workload is held at: job 53511658"* ]]
	[[ "$output" != *"Do not raise"* ]]
}

@test "a pooled node table of a real dump: nothing to paste (pozidriv)" {
	need_fixtures
	run --separate-stderr slurmpast --input "$FIXTURES/xdmod/pozidriv.log" \
		--fields JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName \
		--nodes --metric failure --all-workloads
	[ "$status" -eq 0 ]
	[[ "$output" == *"confounded"* ]]
	[[ "$output" != *"#SBATCH --exclude"* ]]
}

@test "--sizing: every verdict workload by workload, the refusals counted" {
	recall sizing
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "What to request next time" ]
	printf '%s\n' "$output" | grep -q '^# rc-tok-github_code (alice), 10 runs: hold --mem at 32G; .*no increment beyond 32G'
	printf '%s\n' "$output" | grep -q '^# reasoning-exp (alice), 99 runs: hold --time at 00:30:00; blocked, not slow'
	printf '%s\n' "$output" | grep -qx '#SBATCH --mem=61G'
	[[ "${lines[${#lines[@]} - 2]}" =~ ^[0-9]+\ refused:\ fewer\ than\ 3\ usable\ runs\ of\ the\ workload$ ]]
	[[ "${lines[${#lines[@]} - 1]}" == "Had the advice been followed since 2026-01-07: "* ]]
	# the costliest workload first
	[[ "${lines[2]}" == "# train-web (alice), 2"?" runs: "* ]]
}

@test "--cost: what following the advice would change" {
	recall cost
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "The value of following the advice" ]
	printf '%s\n' "$output" | grep -q '^memory  *GiB-hours'
}

@test "sections combine in one order, a blank line between" {
	run --separate-stderr slurmpast --demo --cost --hangs --overview
	[ "$status" -eq 1 ]	# the hangs
	titles=$(printf '%s\n' "$output" | grep -n -x -e 'Workloads by compute' \
		-e 'Allocations that computed nothing' \
		-e 'The value of following the advice')
	[ "$(echo "$titles" | cut -d: -f2)" = "Workloads by compute
Allocations that computed nothing
The value of following the advice" ]
	for n in $(echo "$titles" | sed -n '2,$p' | cut -d: -f1); do
		[ -z "$(printf '%s\n' "$output" | sed -n "$((n - 1))p")" ] ||
			{ echo "no blank before line $n"; return 1; }
	done
	[[ "$output" != *"Findings across runs"* ]]
}

@test "--sort reaches the rollup" {
	run --separate-stderr slurmpast --demo --overview --sort runs
	[ "$status" -eq 0 ]
	run part "Workloads by compute" <<<"$output"
	[[ "${lines[1]}" =~ ^rollout-gen\  ]]
}

# ----------------------------------------------------------------------
# --json

@test "--json: each section's records parse, one object a line, tagged" {
	for s in overview patterns hangs nodes sizing cost; do
		jq -e . "$BATS_FILE_TMPDIR/$s.json.out" >/dev/null ||
			{ echo "$s does not parse"; return 1; }
		# the headline, then the section's own records
		[ "$(head -1 "$BATS_FILE_TMPDIR/$s.json.out" | jq -r .section)" = headline ]
		jq -c "select(.section == \"$s\") | del(.section)" \
			"$BATS_FILE_TMPDIR/$s.json.out" >"$BATS_TEST_TMPDIR/$s.json"
		[ -s "$BATS_TEST_TMPDIR/$s.json" ]
		grep -qx "slurmpast: --demo: a synthetic history, not a real cluster's record" \
			"$BATS_FILE_TMPDIR/$s.json.err"
	done
	[ "$(jq -s length "$BATS_TEST_TMPDIR/overview.json")" -eq 470 ]
	[ "$(jq -r -s '.[0].label' "$BATS_TEST_TMPDIR/overview.json")" = train-web ]
	[ "$(jq -r 'select(.code == "memory-search") | .severity' \
		"$BATS_TEST_TMPDIR/patterns.json")" = critical ]
	[ "$(jq -r 'select(.node == "g003") | .verdict' \
		"$BATS_TEST_TMPDIR/nodes.json")" = worse ]
	[ "$(jq -r 'select(.workload == "moe-gating-r#" and .flag == "--mem") | .sbatch' \
		"$BATS_TEST_TMPDIR/sizing.json")" = "#SBATCH --mem=61G" ]
	jq -s -e 'map(select(.resource == "memory")) | length == 1' \
		"$BATS_TEST_TMPDIR/cost.json" >/dev/null
}

@test "--json exit status: 1 where a critical finding is written, else 0" {
	for s in overview patterns hangs nodes sizing cost; do
		want=0
		# every workload's row is written, the tokenizer's critical
		# too; the demo's hangs are critical
		[ $s = patterns ] || [ $s = overview ] || [ $s = hangs ] && want=1
		[ "$(cat "$BATS_FILE_TMPDIR/$s.json.status")" -eq $want ] ||
			{ echo "$s"; return 1; }
	done
}

@test "--json with a job id: sp-show's JSON of the job" {
	run --separate-stderr slurmpast --demo --json 53449206
	[ "$status" -eq 0 ]
	[ "$(jq -r .jobid <<<"$output")" = 53449206 ]
	[ "$(jq -r .name <<<"$output")" = eval-ckpt-4000 ]
	jq -e '.findings[] | select(.code == "rss-above-limit")' <<<"$output" >/dev/null
}

@test "--json without a section: every section, one record a line" {
	run --separate-stderr slurmpast --demo --json
	[ "$status" -eq 1 ]
	[ "$(jq -r .section <<<"$output" | uniq | tr '\n' ' ')" = \
	  "headline overview running patterns problems hangs nodes exclude sizing cost backtest " ]
	[ "$(jq -r 'select(.section == "headline") | .lead' <<<"$output")" = idle ]
	[ "$(jq -r 'select(.section == "headline") | .jobs' <<<"$output")" = 3611 ]
	# sp-hang's own "section" is the row's kind
	[ "$(jq -r 'select(.section == "hangs") | .row' <<<"$output" | head -1)" = record ]
	# every problem job (--json is whole), their own finding beside
	[ "$(jq -s 'map(select(.section == "problems")) | length' <<<"$output")" -eq 583 ]
	[ "$(jq -r 'select(.section == "problems") | .jobid' <<<"$output" | head -1)" = 53904442 ]
	# the advice replayed: one record per flag, policy and evidence
	[ "$(jq -s 'map(select(.section == "backtest")) | length' <<<"$output")" -eq 30 ]
	jq -s -e 'map(select(.section == "backtest" and .policy == "advice" and
		.flag == "--time" and .runs_before == "all")) | .[0].judged > 0' \
		<<<"$output" >/dev/null
	# numbers are numbers
	jq -s -e 'map(select(.section == "cost" and .resource == "memory")) |
		.[0].requested | type == "number"' <<<"$output" >/dev/null
	jq -s -e 'map(select(.section == "sizing" and .flag == "--mem")) |
		.[0] | (.requested | type == "number") and
		(.observed | type == "number")' <<<"$output" >/dev/null
	# in every section no figure is a string: ids are names, the
	# advice's requested_text is the flag's own text ("12", "800G")
	# beside its requested, and the replay's runs_before names a level
	# of evidence ("3", "4-5", "11+", "all")
	[ -z "$(jq -r 'to_entries[] | select((.value | type) == "string" and
		(.value | test("^-?[0-9]+([.][0-9]+)?$")) and
		(.key | test("^(jobid|jobid_raw|array_job|array_task|requested_text|runs_before)$") | not)) |
		.key' <<<"$output" | sort -u)" ]
	run --separate-stderr slurmpast --demo --json --overview --nodes
	[ "$(jq -r .section <<<"$output" | uniq | tr '\n' ' ')" = \
	  "headline overview nodes exclude " ]
}

@test "--json is whole: every problem job, or a record saying how many more" {
	run --separate-stderr slurmpast --demo --json --problems
	[ "$status" -eq 0 ]
	n=$(jq -r 'select(.section == "problems") | .jobid' <<<"$output" | wc -l)
	[ "$n" -eq 583 ]
	[ "$(jq -r 'select(.left_out) | .left_out' <<<"$output")" = "" ]
	run --separate-stderr slurmpast --demo --json --problems --top 3
	[ "$(jq -r 'select(.section == "problems" and .jobid) | .jobid' <<<"$output" | wc -l)" -eq 3 ]
	[ "${lines[-1]}" = '{"section":"problems","left_out":580,"more":"slurmpast --json --top 0 gives every one"}' ]
}

@test "--json of a history with no problem job: every section still comes" {
	need_fixtures
	run --separate-stderr slurmpast --json --input "$FIXTURES/slurm2sql/test-data1.txt"
	[ "$status" -eq 0 ]
	[ "$(jq -r .section <<<"$output" | uniq | tr '\n' ' ')" = \
	  "headline overview hangs nodes exclude sizing cost backtest " ]
	run --separate-stderr slurmpast --plain --problems --input "$FIXTURES/slurm2sql/test-data1.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "Problem jobs, newest first
No job failed or sat idle." ]
}

@test "problem jobs that say the same thing are one line (hpc-cost-simulator's exit 1)" {
	need_fixtures
	run --separate-stderr slurmpast --plain --problems \
		--input "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" \
		--fields State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == "89 jobs    n/a   FAILED         2022-03-02T21:01:13  exit-nonzero-nolog: Exited 1, and no log was found to explain it."*" (134217915, 134217914, 134217913, 134217912, 134217911 and 84 more)" ]]
	# no two lines say the same thing
	[ "$(printf '%s\n' "${lines[@]:2:25}" | sed 's/^[^ ]* *\(jobs \)* *//' | sort | uniq -d)" = "" ]
	[ "${lines[-1]}" = "267 more: slurmpast --top 0 lists every one" ]
}

# ----------------------------------------------------------------------
# Job ids

@test "a job id: the article's figure 3, exit 0 (warnings only)" {
	run --separate-stderr slurmpast --demo --no-color 53449206
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	# sp-show's "not read (--no-logs)": slurmpast passed it, and says so
	[ "${lines[1]}" = "The demo's log files are on no disk: slurmpast passes sp-show --no-logs." ]
	[[ "${lines[2]}" == "53449206  eval-ckpt-4000  COMPLETED"* ]]
	[[ "$output" == *$'\nlog\n  not read (--no-logs)'* ]]
	[[ "$output" == *"above the 32.0 GiB limit"* ]]
	[[ "$output" == *"48.7%"* ]]
	[[ "$output" != *$'\033'* ]]
}

@test "a job id with a critical finding exits 1" {
	run --separate-stderr slurmpast --demo 53563545
	[ "$status" -eq 1 ]
	[[ "$output" == *"node-evaluation"* ]]
}

@test "several job ids, and an array's own id stands for its tasks" {
	run --separate-stderr slurmpast --demo --no-color 53449206 52581003
	[ "$status" -eq 1 ]
	[[ "$output" == *$'\n53449206  eval-ckpt-4000'* ]]
	# The array as one view (sp-show's), a row a task: not 142
	# post-mortems.
	[[ "$output" == *$'\n52581003  scan-corpus  array, 142 tasks'* ]]
	[[ "$output" == *$'\n52581003_0    scan-corpus  COMPLETED'* ]]
	[[ "$output" == *$'\n52581003_141  scan-corpus  COMPLETED'* ]]
	[ "$(printf '%s\n' "$output" | grep -c 'scan-corpus  OUT_OF_MEMORY killed')" -eq 0 ]
}

@test "an array's unexpanded tasks are each asked for" {
	run --separate-stderr slurmpast --demo --no-color '52581003_[1-2,140%5]'
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -cE '^52581003_(1|2|140)  scan-corpus')" -eq 3 ]
	[ "$(printf '%s\n' "$output" | grep -cE '^52581003_[0-9]+  ')" -eq 3 ]
	# a range is matched, never expanded: no limit on its size
	run --separate-stderr slurmpast --demo --no-color '52581003_[0-20000]'
	[ "$status" -eq 1 ]
	[[ "$output" == *$'\n52581003_141  scan-corpus'* ]]
}

@test "--ascii reaches the post-mortem" {
	run --separate-stderr slurmpast --demo --ascii 53449206
	[ "$status" -eq 0 ]
	[[ "$output" != *"█"* ]]
	[[ "$output" != *"→"* ]]
}

@test "a job id with no record: the others shown, those named, exit 2" {
	run --separate-stderr slurmpast --demo --no-color 999 53449206 998
	[ "$status" -eq 2 ]
	[[ "$output" == *$'\n53449206  eval-ckpt-4000'* ]]
	[ "$stderr" = "slurmpast: no job 999, 998 in the input" ]
}

@test "a job id that is not one: one line, exit 2" {
	fake_sacct
	for id in abc 12a '1;rm' '12_[3'; do
		for how in "$id" -j"$id" "--jobs=$id"; do
			run --separate-stderr slurmpast --demo "$how"
			[ "$status" -eq 2 ]
			[ -z "$output" ]
			[ "$stderr" = "slurmpast: '$id' is not a job id (123, 123_4, 123_[1-3,7], 123+1)" ] ||
				{ echo "$how: $stderr"; return 1; }
		done
	done
	run --separate-stderr slurmpast --demo ''
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: an empty job id" ]
	# refused before sacct is asked
	run --separate-stderr slurmpast abc
	[ "$status" -eq 2 ]
	[ ! -e "$FAKE_SACCT_LOG" ]
}

# ----------------------------------------------------------------------
# --input: a saved dump

@test "--input: a saved dump, read as the demo is, the file named" {
	sp-fetch --demo-sacct >"$BATS_TEST_TMPDIR/dump.psv"
	run --separate-stderr slurmpast --input "$BATS_TEST_TMPDIR/dump.psv" --overview
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *" of them in allocations that never computed" ]]
	printf '%s\n' "$output" | grep -qx "3611 jobs of alice, bob and carol, 2026-01-05 to 2026-03-1[0-9], read from $BATS_TEST_TMPDIR/dump.psv (site facts unknown: not asked of this machine), in 470 workloads; 4 still running or pending, left out."
	[[ "$output" != *"Demo:"* ]]
}

@test "--input -: standard input; filters and job ids on its records" {
	run --separate-stderr slurmpast --input - -u alice --no-color 1003 \
		<"$SP_TOP/t/fake/rows.psv"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "1003  oom  OUT_OF_MEMORY"* ]]
	run --separate-stderr slurmpast --input - -u bob <"$SP_TOP/t/fake/rows.psv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: no job in - matches" ]
}

@test "a window where nothing has ended is an empty window: one line, exit 2" {
	head -1 "$SP_TOP/t/fake/rows.psv" >"$BATS_TEST_TMPDIR/running.psv"
	echo '2001|2001|train|alice|1000|lab|c1|gpu|normal|RUNNING|0:0|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:00:10|Unknown|01:00:00|3600|02:00:00|8G|8|billing=8,cpu=8,mem=8G,node=1|8|1|n1|00:00:00|08:00:00||00:00:10|/home/alice/out.txt' \
		>>"$BATS_TEST_TMPDIR/running.psv"
	for how in "" --json --html --overview; do
		run --separate-stderr slurmpast $how --input "$BATS_TEST_TMPDIR/running.psv"
		[ "$status" -eq 2 ] || { echo "$how: $status"; return 1; }
		[ -z "$output" ]
		[ "$stderr" = "slurmpast: no job in $BATS_TEST_TMPDIR/running.psv ended" ]
	done
}

@test "more than three users are counted, not named" {
	sp-fetch --demo-sacct | awk -F '|' -v OFS='|' '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "User") u = i }
		NR > 1 && $u == "carol" && NR % 2 { $u = "dave" } { print }' \
		>"$BATS_TEST_TMPDIR/four.psv"
	run --separate-stderr slurmpast --input "$BATS_TEST_TMPDIR/four.psv" --overview
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n3611 jobs of 4 users, 2026-01-05 to '* ]]
}

@test "--input: a file that is not there; --demo with --input" {
	run --separate-stderr slurmpast --input "$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: $BATS_TEST_TMPDIR/none: No such file or directory" ]
	run --separate-stderr slurmpast --demo --input x
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --demo and --input are different histories: choose one" ]
}

@test "--input --fields: a headerless dump (Open XDMoD's pozidriv)" {
	need_fixtures
	dump=$FIXTURES/xdmod/pozidriv.log
	run --separate-stderr slurmpast --input "$dump" --overview
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: $dump: the first line is not a sacct header (it names no JobID); give the fields with --fields" ]
	run --separate-stderr slurmpast --input "$dump" --overview \
		--fields JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "11704 jobs of 18 users, 2016-12-22 to 2017-01-01, read from $dump (site facts unknown: not asked of this machine), in 10378 workloads." ]
}

@test "--fields: only with --input, and not empty" {
	run --separate-stderr slurmpast --demo --fields JobID
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: --fields names the columns of an --input dump" ]
	run --separate-stderr slurmpast --input x --fields=
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --fields: no value given" ]
}

# ----------------------------------------------------------------------
# Refusals: one line, exit 2, nothing asked of sacct

@test "bad options: one line each, exit 2, before sacct runs" {
	fake_sacct
	check() {
		local want=$1
		shift
		run --separate-stderr slurmpast "$@"
		[ "$status" -eq 2 ] || { echo "$*: status $status"; return 1; }
		[ -z "$output" ] || { echo "$*: stdout $output"; return 1; }
		[ "$stderr" = "slurmpast: $want" ] ||
			{ echo "$*: $stderr"; return 1; }
	}
	check "-u and -a ask for different things: choose one" -u alice --all-users
	check "-u and -a ask for different things: choose one" -ualice -a
	check "-M and -L ask for different things: choose one" -M c1 -L
	check "-M and -L ask for different things: choose one" --allclusters --clusters=c1
	check "-u: no value given" -u ''
	check "-r: no value given" -r ''
	check "--account: no value given" --account=
	check "--top: '-1' is not a count (0 or more)" --top -1
	check "--top: 'many' is not a count (0 or more)" --top many
	check "--top: no value given" --top ''
	check "-s: unknown state 'DONE' (sacct's states: CD COMPLETED, F FAILED, TO TIMEOUT, OOM OUT_OF_MEMORY, CA CANCELLED, NF NODE_FAIL, ...; see sacct(1))" -s DONE
	check "-s and --failed both choose states: give one" -s F --failed
	check "-r: an empty value in the list" -r gpu,,cpu
	check "--width: '20' is not a count (40 or more)" --width 20
	check "--width: 'wide' is not a count (40 or more)" --width=wide
	check "-S needs a value" -S
	check "--demo takes no value" --demo=yes
	check "--input: no value given" --input ''
	check "--input needs a value" --input
	check "--sort: unknown key 'size' (cost, failures, rate, recent, runs or name)" --sort size
	check "--metric is hang or failure, not 'slow'" --metric=slow
	check "--plain and --json are different outputs: choose one" --plain --json --overview
	check "job ids and sections ask for different things: choose one" 123 --sizing
	check "job ids and the view options (-r, -A, -s, --failed, ...) ask for different things: choose one" -r gpu 123
	check "unknown option '--bogus' (see slurmpast --help)" --bogus
	# what means another thing to sacct is refused, with what means it here
	check "-p is sacct's --parsable: the partition is -r (--partition), and --json gives records" -p gpu
	check "-p is sacct's --parsable: the partition is -r (--partition), and --json gives records" --parsable
	check "-P is sacct's --parsable2: --json gives records, sp-fetch the TSV ones" -P
	check "--parsable2 is sacct's --parsable2: --json gives records, sp-fetch the TSV ones" --parsable2
	check "-l chooses sacct's columns: slurmpast reads the fields it needs" -l
	check "--long chooses sacct's columns: slurmpast reads the fields it needs" --long
	check "-n is sacct's --noheader: the problem jobs listed are --top N" -n 3
	check "--limit is now --top" --limit=3
	check "-o: slurmpast reads the fields it needs; a dump with other fields is read with --input FILE --fields LIST" -o JobID
	[ ! -e "$FAKE_SACCT_LOG" ]
}

@test "nothing from the command line is run by the shell" {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr slurmpast --demo -u '$(touch pwned)' -r '`touch pwned`'
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: no demo job matches" ]
	run --separate-stderr slurmpast --demo -u 'x;touch pwned' --sort '$(touch pwned)'
	[ "$status" -eq 2 ]
	[ ! -e pwned ]
}

# ----------------------------------------------------------------------
# A real query (sacct faked), and what goes wrong with one

@test "a real query: sacct asked once, the window said as asked" {
	fake_sacct
	run --separate-stderr slurmpast
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "2 of 3 jobs failed" ]
	[ "${lines[1]}" = "3 jobs of alice, 2026-01-05 to 2026-01-05, in 3 workloads." ]
	[[ "$output" == *$'\n1003   oom '* ]]
	# one query: every call but the --helpformat probe
	queries=$(awk '/^--$/ { if (!probe) n++; probe = 0; next }
		/^--helpformat$/ { probe = 1 } END { print n }' "$FAKE_SACCT_LOG")
	[ "$queries" -eq 1 ]
}

@test "the window options reach sacct; the view options do not" {
	fake_sacct
	run --separate-stderr slurmpast -u alice -S 2026-01-01 -E 2026-01-31 \
		-r cpu -A lab --failed --overview
	[ "$status" -eq 0 ]
	log=$(tr '\n' ' ' <"$FAKE_SACCT_LOG")
	[[ "$log" == *"-u alice "* ]]
	[[ "$log" == *"-S 2026-01-01 "* ]]
	[[ "$log" == *"-E 2026-01-31 "* ]]
	# every run of a workload shown is judged: sacct is not asked to
	# leave any out
	[[ "$log" != *"-r cpu "* ]]
	[[ "$log" != *"-A lab "* ]]
	[[ "$log" != *"--state"* ]]
	[[ "$output" == *"of the 2 jobs shown (partition cpu, account lab, failed)."* ]]
}

@test "-L and -M reach sacct as sacct's own; on the demo they choose its cluster" {
	fake_sacct
	run --separate-stderr slurmpast -L --overview
	[ "$status" -eq 0 ]
	log=$(tr '\n' ' ' <"$FAKE_SACCT_LOG")
	[[ "$log" == *" -M all "* ]]	# sacct's own spelling of -L
	: >"$FAKE_SACCT_LOG"
	run --separate-stderr slurmpast --allclusters --overview
	[ "$status" -eq 0 ]
	[[ "$(tr '\n' ' ' <"$FAKE_SACCT_LOG")" == *" -M all "* ]]
	run --separate-stderr slurmpast --demo -L --overview
	[ "$status" -eq 0 ]
	[[ "$output" == *"3611 jobs of alice, bob and carol"* ]]
	run --separate-stderr slurmpast --demo -M elsewhere --overview
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: no demo job matches" ]
}

@test "a job id on a real cluster: asked by id, the window read too" {
	fake_sacct
	run --separate-stderr slurmpast --no-color 1003
	[ "$status" -eq 1 ]	# killed for memory: critical
	[[ "$output" == "1003  oom  OUT_OF_MEMORY"* ]]
	log=$(tr '\n' ' ' <"$FAKE_SACCT_LOG")
	[[ "$log" == *"-j 1003 "* ]]
}

@test "an empty window: what was asked, exit 2" {
	head -1 "$SP_TOP/t/fake/rows.psv" >"$BATS_TEST_TMPDIR/empty.psv"
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/empty.psv
	fake_sacct
	run --separate-stderr slurmpast -u alice
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: no jobs for alice since now-7days" ]
}

@test "no sacct on PATH: one line, exit 2" {
	path="$SP_BIN:$(tools)"
	run --separate-stderr env PATH="$path" slurmpast
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: sacct is not on PATH: load your site's Slurm module (module load slurm), or try --demo" ]
	run --separate-stderr env PATH="$path" slurmpast 123
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: sacct is not on PATH: load your site's Slurm module (module load slurm), or try --demo" ]
}

@test "accounting off: one line, exit 2" {
	mkdir -p "$BATS_TEST_TMPDIR/off"
	stage_fake "$BATS_TEST_TMPDIR/off" sacct \
		'echo "Slurm accounting storage is disabled" >&2; exit 1'
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/off:$SP_BIN:$(tools)" \
		slurmpast
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "slurmpast: Slurm accounting storage is disabled on this cluster"* ]]
}

@test "a filter failing in the middle: its own line, as ours; no screen" {
	bin=$(private_bin)
	stage_fake "$bin" sp-size 'cat >/dev/null
echo "sp-size: <stdin>:812: field '"'elapsed_s'"' is not a number: \"1:00\"" >&2
exit 2'
	run --separate-stderr "$bin/slurmpast" --demo
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: <stdin>:812: field 'elapsed_s' is not a number: \"1:00\"" ]
	# the other sections do not need sp-size
	run --separate-stderr "$bin/slurmpast" --demo --hangs
	[ "$status" -eq 1 ]
}

@test "a filter killed by a signal, a filter missing: one line, exit 2" {
	bin=$(private_bin)
	stage_fake "$bin" sp-hang 'kill -9 $$'
	run --separate-stderr "$bin/slurmpast" --demo --hangs
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: sp-hang was killed by signal 9" ]
	rm "$bin/sp-nodes"
	run --separate-stderr env PATH="$bin:$(tools)" "$bin/slurmpast" --demo --nodes
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: cannot find sp-nodes beside this program or on PATH" ]
}

@test "the filters are found on PATH when none is beside the script" {
	mkdir -p "$BATS_TEST_TMPDIR/alone"
	cp "$SP_BIN/slurmpast" "$BATS_TEST_TMPDIR/alone/"
	run --separate-stderr "$BATS_TEST_TMPDIR/alone/slurmpast" --demo --overview
	[ "$status" -eq 0 ]
	[[ "$output" == *"Workloads by compute"* ]]
}

@test "control characters from a record are shown, not obeyed" {
	sed 's/|train_s1e20|/|train\x1b[2Jx|/' "$SP_TOP/t/fake/rows.psv" \
		>"$BATS_TEST_TMPDIR/esc.psv"
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/esc.psv
	fake_sacct
	run --separate-stderr slurmpast
	[ "$status" -eq 0 ]
	[[ "$output" == *'train\x1b[2Jx'* ]]
	[[ "$output" != *$'\033'* ]]
}

@test "a failed write is exit 2 with one line; a reader that leaves is none" {
	run --separate-stderr bash -c 'slurmpast --demo --overview >/dev/full'
	[ "$status" -eq 2 ]
	[ "${stderr_lines[-1]}" = "slurmpast: <stdout>: No space left on device" ]
	# every output: the failed write said once, in our words; the rest
	# of standard error is the stages' warnings
	for args in "--demo 51031108" "--demo --json" "--demo --html" "--demo --sizing --json"; do
		run --separate-stderr bash -c "slurmpast $args >/dev/full"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; return 1; }
		[ "$(printf '%s\n' "$stderr" | grep -c 'No space left on device')" -eq 1 ] ||
			{ echo "$args: $stderr"; return 1; }
		! printf '%s\n' "$stderr" | grep -v '^slurmpast: ' ||
			{ echo "$args: not ours: $stderr"; return 1; }
	done
	run --separate-stderr bash -c 'slurmpast --demo | head -1'
	[ "$status" -eq 0 ]
	[ "$output" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	! printf '%s\n' "$stderr" | grep -Eq 'error|killed|Broken pipe'
}

@test "the front door needs nothing on PATH but its stages" {
	# No shell, awk, sed or cat between it and the stages: PATH holds
	# the build alone, and the answer is the same.
	run --separate-stderr env PATH="$SP_BIN" "$SP_BIN/slurmpast" --demo --overview --plain
	[ "$status" -eq 0 ]
	[ "$output" = "$(slurmpast --demo --overview --plain 2>/dev/null)" ]
	run --separate-stderr env PATH="$SP_BIN" "$SP_BIN/slurmpast" --demo --attribute --json
	[ "$status" -eq 1 ]
	[ "$output" = "$(slurmpast --demo --attribute --json 2>/dev/null)" ]
}

# ----------------------------------------------------------------------
# --advise: the window's advice written into a batch script

rollout_sh() {
	printf '%s\n' '#!/bin/bash' '#SBATCH --job-name=rollout-gen' \
		'#SBATCH --partition=gpu' '#SBATCH --gres=gpu:2' \
		'#SBATCH --mem=128G' '#SBATCH -t 8:00:00' 'python rollout.py' >"$1"
}

@test "--advise: the script as sp-size --script writes it from the window" {
	cd "$BATS_TEST_TMPDIR"
	rollout_sh rollout.sh
	run --separate-stderr slurmpast --demo -u alice --advise rollout.sh
	[ "$status" -eq 0 ]
	[ "$output" = "$(sp-fetch --demo -u alice 2>/dev/null | sp-group |
		SLURMPAST_NO_SITE=1 sp-size --script rollout.sh -u alice 2>/dev/null)" ]
	[[ "$output" == *$'\n#SBATCH --mem=72G\n'* ]]
	[ "${stderr_lines[0]}" = "slurmpast: rollout.sh: the advice of alice/gpu/gpu/rollout-gen, 1098 runs" ]
	# --diff and --in-place reach it
	run --separate-stderr slurmpast --demo -u alice --advise rollout.sh --diff
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "--- rollout.sh" ]
	cp rollout.sh orig
	run --separate-stderr slurmpast --demo -u alice --advise=rollout.sh --in-place
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	cmp rollout.sh~ orig
	grep -qx '#SBATCH -t 1:45:00' rollout.sh
}

@test "--advise: a workload with no history, and every refusal, one line and exit 2" {
	cd "$BATS_TEST_TMPDIR"
	rollout_sh rollout.sh
	run --separate-stderr slurmpast --demo -u bob --advise rollout.sh
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${stderr_lines[-1]}" = "slurmpast: rollout.sh: no history for job name 'rollout-gen', user bob, partition gpu, with GPUs; no workload of bob's is near it" ]
	# a user with no history (root, say): who ran it, and -u
	run --separate-stderr env USER=ghost slurmpast --demo --advise rollout.sh --diff
	[ "$status" -eq 2 ]
	[ "${stderr_lines[-1]}" = "slurmpast: rollout.sh: no history for job name 'rollout-gen', user ghost, partition gpu, with GPUs; the name ran for other users: alice/gpu/gpu/rollout-gen (1098 runs) (-u alice advises from theirs)" ]
	fake_sacct
	for args in "--advise nosuch.sh" "--advise rollout.sh --overview" \
	    "--advise rollout.sh -u alice,bob" "--advise rollout.sh -r gpu" \
	    "--advise rollout.sh --json" "--diff" "--add" \
	    "--advise rollout.sh --diff --in-place"; do
		# shellcheck disable=SC2086
		run --separate-stderr slurmpast $args
		[ "$status" -eq 2 ] || { echo "$args: $status"; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$args: $stderr"; return 1; }
	done
	[ "$stderr" = "slurmpast: --diff and --in-place are different outputs: choose one" ]
	run --separate-stderr slurmpast --advise nosuch.sh
	[ "$stderr" = "slurmpast: nosuch.sh: cannot read it" ]
	# refused before sacct is asked
	[ ! -e "$FAKE_SACCT_LOG" ]
}

@test "--advise on a cluster: the window fetched as for the screen" {
	fake_sacct
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\n#SBATCH -J train_s2e40 -p gpu --gres=gpu:1 -t 2:00:00\nrun\n' >t.sh
	run --separate-stderr slurmpast -S 2026-01-01 -u alice --advise t.sh
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "# slurmpast: --time 2:00:00 left as it is: needs 3 completed runs; there was 1" ]
	grep -qx -- '2026-01-01' "$FAKE_SACCT_LOG"
	grep -qx -- 'alice' "$FAKE_SACCT_LOG"
}

@test "--table, --csv, --not-state: reportseff's habits" {
	# one row a job the view shows, as sp-show --table has it
	run --separate-stderr slurmpast --demo --table -s OOM -r cpu
	[ "$status" -eq 0 ]
	[ "$stderr" = "slurmpast: --demo: a synthetic history, not a real cluster's record" ]
	[ "$output" = "$(sp-fetch --demo | sp-select -s OOM -r cpu | sp-show --table --no-logs)" ]
	[ "${lines[0]}" = "$(printf 'jobid\tname\tstate\telapsed_s\ttime_eff\tcpu_eff\tmem_eff\tgpu_eff\texit_code')" ]
	run --separate-stderr slurmpast --demo --table --plain -s OOM -r cpu
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	[[ "${lines[1]}" == "jobid "*" exit" ]]
	# --csv: that table as CSV, a job id's too
	run --separate-stderr slurmpast --demo --csv 51031108
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '"jobid","name","state","elapsed_s","time_eff","cpu_eff","mem_eff","gpu_eff","exit_code"' ]
	[[ "${lines[1]}" == '"51031108","dedup-tables","COMPLETED",'* ]]
	[ "${#lines[@]}" -eq 2 ]
	# --not-state: every state but these
	run --separate-stderr slurmpast --demo --table --not-state CD,CA,TO,F,OOM,NF
	[ "$(printf '%s\n' "${lines[@]}" | tail -n +2 | cut -f3 | sort -u | tr '\n' ' ')" = "PENDING RUNNING " ]
	run --separate-stderr slurmpast --demo --table --not-state CD
	[ "$(printf '%s\n' "${lines[@]}" | tail -n +2 | cut -f3 | grep -c '^COMPLETED$')" -eq 0 ]
	[ "${#lines[@]}" -eq "$(sp-fetch --demo | sp-select --not-state CD | wc -l)" ]
	run --separate-stderr slurmpast --demo --not-state ZZ
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --not-state: unknown state 'ZZ' (sacct's states, as -s takes them)" ]
	run --separate-stderr slurmpast --demo --table --overview
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --table is one row a job: leave out sections and --advise" ]
}

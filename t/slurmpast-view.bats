#!/usr/bin/env bats
# slurmpast, the front door, on views of the demo: a filter chooses the
# workloads shown, and the verdict on each rests on every run of it; the
# demo's window, clock and job ids.  (slurmpast.bats holds the rest.)

load lib/common
load lib/tmux
load lib/slurmpast

teardown() {
	term_stop
}

# The whole demo's records of each section the views are held to.
setup_file() {
	for s in overview patterns hangs sizing; do
		remember "$s.json" --demo --$s --json &
	done
	wait
}

# ----------------------------------------------------------------------
# Filters on the demo

@test "--demo -u bob: bob's work only" {
	run --separate-stderr slurmpast --demo -u bob --overview
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -Eq '^[0-9]+ jobs of bob, 2026-'
	run part "Workloads by compute" <<<"$output"
	printf '%s\n' "${lines[@]:1:10}" | awk '$2 != "bob" { exit 1 }'
}

@test "--demo -r cpu -A nlp-lab: one partition of one account" {
	run --separate-stderr slurmpast --demo -r cpu -A nlp-lab --overview
	[ "$status" -eq 0 ]
	[[ "$output" == *" in 128 workloads: every run of the workloads of the 863 jobs shown (partition cpu, account nlp-lab);"* ]]
	run part "Workloads by compute" <<<"$output"
	printf '%s\n' "${lines[@]:1:10}" | awk '$3 != "cpu" { exit 1 }'
}

@test "--demo --failed: the problem jobs are failed ones" {
	run --separate-stderr slurmpast --demo --failed --top 0
	[ "$status" -eq 1 ]
	[[ "$output" == *" jobs shown (failed); "* ]]
	run part "Problem jobs, newest first" <<<"$output"
	printf '%s\n' "${lines[@]:1}" | awk '{ print $2 == "jobs" ? $4 : $3 }' |
		grep -Evq "$FAILED_RE" && return 1
	[ "${#lines[@]}" -gt 100 ]
}

# ----------------------------------------------------------------------
# The view never changes the verdict: a filter chooses the workloads
# shown, and what is said about each rests on every run of it.

# The filters the property is checked under, one a line.
VIEWS='-u bob
-r cpu
-A nlp-lab
--failed
-u bob --failed
-r gpu --failed
-A vision-lab -r gpu
-s TO,OOM
-N g003
-q normal --name rollout-gen'

# same_records SECTION DROP: under each of $VIEWS, the records of
# "--SECTION --json" are, workload by workload, those of the unfiltered
# run: none changed, none missing, none added.  DROP is a jq path list of
# the fields that describe the set shown rather than a workload (a
# share of the whole).
same_records() {
	local section=$1 drop=$2 view shown all
	all=$BATS_FILE_TMPDIR/$section.json.out
	while IFS= read -r view; do
		shown=$BATS_TEST_TMPDIR/shown.json
		# shellcheck disable=SC2086 # a view is words
		slurmpast --demo $view --$section --json >"$shown" 2>/dev/null ||
			[ $? -eq 1 ] || { echo "$view: failed"; return 1; }
		[ -s "$shown" ] || { echo "$view: nothing shown"; return 1; }
		jq -c "select(.section == \"$section\") | del($drop)" "$shown" |
			sort >"$BATS_TEST_TMPDIR/a"
		jq -r "select(.section == \"$section\") | .workload_key" "$shown" |
			sort -u >"$BATS_TEST_TMPDIR/keys"
		[ -s "$BATS_TEST_TMPDIR/keys" ] || { echo "$view: none"; return 1; }
		jq -c --rawfile keys "$BATS_TEST_TMPDIR/keys" \
			'select(.section == "'"$section"'" and (.workload_key as $k |
			    $keys | split("\n") | index($k))) | del('"$drop"')' \
			"$all" | sort >"$BATS_TEST_TMPDIR/b"
		diff "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/a" ||
			{ echo "under $view"; return 1; }
	done <<<"$VIEWS"
}

@test "the view never changes the verdict: the advice (rollout-gen's --mem)" {
	# (the risk may be the whole input's: sp-size(1))
	same_records sizing '.risk, .risk_cut_off, .risk_judged'
	run --separate-stderr slurmpast --demo --failed --sizing
	[[ "$output" == *$'# rollout-gen (alice), 993 runs: lower --mem from 128G; largest peak of 993 runs within their limit: 71.9 GiB (job 53615427), x 1.00\n# from 993 runs; on this workload\'s history the advice cut off 0 of 990 later runs\n#SBATCH --mem=72G\n'* ]]
}

@test "the view never changes the verdict: the findings across runs" {
	same_records patterns '.__none'
	# label-arxiv: 23 runs, 12 of them completed; never "11 of 11 failed"
	run --separate-stderr slurmpast --demo -u bob --failed --patterns
	[[ "$output" != *"11 of 11 runs"* ]]
	[[ "$output" != *"label-arxiv: repeat-failure"* ]]
}

@test "the view never changes the verdict: the workloads and their hangs" {
	same_records overview '.share, .cum_share'
	local view
	while IFS= read -r view; do
		# shellcheck disable=SC2086
		slurmpast --demo $view --hangs --json 2>/dev/null |
			jq -c 'select(.section == "hangs" and .row == "workload") | del(.share)' |
			sort >"$BATS_TEST_TMPDIR/a"
		jq -r '.workload_key' "$BATS_TEST_TMPDIR/a" >"$BATS_TEST_TMPDIR/k"
		jq -c 'select(.section == "hangs" and .row == "workload") | del(.share)' \
			"$BATS_FILE_TMPDIR/hangs.json.out" |
			grep -F -f "$BATS_TEST_TMPDIR/k" | sort |
			comm -13 - "$BATS_TEST_TMPDIR/a" >"$BATS_TEST_TMPDIR/changed"
		[ ! -s "$BATS_TEST_TMPDIR/changed" ] ||
			{ echo "$view"; cat "$BATS_TEST_TMPDIR/changed"; return 1; }
	done <<<"$VIEWS"
}

@test "the view never changes the verdict on a real dump (pozidriv)" {
	need_fixtures
	local poz view section
	cd "$BATS_TEST_TMPDIR"
	poz="--input $FIXTURES/xdmod/pozidriv.log --fields JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName"
	# shellcheck disable=SC2086 # the options are words
	slurmpast $poz --json >all.json 2>/dev/null || [ $? -eq 1 ]
	for view in "--failed" "-r croutons" "-s TO,PR" "-A taifl --failed"; do
		# shellcheck disable=SC2086
		slurmpast $poz $view --json >shown.json 2>/dev/null || [ $? -eq 1 ]
		jq -r 'select(.section == "sizing") | .workload_key' shown.json |
			sort -u >keys
		[ -s keys ] || { echo "$view: nothing shown"; return 1; }
		for section in sizing overview patterns; do
			# a share is of the set shown, not of a workload
			jq -c "select(.section == \"$section\") | del(.share, .cum_share)" \
				shown.json | sort >a
			jq -c --rawfile keys keys "select(.section == \"$section\" and
				(.workload_key as \$k | \$keys | split(\"\\n\") | index(\$k)))
				| del(.share, .cum_share)" all.json | sort >b
			diff b a || { echo "$section under $view"; return 1; }
		done
	done
}

@test "the view never changes the verdict: the machines of a workload" {
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/all"
	local view key
	while IFS= read -r view; do
		# shellcheck disable=SC2086
		slurmpast --demo $view --nodes --json 2>/dev/null |
			jq -c 'select(.section == "nodes") | del(.section)' \
			>"$BATS_TEST_TMPDIR/shown"
		key=$(jq -r -s '.[0].workload_key' "$BATS_TEST_TMPDIR/shown")
		sp-nodes --json --workload "$key" "$BATS_TEST_TMPDIR/all" \
			2>/dev/null | jq -c . | cmp - "$BATS_TEST_TMPDIR/shown" ||
			{ echo "$view: $key"; return 1; }
	done <<<"$VIEWS"
}

@test "the view never changes the verdict: a problem job's finding" {
	# The records, one a job: the text folds the jobs a view shows.
	slurmpast --demo --problems --json --top 0 2>/dev/null |
		jq -c 'select(.jobid) | [.jobid, .why, .finding]' >"$BATS_TEST_TMPDIR/all"
	local view
	while IFS= read -r view; do
		# shellcheck disable=SC2086
		slurmpast --demo $view --problems --json --top 0 2>/dev/null |
			jq -c 'select(.jobid) | [.jobid, .why, .finding]' \
			>"$BATS_TEST_TMPDIR/shown"
		[ -s "$BATS_TEST_TMPDIR/shown" ] || { echo "$view: none"; return 1; }
		grep -vxF -f "$BATS_TEST_TMPDIR/all" "$BATS_TEST_TMPDIR/shown" &&
			{ echo "$view: a row above is not the unfiltered one"; return 1; }
	done <<<"$VIEWS"
	return 0
}

@test "--demo with nothing matching: one line, exit 2" {
	run --separate-stderr slurmpast --demo -u nobody
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: no demo job matches" ]
}

@test "--demo -S -E: the window chosen as sacct would, the window said" {
	run --separate-stderr slurmpast --demo -S 2026-03-01 -E 2026-03-02 --overview
	[ "$status" -eq 0 ]
	# sp-fetch chose them: eligible or running during the window
	n=$(sp-fetch --demo -S 2026-03-01 -E 2026-03-02 | sp-select -s CD,F,TO,OOM,CA,NF | tail -n +2 | wc -l)
	[ "$n" -gt 0 ]
	[ "${lines[1]}" = "Its clock reads 2026-03-16 09:30: now, today and now-N count back from there." ]
	[ "${lines[3]}" = "$n jobs of alice, bob and carol, 2026-02-27 to 2026-03-02, since 2026-03-01 until 2026-03-02, in 30 workloads." ]
	[ "${#stderr_lines[@]}" -eq 0 ]
}

@test "--demo has its own clock: now, today and now-N count back from it" {
	[ "$(sp-fetch --demo-clock)" = 2026-03-16T09:30:00 ]
	run --separate-stderr sp-fetch --demo-clock --demo
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --demo-clock writes the demo's clock alone: give it by itself" ]
	# now-7days is 2026-03-09T09:30 on the demo's clock, whatever today is
	[ "$(sp-fetch --demo -S now-7days | tail -n +2 | md5sum)" = \
	  "$(sp-fetch --demo -S 2026-03-09T09:30 | tail -n +2 | md5sum)" ]
	run --separate-stderr slurmpast --demo -S now-7days --overview
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	[ "${lines[1]}" = "Its clock reads 2026-03-16 09:30: now, today and now-N count back from there." ]
	[ "${lines[4]}" = "101 jobs of alice, bob and carol, 2026-03-09 to 2026-03-13, since now-7days, in 20 workloads; 4 still running or pending, left out." ]
	# nothing of the demo ended today, and no section shows its running jobs
	run --separate-stderr slurmpast --demo -S today --overview
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: no job of the demo (its clock reads 2026-03-16 09:30) ended in the window (since today)" ]
	# a JSON answer says the clock on standard error
	run --separate-stderr slurmpast --demo -S now-1days --json
	[ "$status" -eq 0 ]
	[ "${stderr_lines[1]}" = "slurmpast: --demo: its clock reads 2026-03-16 09:30: now, today and now-N count back from there" ]
	[[ "${lines[1]}" == '{"section":"running",'* ]]
}

@test "--demo --running: the demo's running jobs, as sp-size --running has them" {
	run --separate-stderr slurmpast --demo --running
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "Running now" ]
	n=$(sp-fetch --demo | sp-group | sp-size --running | cut -f4 | tail -n +2 | sort -u | wc -l)
	[ "$n" -eq 3 ]
	[ "$(printf '%s\n' "$output" | grep -c '^job ')" -eq "$n" ]
	[[ "$output" == *$'\nwarning   live-past-usual\n'* ]]
}

@test "a fixed history's window and job ids: the job shown whatever the window" {
	run --separate-stderr slurmpast --demo -S 2026-03-01 -E 2026-03-02 51031108
	[ "$status" -eq 0 ]
	[[ "${lines[3]}" == "51031108  dedup-tables  COMPLETED exit 0"* ]]
	# standard input read twice (the ids, the window): kept
	sp-fetch --demo-sacct >"$BATS_TEST_TMPDIR/dump.psv"
	run --separate-stderr slurmpast --input - -S 2026-03-01 -E 2026-03-02 \
		51031108 <"$BATS_TEST_TMPDIR/dump.psv"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "51031108  dedup-tables  COMPLETED exit 0"* ]]
	run --separate-stderr slurmpast --input - -S 2026-03-01 -E 2026-03-02 \
		--overview <"$BATS_TEST_TMPDIR/dump.psv"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == *", read from - (site facts unknown: not asked of this machine), since 2026-03-01 until 2026-03-02, in 30 workloads." ]]
}

@test "--log-dir with --demo or --no-logs has no effect, and says so" {
	run --separate-stderr slurmpast --demo --log-dir /tmp --overview
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "slurmpast: --log-dir has no effect with --no-logs or --demo" ]
}

@test "--demo asks this site's Slurm nothing: its cluster is not this one" {
	mkdir -p "$BATS_TEST_TMPDIR/site"
	for c in scontrol sinfo; do
		stage_fake "$BATS_TEST_TMPDIR/site" $c \
			"echo $c >>'$BATS_TEST_TMPDIR/asked'; exit 1"
	done
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/site:$PATH" \
		SLURMPAST_NO_SITE= slurmpast --demo --sizing
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/asked" ]
}

#!/usr/bin/env bats
# sp-browse on the real Slurm's records of the job mix, through a real
# terminal (tmux): the workloads it lists are sp-group --rollup's, a job
# of the mix opens on sp-show's post-mortem, and slurmpast on a terminal
# opens it over what sacct answers.  Takes the cluster's lock and brings
# it up as fetch.bats does (setup.bash).

bats_require_minimum_version 1.5.0
SP_TOP=${SP_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
load ../lib/common
load ../lib/tmux

CLUSTER=$BATS_TEST_DIRNAME
load setup

setup_file() {
	cluster_setup_file
}

teardown_file() {
	cluster_teardown_file
}

setup() {
	[ "$(id -u)" = 0 ] || skip "the real Slurm cluster needs root"
	[ "$(cat "$BATS_FILE_TMPDIR/fetch.rc")" = 0 ] ||
		skip "sp-fetch could not read the mix (fetch.bats says why)"
	export SLURMPAST_NO_SITE=1 LC_ALL=C.UTF-8
	cd "$BATS_TEST_TMPDIR"
	sp-group "$RECORDS" >grouped.tsv
}

teardown() {
	term_stop
}

@test "the mix's workloads, as sp-group --rollup counts them" {
	local n
	n=$(sp-group --rollup grouped.tsv 2>/dev/null | awk 'END { print NR - 1 }')
	[ "$n" -gt 1 ]
	term_exec 100 30 "sp-browse --no-logs '$PWD/grouped.tsv'"
	term_wait_for "? keys"
	[[ "${lines[0]}" == "slurmpast · $n workloads · by share of compute" ]]
	# The text the same records give with --plain.
	run sp-browse --plain --no-logs grouped.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *"in $n workloads"* ]]
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

@test "a job of the mix opens on its post-mortem, and back out" {
	local id
	id=$(expect exit3 jobid)
	term_exec 120 40 "sp-browse '$PWD/grouped.tsv'"
	term_wait_for "? keys"
	# Its workload by name, then its run.
	local name
	name=$(awk -F '\t' -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["jobid"] == id { print $c["name"] }' "$RECORDS")
	[ -n "$name" ]
	term_keys / "$name" Enter
	term_wait_for "$name"
	term_keys Enter
	term_wait_for "1 [runs]"
	term_keys / "$id" Enter
	term_keys Enter
	term_wait_for "job $id"
	local want
	want=$(sp-show --no-pager --no-color --width 120 -j "$id" grouped.tsv |
		sed -n 1p)
	[ "${lines[1]}" = "$want" ]
	term_keys q q q
	term_dead
	[ "$output" = 0 ]
	[ "$(term_alt)" = 0 ]
}

@test "slurmpast on a terminal: the dashboard over what sacct answers" {
	term_exec 100 30 "slurmpast --all-users --since 2020-01-01 --no-logs"
	term_wait_for "? keys"
	[[ "${lines[0]}" == "slurmpast · "*" workloads · by share of compute" ]]
	term_keys q
	term_dead
	[ "$output" = 0 ]
}

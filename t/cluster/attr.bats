#!/usr/bin/env bats
# sp-attr against a real Slurm 22.05: jobs submitted by a driver script
# whose output is saved, by a Claude Code session (a transcript holding
# the real answers of sbatch), and by hand; sp-fetch reads them back and
# sp-attr says where each came from.  Takes the cluster lock as
# fetch.bats does, brings the cluster up if needed (no job mix: these
# jobs are its own) and down again only if it was not running.

bats_require_minimum_version 1.5.0
SP_TOP=${SP_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
load ../lib/common
load ../lib/transcript

CLUSTER=$BATS_TEST_DIRNAME
SID=dddddddd-4444-4444-8444-444444444444

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	. "$CLUSTER/lib.sh"
	export SLURM_CONF SPC
	spc_tests_begin "$CLUSTER" || return 1
	submit_all >"$BATS_FILE_TMPDIR/submit.err" 2>&1 || {
		echo "# submitting the jobs failed: $(tail -3 "$BATS_FILE_TMPDIR/submit.err")" >&3
		return 1
	}
}

teardown_file() {
	[ "$(id -u)" = 0 ] || return 0
	spc_tests_end "$CLUSTER"
}

setup() {
	[ "$(id -u)" = 0 ] || skip "the real Slurm cluster needs root"
	. "$CLUSTER/lib.sh"
	D=$BATS_FILE_TMPDIR
	TZ=UTC
	export TZ
}

# The jobs, each short; their ids go to $D/ids, one kind per line.
submit_all() {
	local D=$BATS_FILE_TMPDIR out t
	mkdir -p "$D/proj" "$D/claude/projects/-proj"
	cd "$D/proj" || return 1
	# A driver script whose output is saved, a time on each line: one
	# plain submission, an array by --parsable, one with -M.
	cat >"$D/proj/driver.sh" <<-'EOF'
	#!/bin/sh
	say() { printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*"; }
	say "$(sbatch -A physics -J attr-driven -t 1 -o /dev/null --wrap='sleep 1')"
	say "+ sbatch --parsable -a 1-2"
	sbatch --parsable -A physics -J attr-array -t 1 -o /dev/null -a 1-2 --wrap='sleep 1'
	say "$(sbatch -M spcluster -A physics -J attr-m -t 1 -o /dev/null --wrap='true')"
	EOF
	sh "$D/proj/driver.sh" >"$D/driver.log" || return 1
	# A session's Bash call: its output is sbatch's real answer.
	t=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
	out=$(sbatch -A chemistry -J attr-session -t 1 -o /dev/null --wrap='sleep 1') ||
		return 1
	cc_session "$SID" "$D/proj"
	{
		cc_user "$t" "Submit the eval, then check job $(awk '{ print $NF; exit }' "$D/driver.log")"
		cc_run "$t" toolu_01 "sbatch eval.sh" "$out"
		cc_run "$t" toolu_02 "cat $D/driver.log" "$(cat "$D/driver.log")"
	} >"$D/claude/projects/-proj/$SID.jsonl"
	# By hand, its answer kept nowhere.
	sbatch --parsable -A physics -J attr-byhand -t 1 -o /dev/null --wrap='true' \
		>"$D/byhand.id" || return 1
	{
		awk 'NR == 1 || NR == 4 { print $(NF - (NR == 4 ? 3 : 0)) }' "$D/driver.log"
		sed -n 3p "$D/driver.log"
		printf '%s\n' "${out##* }"
		cut -d';' -f1 "$D/byhand.id"
	} >"$D/ids"
	[ "$(wc -l <"$D/ids")" -eq 5 ] || { cat "$D/driver.log"; return 1; }
	wait_ended "$(paste -sd, "$D/ids")"
}

# Accounting has every job of the list ended, under its own name, and the
# array's two tasks apart: a record can reach it before the job's name
# and array task do.
wait_ended() {
	local i have
	for i in $(seq 1 120); do
		have=$(sacct -n -X -P -j "$1" -o jobid,jobname,state,end 2>/dev/null |
			awk -F'|' '$2 ~ /^attr-/ && $3 == "COMPLETED" &&
			    $4 != "Unknown" && $1 !~ /\[/' | wc -l)
		[ "$have" -eq 6 ] && return 0
		sleep 1
	done
	echo "jobs $1: $have of 6 records ended in accounting after 120 s" >&2
	return 1
}

# "jobid source at dir" for every record of the jobs, sources by their
# kind, in jobid order.
attributed() {
	sp-fetch --all-users -j "$(paste -sd, "$D/ids")" |
		sp-attr "$D/claude/projects" "$D/driver.log" |
		awk -F'\t' -v logf="$D/driver.log" -v sid="claude-code:$SID" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			s = $c["source"]
			s = s == logf ? "log" : s == sid ? "session" : s == "" ? "-" : s
			print $c["jobid"], s, ($c["source_at"] == "" ? "-" : "at"),
			    ($c["source_dir"] == "" ? "-" : $c["source_dir"])
		}' | LC_ALL=C sort
}

@test "a driver's saved output, a session's transcript, a job by hand: each job's source" {
	run --separate-stderr attributed
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	driven=$(sed -n 1p "$D/ids") array=$(sed -n 3p "$D/ids")
	m=$(sed -n 2p "$D/ids") session=$(sed -n 4p "$D/ids")
	byhand=$(sed -n 5p "$D/ids")
	want=$(LC_ALL=C sort <<-EOF
	$driven log at -
	${array}_1 log at -
	${array}_2 log at -
	$m log at -
	$session session at $D/proj
	$byhand - - -
	EOF
	)
	[ "$output" = "$want" ] ||
		{ printf 'got:\n%s\nwanted:\n%s\n' "$output" "$want"; return 1; }
}

@test "the driver log's -M answer carries the cluster, and it matches the records'" {
	run sp-attr --claims "$D/driver.log"
	[ "$status" -eq 0 ]
	m=$(sed -n 2p "$D/ids")
	printf '%s\n' "$output" | grep -q "^$m	spcluster	$D/driver.log	"
}


#!/usr/bin/env bats
# Every input a fuzz target ever crashed on (and the hostile shapes kept
# beside them) goes through the same entry point again, without libFuzzer:
# t/fuzz/regress/<target>/ replayed by build/t/replay_<target>.  Under
# make check-asan the sanitizers watch the replays too.

load lib/common

SP_BUILD=${SP_BUILD:-$SP_TOP/build}

replay() {
	local target=$1 bin=$SP_BUILD/t/replay_$1 dir=$SP_TOP/t/fuzz/regress/$1

	[ -x "$bin" ] || skip "replay_$target not built (make units)"
	[ -d "$dir" ] || skip "no regression inputs for $target"
	run --separate-stderr "$bin" "$dir"
	[ -z "$stderr" ] || echo "$stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# Every file was replayed: the plan counts them.
	[ "${lines[-1]}" = "1..$(find "$dir" -type f | wc -l | tr -d ' ')" ]
}

@test "fuzz regressions: record reader" {
	replay record
}

@test "fuzz regressions: units and durations" {
	replay units
}

@test "fuzz regressions: hostlist" {
	replay hostlist
}

@test "fuzz regressions: writers round trip" {
	replay writer
}

@test "fuzz regressions: sacct parser" {
	replay sacct
}

@test "fuzz regressions: sp-attr's scanner" {
	replay attr
}

@test "fuzz regressions: sp-submit's call, shell and command line" {
	replay submit
}

@test "a missing input fails the replay" {
	local bin=$SP_BUILD/t/replay_hostlist

	[ -x "$bin" ] || skip "replay_hostlist not built (make units)"
	run "$bin" "$BATS_TEST_TMPDIR/no-such-input"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no-such-input: No such file or directory"* ]]
}

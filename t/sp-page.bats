#!/usr/bin/env bats
# sp-page: a pipe copied unchanged, a terminal's text through the pager
# (the same lib/ground/sp_pager as sp-show), a reader who quits early no error.

load lib/common
load lib/tmux

setup() {
	export LC_ALL=C.UTF-8
	unset PAGER SLURMPAST_PAGER
	cd "$BATS_TEST_TMPDIR"
	seq 1 100 >hundred
}

teardown() {
	term_stop
}

@test "into a pipe: the input unchanged, files and standard input" {
	run sp-page hundred
	[ "$status" -eq 0 ]
	[ "$output" = "$(seq 1 100)" ]
	[ "$(sp-page <hundred | cmp - hundred && echo same)" = same ]
	[ "$(printf 'a\n' | sp-page hundred - hundred | wc -l)" -eq 201 ]
	# Bytes as they are: no line is cut, no control character cleaned.
	printf 'x\033[31my\n' >raw
	cmp raw <(sp-page raw)
}

@test "a file that cannot be read: one line, exit 2, nothing shown" {
	run --separate-stderr sp-page hundred /nonexistent
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-page: /nonexistent: No such file or directory" ]
}

@test "on a terminal: through less -FRX; q quits early, and that is no error" {
	command -v less >/dev/null || skip "less is not installed"
	term_start 80 24 "sp-page hundred; printf 'EXIT %s' \$?"
	term_wait_for ":"
	term_screen
	[ "${lines[0]}" = 1 ]
	[[ "$output" != *"EXIT"* ]]
	term_keys q
	term_wait_done
	term_screen
	[[ "$output" == *"EXIT 0"* ]]
}

@test "on a terminal: --no-pager, SLURMPAST_PAGER=cat, TERM=dumb copy" {
	for how in "sp-page --no-pager" "SLURMPAST_PAGER=cat sp-page" \
		"TERM=dumb sp-page"; do
		term_start 80 24 "$how hundred; printf 'EXIT %s' \$?"
		term_wait_done
		term_screen
		[[ "${lines[-1]}" == "100" || "${lines[-1]}" == *"EXIT 0" ]] ||
			{ echo "$how:"; printf '%s\n' "$output"; return 1; }
		[[ "$output" == *"99"$'\n'"100"$'\n'"EXIT 0"* ]]
		term_stop
	done
}

@test "the pager named is the one run, its words split, no shell" {
	printf '#!/bin/sh\necho "args: $*"; wc -l\n' >mypager
	chmod +x mypager
	term_start 80 24 "SLURMPAST_PAGER='$PWD/mypager a \$HOME' sp-page hundred"
	term_wait_done
	term_screen
	[ "${lines[0]}" = 'args: a $HOME' ]
	[ "${lines[1]}" = 100 ]
}

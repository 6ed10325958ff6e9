# slurmpast.bash - what the front door's test files share (t/slurmpast*.bats).
# shellcheck shell=bash

FAILED_RE='^(FAILED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|BOOT_FAIL|DEADLINE)$'

# The demo screens many tests only read, each made once (in parallel):
# remember NAME ARG... keeps the output, standard error and status of
# slurmpast ARG..., recall NAME sets them as bats' run would.
remember() {
	local name=$1 status=0
	shift
	slurmpast "$@" >"$BATS_FILE_TMPDIR/$name.out" \
		2>"$BATS_FILE_TMPDIR/$name.err" || status=$?
	echo "$status" >"$BATS_FILE_TMPDIR/$name.status"
}

recall() {
	run --separate-stderr cat "$BATS_FILE_TMPDIR/$1.out"
	status=$(cat "$BATS_FILE_TMPDIR/$1.status")
	stderr=$(cat "$BATS_FILE_TMPDIR/$1.err")
	mapfile -t stderr_lines <"$BATS_FILE_TMPDIR/$1.err"
}

screen() {
	cat "$BATS_FILE_TMPDIR/screen.out"
}

# The lines of one part of a screen on stdin: from its title to the blank
# line that ends it, the title left out.
part() {
	awk -v t="$1" '$0 == t { on = 1; next } on && $0 == "" { exit } on'
}

# How many jobs the problem lines on stdin hold: "N jobs" folds N.
jobs_in_lines() {
	awk '$2 == "jobs" { n += $1; next } { n++ } END { print n + 0 }'
}

# A directory of the ordinary tools the script uses, without sacct: a
# PATH for "sacct is not installed" on a machine where it is.
tools() {
	local dir=$BATS_TEST_TMPDIR/tools t
	mkdir -p "$dir"
	for t in sh awk sed mktemp dirname cat cp mv rm sort head grep id wc ln; do
		ln -sf "$(command -v "$t")" "$dir/$t"
	done
	echo "$dir"
}

# stage_fake DIR NAME BODY: a filter NAME in DIR that runs the sh BODY
# (the link to the real one removed first, never written through).
stage_fake() {
	rm -f "$1/$2"
	printf '#!/bin/sh\n%s\n' "$3" >"$1/$2"
	chmod +x "$1/$2"
}

# A copy of the toolkit in its own directory, to replace one filter in:
# the script finds the filters beside itself before PATH.
private_bin() {
	local dir=$BATS_TEST_TMPDIR/bin p
	mkdir -p "$dir"
	for p in sp-fetch sp-group sp-select sp-size sp-hang sp-nodes sp-show \
	    sp-report; do
		ln -sf "$SP_BIN/$p" "$dir/$p"
	done
	cp "$SP_BIN/slurmpast" "$dir/slurmpast"
	echo "$dir"
}

# The shared fake sacct (t/fake/sacct) first on PATH.
fake_sacct() {
	local dir=$BATS_TEST_TMPDIR/fake
	mkdir -p "$dir"
	ln -sf "$SP_TOP/t/fake/sacct" "$dir/sacct"
	export FAKE_SACCT_HELPFORMAT=$SP_TOP/t/fake/helpformat-24.05
	export FAKE_SACCT_ROWS=${FAKE_SACCT_ROWS:-$SP_TOP/t/fake/rows.psv}
	export FAKE_SACCT_LOG=$BATS_TEST_TMPDIR/sacct.log
	PATH="$dir:$PATH"
}

#!/usr/bin/env bats
# What every program of the family promises: --help and --version answer
# with 0, an unknown option is one line and exit 2, a failed write to
# standard output is exit 2, and a reader that goes away is no error.

load lib/common

PROGRAMS="sp-fetch sp-group sp-select sp-size sp-backtest sp-hang sp-nodes sp-show sp-page sp-attr sp-plot sp-report sp-browse sp-submit slurmpast"

@test "every program is built" {
	for p in $PROGRAMS; do
		[ -x "$SP_BIN/$p" ] || { echo "missing: $SP_BIN/$p"; return 1; }
	done
}

@test "--help prints the usage on stdout and exits 0" {
	for p in $PROGRAMS; do
		run "$p" --help
		[ "$status" -eq 0 ] || { echo "$p: status $status"; return 1; }
		[[ "${lines[0]}" == "usage: $p"* ]] ||
			{ echo "$p: ${lines[0]}"; return 1; }
	done
}

@test "--version prints the name and version and exits 0" {
	for p in $PROGRAMS; do
		run "$p" --version
		[ "$status" -eq 0 ] || { echo "$p: status $status"; return 1; }
		[[ "$output" =~ ^$p\ [0-9]+\.[0-9]+\.[0-9]+$ ]] ||
			{ echo "$p: $output"; return 1; }
	done
}

# sp-submit passes every option it does not know to sbatch, untouched
# (t/sp-submit.bats).
@test "an unknown option is one line on stderr and exit 2" {
	for p in $PROGRAMS; do
		[ "$p" != sp-submit ] || continue
		run --separate-stderr "$p" --no-such-option
		[ "$status" -eq 2 ] || { echo "$p: status $status"; return 1; }
		[ -z "$output" ] || { echo "$p: stdout: $output"; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ] ||
			{ echo "$p: $stderr"; return 1; }
		[[ "${stderr_lines[0]}" == "$p: "* ]] ||
			{ echo "$p: $stderr"; return 1; }
	done
}

# The programs that write records in a format of the user's choosing.
FORMATTED="sp-fetch sp-group sp-select sp-size sp-backtest sp-hang sp-nodes sp-show sp-report sp-attr"

@test "two different formats are an error in every program, never the last one wins" {
	for p in $FORMATTED; do
		run --separate-stderr "$p" --json --plain
		[ "$status" -eq 2 ] || { echo "$p: status $status"; return 1; }
		[ -z "$output" ] || { echo "$p: stdout: $output"; return 1; }
		[ "$stderr" = "$p: --json and --plain are different outputs: choose one" ] ||
			{ echo "$p: $stderr"; return 1; }
		run --separate-stderr "$p" --csv --tsv
		[ "$stderr" = "$p: --csv and --tsv are different outputs: choose one" ] ||
			{ echo "$p: $stderr"; return 1; }
	done
}

@test "--help lists the options every program shares, once each" {
	for p in ${PROGRAMS% slurmpast}; do
		run "$p" --help
		[ "$status" -eq 0 ] || { echo "$p: status $status"; return 1; }
		[ "$(grep -c -- '^  -h, --help  *this text$' <<<"$output")" -eq 1 ] ||
			{ echo "$p: -h, --help not listed once"; return 1; }
		[ "$(grep -c -- '^      --version  *the version$' <<<"$output")" -eq 1 ] ||
			{ echo "$p: --version not listed once"; return 1; }
	done
}

# Both texts with their line breaks and indentation folded to one space.
man_synopsis() {
	mandoc -T ascii "$1" | sed 's/.\x08//g' |
		awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
		tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'
}

help_usage() {
	"$1" --help | awk 'NR == 1 || /^ / { print; next } { exit }' |
		sed 's/^usage: //' | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'
}

@test "the usage text of --help is the man page's SYNOPSIS, word for word" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	for p in $PROGRAMS; do
		page="$SP_TOP/man1/$p.1"
		[ -f "$page" ] || { echo "no man page $page"; return 1; }
		man=$(man_synopsis "$page")
		help=$(help_usage "$p")
		[ -n "$man" ] || { echo "$p: empty SYNOPSIS"; return 1; }
		[ "$man" = "$help" ] ||
			{ printf '%s\n man:  %s\n help: %s\n' "$p" "$man" "$help"; return 1; }
	done
}

# slurmpast-rules(7) names each threshold's constant: every name (or
# prefix, SP_TIME_VETO_*) is one lib/ground/sp_const.h defines, and every file
# it says a rule lives in exists, so a rename cannot leave it behind.
@test "slurmpast-rules(7): its constants and files are the code's" {
	page=$SP_TOP/man7/slurmpast-rules.7
	[ -f "$page" ]
	names=$(grep -o 'SP_[A-Z0-9_]*\*\{0,1\}' "$page" | sort -u)
	[ "$(wc -l <<<"$names")" -ge 40 ]
	for n in $names; do
		case $n in
		*\*) grep -q "^#define ${n%\*}[A-Z0-9_]" "$SP_TOP/lib/ground/sp_const.h" ;;
		*) grep -q "^#define $n[[:space:]]" "$SP_TOP/lib/ground/sp_const.h" ;;
		esac || { echo "not in lib/ground/sp_const.h: $n"; return 1; }
	done
	for f in $(sed -n 's/^\.It Pa //p' "$page" | tr -d ','); do
		ls -d "$SP_TOP"/$f >/dev/null 2>&1 || { echo "no such file: $f"; return 1; }
	done
}

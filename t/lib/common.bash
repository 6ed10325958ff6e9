bats_require_minimum_version 1.5.0
# Shared set-up for the bats files: the programs under test come first on
# PATH (make check sets SP_BIN; by hand it defaults to ./bin).
SP_TOP=${SP_TOP:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
SP_BIN=${SP_BIN:-$SP_TOP/bin}
PATH="$SP_BIN:$PATH"
FIXTURES=$SP_TOP/../shared/fixtures
export SP_TOP SP_BIN PATH FIXTURES

# Skips the calling test when the shared fixtures are not beside the clone
# (a user's clone has no ../shared).
need_fixtures() {
	[ -d "$FIXTURES" ] || skip "no ../shared/fixtures beside this clone"
}

# --plain tables fit $COLUMNS: tests lay out for no width unless they say.
unset COLUMNS

# The programs under test were built with AddressSanitizer (make
# check-asan): it reserves terabytes of address space, so no ulimit -v
# bounds them, and each run costs several times a plain one.
asan_build() {
	grep -qa __asan_init "$SP_BIN/sp-group" 2>/dev/null
}

# sp-fetch keeps a store of what sacct answered in $XDG_CACHE_HOME: a
# test's own, never the user's (a test of the store sets its own).
XDG_CACHE_HOME=${BATS_TEST_TMPDIR:-${BATS_FILE_TMPDIR:-${TMPDIR:-/tmp}}}/xdg-cache
export XDG_CACHE_HOME

# Widths in characters as the terminal shows them, on any awk: mawk,
# Debian's default, counts bytes in length(), so a line holding "…" or
# "·" would read two columns wider than it is.  Bash counts characters
# under a UTF-8 locale (every mark the programs draw is one column wide).
#   widest_line [FILE]         the widest line's width
#   lines_wider_than N [FILE]  "NR: line" for each line wider than N;
#                              fails when there is one
widest_line() {
	local LC_ALL=C.UTF-8 line widest=0
	while IFS= read -r line || [ -n "$line" ]; do
		((${#line} > widest)) && widest=${#line}
	done < "${1:-/dev/stdin}"
	echo "$widest"
}
lines_wider_than() {
	local LC_ALL=C.UTF-8 line nr=0 over=0
	while IFS= read -r line || [ -n "$line" ]; do
		nr=$((nr + 1))
		((${#line} > $1)) && { echo "$nr: $line"; over=$((over + 1)); }
	done < "${2:-/dev/stdin}"
	[ "$over" -eq 0 ]
}

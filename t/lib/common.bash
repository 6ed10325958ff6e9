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

# sp-fetch keeps a store of what sacct answered in $XDG_CACHE_HOME: a
# test's own, never the user's (a test of the store sets its own).
XDG_CACHE_HOME=${BATS_TEST_TMPDIR:-${BATS_FILE_TMPDIR:-${TMPDIR:-/tmp}}}/xdg-cache
export XDG_CACHE_HOME

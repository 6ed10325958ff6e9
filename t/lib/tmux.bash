# tmux.bash - a real terminal for the bats files: a tmux server of the
# test's own (its socket in the test's directory), one window of a given
# size, keys sent to it and its screen read back.
#
#	load lib/tmux
#	term_start 80 24 "sp-show ok.tsv"	# runs it in an 80x24 window
#	term_wait_done				# until the command has ended
#	term_screen				# the screen, in $output
#
# The command runs under sh -c with the test's PATH and locale, TERM as
# tmux sets it; when it ends, the window stays so its screen can be read.

need_tmux() {
	command -v tmux >/dev/null || skip "tmux is not installed (./bootstrap test)"
}

term_start() {
	need_tmux
	# One terminal at a time: a server left from an earlier one in the
	# same test would outlive it and hold bats's output open.
	term_stop
	# A server of its own each time: a socket just let go of may still
	# belong to a server on its way out.
	TERM_N=$(( ${TERM_N:-0} + 1 ))
	TERM_SOCK=$BATS_TEST_TMPDIR/tmux.$TERM_N.sock
	# remain-on-exit keeps the screen; wait-for tells the test it ended.
	tmux -S "$TERM_SOCK" -f /dev/null new-session -d -x "$1" -y "$2" \
		-s t "env PATH='$PATH' LC_ALL='${LC_ALL:-C.UTF-8}' TZ=UTC \
		SLURMPAST_NO_SITE=1 $3; tmux wait-for -S done; sleep 600"
}

# Ends the server at the end of a test, whatever happened.
term_stop() {
	# A server already gone (the test killed it) is no failure.
	if [ -n "${TERM_SOCK:-}" ]; then
		tmux -S "$TERM_SOCK" kill-server 2>/dev/null || :
	fi
	TERM_SOCK=
	return 0
}

term_keys() {
	tmux -S "$TERM_SOCK" send-keys -t t "$@"
}

# Until the command has ended (a bound, not a measure: 30 s).
term_wait_done() {
	timeout 30 tmux -S "$TERM_SOCK" wait-for done
}

# The screen as it stands, into $output and $lines (trailing blank lines
# dropped).  With -J a line the terminal wrapped is joined back, so a
# line wider than the window shows as one long line.
term_screen() {
	output=$(tmux -S "$TERM_SOCK" capture-pane -p ${1:-} -t t |
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')
	mapfile -t lines <<<"$output"
}

# Until the screen holds TEXT (a fixed string), or 30 s have passed.
term_wait_for() {
	local i
	for i in $(seq 1 300); do
		term_screen
		[[ "$output" == *"$1"* ]] && return 0
		sleep 0.1
	done
	echo "the screen never showed '$1':"
	printf '%s\n' "$output"
	return 1
}

# The command in a window of its own for a program that owns the
# terminal: a shell runs it and writes its exit status to a file when it
# ends, however it ends (a signal too: 128 + the signal), then waits, so
# the screen and the terminal's modes can still be read (term_dead,
# term_alt).  The shell only traps the signals (a handler, reset in the
# program, not an ignore it would inherit), so Ctrl-C reaches the
# program and ends only it.  Extra tmux commands may follow:
#	term_exec 80 24 "sp-browse demo.tsv" \; set-option -g set-clipboard on
term_exec() {
	need_tmux
	term_stop
	TERM_N=$(( ${TERM_N:-0} + 1 ))
	TERM_SOCK=$BATS_TEST_TMPDIR/tmux.$TERM_N.sock
	TERM_STATUS=$BATS_TEST_TMPDIR/status.$TERM_N
	rm -f "$TERM_STATUS"
	local w=$1 h=$2 cmd=$3
	shift 3
	tmux -S "$TERM_SOCK" -f /dev/null new-session -d -x "$w" -y "$h" \
		-s t "sleep 600" "$@" \; respawn-pane -k -t t "trap : INT TERM HUP
		env PATH='$PATH' LC_ALL='${LC_ALL:-C.UTF-8}' TZ=UTC \
		SLURMPAST_NO_SITE=1 $cmd
		echo \$? >'$TERM_STATUS.tmp'; mv '$TERM_STATUS.tmp' '$TERM_STATUS'
		exec sleep 600"
}

# A format of the pane (#{alternate_on}, #{pane_title}, ...).
term_format() {
	tmux -S "$TERM_SOCK" display-message -p -t t "$1"
}

# The process the shell of term_exec runs (the program, after env).
term_pid() {
	pgrep -n -P "$(term_format '#{pane_pid}')"
}

# Until the program of term_exec has ended (30 s at most); its exit
# status in $output (130 for SIGINT, 143 SIGTERM, 129 SIGHUP).
term_dead() {
	local i
	for i in $(seq 1 300); do
		if [ -s "$TERM_STATUS" ]; then
			output=$(cat "$TERM_STATUS")
			return 0
		fi
		sleep 0.1
	done
	echo "the program never ended; the screen:"
	tmux -S "$TERM_SOCK" capture-pane -p -t t
	return 1
}

# What the ended program left on the terminal, history included, in
# $output and $lines, blank lines left out.
term_left() {
	output=$(tmux -S "$TERM_SOCK" capture-pane -p -S - -t t | grep -v '^$')
	mapfile -t lines <<<"$output"
}

# 1 while the program holds the alternate screen, 0 once it gave it back.
term_alt() {
	term_format '#{alternate_on}'
}

# Until the screen no longer holds TEXT (30 s at most).
term_wait_gone() {
	local i
	for i in $(seq 1 300); do
		term_screen
		[[ "$output" != *"$1"* ]] && return 0
		sleep 0.1
	done
	echo "the screen still shows '$1':"
	printf '%s\n' "$output"
	return 1
}

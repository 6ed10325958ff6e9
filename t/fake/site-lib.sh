# Shared by t/fake/scontrol and t/fake/sinfo; sourced, never run.

# site_log WORD...: one line in $FAKE_SITE_LOG, if set.
site_log() {
	[ -n "${FAKE_SITE_LOG:-}" ] || return 0
	printf '%s\n' "$*" >>"$FAKE_SITE_LOG"
}

# site_child: a child of our own that outlives us unless our process
# group is ended; its pid in $FAKE_CHILD_PID.  Never returns.
site_child() {
	sleep 60 &
	echo $! >"${FAKE_CHILD_PID:?}"
	wait
	exit 0
}

# site_meet OTHER: waits until OTHER has started (its start line in the
# log), at most 10 s: two commands run one after the other never meet.
site_meet() {
	i=0
	while ! grep -q "^start $1" "${FAKE_SITE_LOG:?}" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 100 ] || return 1
		sleep 0.1
	done
}

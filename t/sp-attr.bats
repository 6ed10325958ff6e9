#!/usr/bin/env bats
# sp-attr: job records joined with the transcripts and logs that saw
# sbatch answer.  Transcripts are made here as Claude Code writes them
# (t/lib/transcript.bash); records by hand, only the columns sp-attr reads
# and a few it passes through.

load lib/common
load lib/transcript

A=aaaaaaaa-1111-4111-8111-111111111111
B=bbbbbbbb-2222-4222-8222-222222222222
C=cccccccc-3333-4333-8333-333333333333

setup() {
	export TZ=UTC
	P=$BATS_TEST_TMPDIR/claude/projects
	mkdir -p "$P/-home-alice-proj" "$P/-home-alice-other"
	JOBS=$BATS_TEST_TMPDIR/jobs.tsv
	{
		printf 'jobid\tname\tuser\tcluster\tsubmit\tstate\n'
		printf '84000001\ttrain\talice\ttessera\t2026-01-05T10:00:01\tCOMPLETED\n'
		printf '84000002\tprobe\talice\ttessera\t2026-01-05T10:05:00\tFAILED\n'
		printf '84000003_0\tarr\talice\ttessera\t2026-01-05T10:10:00\tCOMPLETED\n'
		printf '84000003_1\tarr\talice\ttessera\t2026-01-05T10:10:00\tFAILED\n'
		printf '84000004+0\thet\talice\ttessera\t2026-01-05T10:20:00\tCOMPLETED\n'
		printf '84000004+1\thet\talice\ttessera\t2026-01-05T10:20:00\tCOMPLETED\n'
		printf '84000005\tdrive\talice\ttessera\t2026-01-05T11:00:00\tCOMPLETED\n'
		printf '84000006\tbyhand\talice\ttessera\t2026-01-05T11:30:00\tCOMPLETED\n'
		printf '84000007\tesc\talice\ttessera\t2026-01-06T09:00:00\tCOMPLETED\n'
	} >"$JOBS"
}

# Session A: a submission, a mention, an array by --parsable, a het job.
session_a() {
	cc_session "$A" /home/alice/proj
	cc_summary "Submitted batch job 84000006 and friends"
	cc_user 2026-01-05T09:59:00.000Z "Train it. Then check job 84000002, it said Submitted batch job 84000006 before"
	cc_run 2026-01-05T10:00:00.000Z toolu_01A "sbatch train.sh" \
		"Submitted batch job 84000001"
	cc_say 2026-01-05T10:00:05.000Z "Submitted batch job 84000001 is queued; job 84000002 too."
	cc_run 2026-01-05T10:05:30.000Z toolu_02A "squeue -j 84000002" \
		"JOBID PARTITION NAME USER ST TIME NODES
84000002 gpu probe alice R 0:05 1"
	cc_run 2026-01-05T10:10:00.000Z toolu_03A \
		"sbatch --parsable --array=0-1 arr.sh" "84000003"
	cc_run 2026-01-05T10:20:00.000Z toolu_04A "sbatch het.sh" \
		"Submitted batch job 84000004"
}

# Session B: output full of escapes, in another project.
session_b() {
	cc_session "$B" /home/alice/other
	cc_run 2026-01-06T09:00:00.000Z toolu_01B "python3 launch.py --name \"esc\"" \
		"$(printf 'launching "esc"\t(1 of 1)\r\n\033[32mSubmitted batch job 84000007\033[0m\r\n\\ done')"
}

write_sessions() {
	session_a >"$P/-home-alice-proj/$A.jsonl"
	session_b >"$P/-home-alice-other/$B.jsonl"
}

# What sp-attr appended, by jobid: "jobid source source_at source_dir".
sources() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["jobid"], ($c["source"] == "" ? "-" : $c["source"]),
	  ($c["source_at"] == "" ? "-" : $c["source_at"]),
	  ($c["source_dir"] == "" ? "-" : $c["source_dir"]) }' "$@"
}

@test "sessions, an array, a het job, escapes: each record takes its job's source" {
	write_sessions
	run --separate-stderr sp-attr "$P" <"$JOBS"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "$(printf 'jobid\tname\tuser\tcluster\tsubmit\tstate\tsource\tsource_at\tsource_dir')" ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
	run sources "$BATS_TEST_TMPDIR/out"
	[ "$output" = "84000001 claude-code:$A 2026-01-05T10:00:01 /home/alice/proj
84000002 - - -
84000003_0 claude-code:$A 2026-01-05T10:10:01 /home/alice/proj
84000003_1 claude-code:$A 2026-01-05T10:10:01 /home/alice/proj
84000004+0 claude-code:$A 2026-01-05T10:20:01 /home/alice/proj
84000004+1 claude-code:$A 2026-01-05T10:20:01 /home/alice/proj
84000005 - - -
84000006 - - -
84000007 claude-code:$B 2026-01-06T09:00:01 /home/alice/other" ]
	# The records themselves pass through unchanged.
	cut -f1-6 "$BATS_TEST_TMPDIR/out" | cmp - "$JOBS"
}

@test "a job only mentioned, read, shown or typed is no submission" {
	cc_session "$A" /home/alice/proj
	{
		cc_user 2026-01-05T10:01:00.000Z "Submitted batch job 84000002"
		cc_say 2026-01-05T10:01:01.000Z "Submitted batch job 84000002 is yours"
		cc_run 2026-01-05T10:02:00.000Z toolu_1 "cat driver.log" \
			"Submitted batch job 84000002"
		cc_run 2026-01-05T10:03:00.000Z toolu_2 \
			"grep -h Submitted logs/*.out | tail -3" \
			"Submitted batch job 84000002"
		cc_read 2026-01-05T10:04:00.000Z toolu_3 /home/alice/proj/driver.log \
			"Submitted batch job 84000002"
		cc_bash 2026-01-05T10:05:00.000Z toolu_4 "echo 'Submitted batch job 84000002'"
		cc_summary "Submitted batch job 84000002"
	} >"$P/-home-alice-proj/$A.jsonl"
	run --separate-stderr sp-attr --claims "$P"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'jobid\tcluster\tsource\tsource_at\tsource_dir')" ]
	# A wrapper script's output is a submission: the session ran it.
	cc_run 2026-01-05T10:06:00.000Z toolu_5 "./submit_all.sh" \
		"Submitted batch job 84000002" >>"$P/-home-alice-proj/$A.jsonl"
	run sp-attr --claims "$P"
	[ "${lines[1]}" = "$(printf '84000002\t\tclaude-code:%s\t2026-01-05T10:06:01\t/home/alice/proj' "$A")" ]
}

@test "--parsable: the bare id after an sbatch command, with its cluster" {
	cc_session "$A" /home/alice/proj
	{
		cc_run 2026-01-05T10:00:00.000Z toolu_1 \
			'jid=$(sbatch --parsable -M tessera a.sh) && echo "$jid"' \
			"84000011;tessera"
		cc_run 2026-01-05T10:01:00.000Z toolu_2 \
			"sbatch --parsable b.sh; sbatch --parsable c.sh" \
			"$(printf '84000012\n84000013\n')"
		# A bare number after anything else is no job id.
		cc_run 2026-01-05T10:02:00.000Z toolu_3 "wc -l < jobs.txt" "84000014"
		cc_run 2026-01-05T10:03:00.000Z toolu_4 "python3 count.py" "84000015"
	} >"$P/-home-alice-proj/$A.jsonl"
	run sp-attr --claims "$P"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'jobid\tcluster\tsource\tsource_at\tsource_dir
84000011\ttessera\tclaude-code:%s\t2026-01-05T10:00:01\t/home/alice/proj
84000012\t\tclaude-code:%s\t2026-01-05T10:01:01\t/home/alice/proj
84000013\t\tclaude-code:%s\t2026-01-05T10:01:01\t/home/alice/proj' "$A" "$A" "$A")" ]
}

@test "a '!' command typed in the session counts as the session's" {
	cc_session "$A" /home/alice/proj
	{
		cc_bang 2026-01-05T10:00:00.000Z "sbatch x.sh" "Submitted batch job 84000021"
		cc_bang 2026-01-05T10:01:00.000Z "sbatch --parsable y.sh" "84000022"
		cc_bang 2026-01-05T10:02:00.000Z "cat old.log" "Submitted batch job 84000023"
	} >"$P/-home-alice-proj/$A.jsonl"
	run sp-attr --claims "$P"
	[ "$output" = "$(printf 'jobid\tcluster\tsource\tsource_at\tsource_dir
84000021\t\tclaude-code:%s\t2026-01-05T10:00:01\t/home/alice/proj
84000022\t\tclaude-code:%s\t2026-01-05T10:01:01\t/home/alice/proj' "$A" "$A")" ]
}

@test "two sources claim one job: the earliest claim wins, said once" {
	cc_session "$A" /home/alice/proj
	cc_run 2026-01-05T10:00:00.000Z toolu_1 "sbatch train.sh" \
		"Submitted batch job 84000001" >"$P/-home-alice-proj/$A.jsonl"
	# B ran a script that printed A's old log: not a reader we know.
	cc_session "$B" /home/alice/other
	cc_run 2026-01-05T12:00:00.000Z toolu_1 "python3 show.py" \
		"Submitted batch job 84000001" >"$P/-home-alice-other/$B.jsonl"
	run --separate-stderr sp-attr "$P" <"$JOBS"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-attr: 1 job claimed by more than one source went to the earliest claim (job 84000001: claude-code:$A, not claude-code:$B)" ]
	printf '%s\n' "$output" | sources | grep -qx "84000001 claude-code:$A 2026-01-05T10:00:01 /home/alice/proj"
}

@test "a claim on another cluster, or days from the submit time, is none" {
	cc_session "$A" /home/alice/proj
	{
		cc_run 2026-01-05T10:00:00.000Z toolu_1 "sbatch -M other a.sh" \
			"Submitted batch job 84000001 on cluster other"
		cc_run 2026-01-20T10:00:00.000Z toolu_2 "sbatch b.sh" \
			"Submitted batch job 84000005"
	} >"$P/-home-alice-proj/$A.jsonl"
	run --separate-stderr sp-attr "$P" <"$JOBS"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-attr: 1 job was claimed only more than 2 days from its submit time (another cluster's or a reused id): no source" ]
	run sources <(printf '%s\n' "$output")
	[ "${lines[0]}" = "84000001 - - -" ]
	[ "${lines[6]}" = "84000005 - - -" ]
}

@test "a transcript whose last line is cut: read as far as it goes, said once" {
	write_sessions
	f=$P/-home-alice-proj/$A.jsonl
	cc_session "$A" /home/alice/proj
	cc_bash 2026-01-05T11:29:00.000Z toolu_9 "sbatch byhand.sh" >>"$f"
	cc_output 2026-01-05T11:30:00.000Z toolu_9 "Submitted batch job 84000006" |
		head -c 330 >>"$f"
	tail -c 60 "$f" | grep -q 'Submitted batch job 84000006'	# cut after it
	run --separate-stderr sp-attr "$P" <"$JOBS"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-attr: $f ends in a line cut short (read as far as it goes)" ]
	# The cut line has lost its time, not its session.
	printf '%s\n' "$output" | sources | grep -qx "84000006 claude-code:$A - /home/alice/proj"
}

@test "a driver log and a shell history: the log's answers count, the history's words do not" {
	mkdir -p "$BATS_TEST_TMPDIR/logs" "$BATS_TEST_TMPDIR/home"
	log=$BATS_TEST_TMPDIR/logs/driver.log
	{
		printf '2026-01-05 10:59:58,120 INFO starting 1 job\n'
		printf '2026-01-05 11:00:00,004 INFO Submitted batch job 84000005\n'
		printf '2026-01-05 11:00:01,000 INFO check job 84000002 later\n'
		printf '+ sbatch --parsable arr.sh\n84000003\n'
	} >"$log"
	hist=$BATS_TEST_TMPDIR/home/.bash_history
	printf '#1767607800\nsbatch byhand.sh\nsqueue -j 84000006\necho "Submitted batch job 84000006"\n' >"$hist"
	run --separate-stderr sp-attr "$log" "$hist" <"$JOBS"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	run sources <(printf '%s\n' "$output")
	[ "$output" = "84000001 - - -
84000002 - - -
84000003_0 $log - -
84000003_1 $log - -
84000004+0 - - -
84000004+1 - - -
84000005 $log 2026-01-05T11:00:00 -
84000006 - - -
84000007 - - -" ]
}

@test "directories are walked in name order, each file once, a link loop ends" {
	write_sessions
	ln -s .. "$P/-home-alice-proj/up"
	ln -s "$A.jsonl" "$P/-home-alice-proj/again.jsonl"
	mkfifo "$P/-home-alice-proj/fifo"
	run --separate-stderr timeout 20 sp-attr --claims "$P" "$P/-home-alice-proj"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 5 ]
	[ "$(printf '%s\n' "$output" | cut -f1 | tail -n +2 | tr '\n' ' ')" = "84000001 84000003 84000004 84000007 " ]
}

@test "with no file named: the user's transcripts, or one line saying there are none" {
	write_sessions
	mkdir -p "$BATS_TEST_TMPDIR/home/.claude"
	cp -r "$P" "$BATS_TEST_TMPDIR/home/.claude/"
	run --separate-stderr env -u CLAUDE_CONFIG_DIR HOME="$BATS_TEST_TMPDIR/home" sp-attr --claims
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 5 ]
	# CLAUDE_CONFIG_DIR is where Claude Code keeps them when it is set.
	run --separate-stderr env CLAUDE_CONFIG_DIR="$BATS_TEST_TMPDIR/claude" HOME=/nonexistent sp-attr --claims
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 5 ]
	run --separate-stderr env -u CLAUDE_CONFIG_DIR HOME="$BATS_TEST_TMPDIR/empty" sp-attr <"$JOBS"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-attr: no Claude Code transcripts in $BATS_TEST_TMPDIR/empty/.claude/projects (name the files or directories to read)" ]
	[ "${#lines[@]}" -eq 10 ]
	[ "${lines[0]}" = "$(printf 'jobid\tname\tuser\tcluster\tsubmit\tstate\tsource\tsource_at\tsource_dir')" ]
	[ "$(printf '%s\n' "$output" | tail -n +2 | cut -f7-9 | sort -u)" = "$(printf '\t\t')" ]
}

@test "no message text leaves the transcripts: only ids, sessions, times, directories" {
	cc_session "$A" /home/alice/proj
	{
		cc_user 2026-01-05T09:00:00.000Z "SECRETPROMPT Submitted batch job 84000001"
		cc_run 2026-01-05T10:00:00.000Z toolu_1 "sbatch SECRETCMD.sh" \
			"SECRETOUT Submitted batch job 84000001 on cluster tessera SECRETTAIL"
		cc_say 2026-01-05T10:00:02.000Z "SECRETSAY"
		cc_output 2026-01-05T11:00:00.000Z toolu_x "Submitted batch job 84000007 SECRET"
		printf '{"sessionId":"SECRET id","message":{"content":"Submitted batch job 84000005'
	} >"$P/-home-alice-proj/$A.jsonl"
	for args in "" "--claims" "--json" "--claims --plain"; do
		# shellcheck disable=SC2086
		sp-attr $args "$P" <"$JOBS" >"$BATS_TEST_TMPDIR/o" 2>"$BATS_TEST_TMPDIR/e"
		cat "$BATS_TEST_TMPDIR/o" "$BATS_TEST_TMPDIR/e" |
			grep -c SECRET | grep -qx 0
	done
	grep -q "claude-code:$A" "$BATS_TEST_TMPDIR/o"
}

@test "a transcript line of 100 MB: its answers found, in bounded memory" {
	f=$BATS_TMPDIR/sp-attr-big-$$.jsonl
	cc_session "$A" /home/alice/proj
	{
		cc_bash 2026-01-05T10:00:00.000Z toolu_1 "./submit_many.sh"
		# One output line of 100 MB: an answer at its start, one at its
		# end, escapes throughout.
		printf '{"parentUuid":null,"cwd":"/home/alice/proj","sessionId":"%s","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"Submitted batch job 84000001\\n' "$A"
		yes 'step \"ok\"\tSubmitted batch jo 1\n' | tr -d '\n' |
			head -c 104857600
		printf 'Submitted batch job 84000007\\n"}]},"uuid":"u","timestamp":"2026-01-05T10:30:00.000Z"}\n'
	} >"$f"
	# ASan reserves terabytes of address space, valgrind its own: neither
	# fits a ulimit.
	if asan_build || [ -n "${SP_UNDER_VALGRIND:-}" ]; then
		run --separate-stderr sp-attr --claims "$f"
	else
		# 64 MB of address space, for the program and libc: the line is
		# never held whole.
		run --separate-stderr bash -c 'ulimit -v 65536; exec sp-attr --claims "$1"' _ "$f"
	fi
	rm -f "$f"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "$(printf 'jobid\tcluster\tsource\tsource_at\tsource_dir
84000001\t\tclaude-code:%s\t2026-01-05T10:30:00\t/home/alice/proj
84000007\t\tclaude-code:%s\t2026-01-05T10:30:00\t/home/alice/proj' "$A" "$A")" ]
}

@test "run twice, the columns are replaced in place" {
	write_sessions
	sp-attr "$P" <"$JOBS" >"$BATS_TEST_TMPDIR/once"
	sp-attr "$P" <"$BATS_TEST_TMPDIR/once" >"$BATS_TEST_TMPDIR/twice"
	cmp "$BATS_TEST_TMPDIR/once" "$BATS_TEST_TMPDIR/twice"
	# A later scan with nothing found empties them.
	run --separate-stderr sp-attr /dev/null <"$BATS_TEST_TMPDIR/once"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | tail -n +2 | cut -f7-9 | sort -u)" = "$(printf '\t\t')" ]
}

@test "local time: a transcript's UTC, a log's own offset" {
	cc_session "$A" /home/alice/proj
	cc_run 2026-01-05T10:00:00.000Z toolu_1 "sbatch a.sh" \
		"Submitted batch job 84000001" >"$P/-home-alice-proj/$A.jsonl"
	printf '2026-01-05T12:00:00+01:00 Submitted batch job 84000005\n' >"$BATS_TEST_TMPDIR/d.log"
	run env TZ=CET-1 sp-attr --claims "$P" "$BATS_TEST_TMPDIR/d.log"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f1,4 | tail -n +2)" = "$(printf '84000001\t2026-01-05T11:00:01\n84000005\t2026-01-05T12:00:00')" ]
}

@test "--json: the source columns are strings, unknown is null" {
	write_sessions
	run sp-attr --json "$P" <"$JOBS"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -c '[.source, .source_at, .source_dir]')" = "[\"claude-code:$A\",\"2026-01-05T10:00:01\",\"/home/alice/proj\"]" ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -c '[.source, .source_at, .source_dir]')" = '[null,null,null]' ]
}

@test "errors: a file that is not there, records without jobid, the columns apart" {
	run --separate-stderr sp-attr "$BATS_TEST_TMPDIR/nothere" <"$JOBS"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-attr: $BATS_TEST_TMPDIR/nothere: No such file or directory" ]
	run --separate-stderr sp-attr /dev/null < <(printf 'name\nx\n')
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-attr: no column 'jobid' (pipe through sp-fetch first)" ]
	run --separate-stderr sp-attr /dev/null < <(printf 'jobid\tsource\n1\tx\n')
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-attr: <stdin>: the columns source, source_at and source_dir must be all present, side by side, or none" ]
	run --separate-stderr sp-attr /dev/null </dev/null
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-attr: <stdin>: no header line (empty input)" ]
}

@test "writing to /dev/full fails with exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	write_sessions
	run --separate-stderr sh -c 'sp-attr "$1" <"$2" >/dev/full' sh "$P" "$JOBS"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-attr: <stdout>: No space left on device" ]
}

@test "the demo ships transcripts: alice's sessions, bob's driver log, carol's history" {
	d=$BATS_TEST_TMPDIR/demo
	sp-fetch --demo >"$BATS_TEST_TMPDIR/plain"
	sp-fetch --demo --transcripts "$d" >"$BATS_TEST_TMPDIR/jobs"
	# The records are the demo's own, byte for byte.
	cmp "$BATS_TEST_TMPDIR/plain" "$BATS_TEST_TMPDIR/jobs"
	[ "$(find "$d/projects" -name '*.jsonl' | wc -l)" -eq 26 ]
	[ -s "$d/logs/sweep-driver.log" ]
	[ -s "$d/home/carol/.bash_history" ]
	# Every transcript line is one JSON object.
	find "$d/projects" -name '*.jsonl' -exec cat {} + |
		jq -e 'type == "object"' >/dev/null
	run --separate-stderr sp-attr "$d" <"$BATS_TEST_TMPDIR/jobs"
	[ "$status" -eq 0 ]
	# Bob's driver answered for an id that carol's January job held.
	[ "$stderr" = "sp-attr: 1 job was claimed only more than 2 days from its submit time (another cluster's or a reused id): no source" ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/attributed"
	run awk -F'\t' -v logf="$d/logs/sweep-driver.log" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			s = $c["source"]
			if (s == "")
				kind = "none"
			else if (s ~ /^claude-code:/)
				kind = "session"
			else
				kind = s == logf ? "driver" : "other " s
			n[kind]++
			if (kind == "session")
				sessions[s] = 1
			who[kind " " $c["user"]] = 1
		}
		END {
			for (s in sessions)
				k++
			printf "%d %d %d %d", n["session"], k, n["driver"], n["none"]
			for (w in who)
				if (w !~ /^(session alice|driver bob|none (alice|bob|carol))$/)
					printf " unexpected:%s", w
		}' "$BATS_TEST_TMPDIR/attributed"
	[ "$output" = "1811 26 403 1401" ]
	# A session saw each answer a second after sbatch took the job (the
	# demo's times are UTC, and so is TZ here).
	run awk -F'\t' '
		function secs(t,    y, m, days) {
			y = substr(t, 1, 4) + 0; m = substr(t, 6, 2) + 0
			if (m < 3) { y--; m += 12 }
			days = 365 * y + int(y / 4) - int(y / 100) + int(y / 400)
			days += int((153 * (m - 3) + 2) / 5) + substr(t, 9, 2)
			return days * 86400 + substr(t, 12, 2) * 3600 + \
			    substr(t, 15, 2) * 60 + substr(t, 18, 2)
		}
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["source"] ~ /^claude-code:/ && $c["attempt"] == 0 {
			n[secs($c["source_at"]) - secs($c["submit"])]++
		}
		END { for (d in n) print d, n[d] }' "$BATS_TEST_TMPDIR/attributed"
	[ "$output" = "1 1811" ]
	# The same files every time.
	sp-fetch --demo --transcripts "$BATS_TEST_TMPDIR/again" >/dev/null
	diff -r "$d" "$BATS_TEST_TMPDIR/again"
}

@test "sp-fetch --transcripts belongs to --demo" {
	run --separate-stderr sp-fetch --input /dev/null --transcripts "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --transcripts writes where the demo's jobs came from: add --demo" ]
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}

# The demo's records with their sources, grouped: $BATS_TEST_TMPDIR/grouped.
demo_attributed() {
	sp-fetch --demo --transcripts "$BATS_TEST_TMPDIR/src" >"$BATS_TEST_TMPDIR/demo"
	sp-attr "$BATS_TEST_TMPDIR/src" <"$BATS_TEST_TMPDIR/demo" 2>/dev/null |
		sp-group >"$BATS_TEST_TMPDIR/grouped"
}

@test "sp-select --attributed: the jobs with a known source" {
	demo_attributed
	run --separate-stderr sp-select --attributed "$BATS_TEST_TMPDIR/grouped"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq $((1811 + 403 + 1)) ]
	printf '%s\n' "$output" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["source"] == "" { exit 1 }'
	run --separate-stderr sp-select --attributed "$BATS_TEST_TMPDIR/demo"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-select: $BATS_TEST_TMPDIR/demo: no column 'source' (pipe through sp-attr first)" ]
}

@test "sp-size --cost --attributed: the attributable part and the rest add up to the whole" {
	demo_attributed
	g=$BATS_TEST_TMPDIR/grouped
	# The rest: every source known made unknown, and the other way.
	awk -F'\t' 'BEGIN { OFS = "\t" }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ $c["source"] = $c["source"] == "" ? "none" : ""; print }' "$g" >"$BATS_TEST_TMPDIR/rest"
	sp-size --cost "$g" >"$BATS_TEST_TMPDIR/whole" 2>/dev/null
	sp-size --cost --attributed "$g" >"$BATS_TEST_TMPDIR/part" 2>/dev/null
	sp-size --cost --attributed "$BATS_TEST_TMPDIR/rest" >"$BATS_TEST_TMPDIR/other" 2>/dev/null
	run awk -F'\t' '
		FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; file++; next }
		{
			for (k = 3; k <= 7; k++)
				v[file, FNR, k] = $k
			rows = FNR
		}
		END {
			for (r = 2; r <= rows; r++)
				for (k = 3; k <= 7; k++) {
					d = v[1, r, k] - v[2, r, k] - v[3, r, k]
					if (d > 0.01 || d < -0.01)
						print "row " r " column " k ": " v[1, r, k] " != " v[2, r, k] " + " v[3, r, k]
				}
			print rows - 1 " rows"
		}' "$BATS_TEST_TMPDIR/whole" "$BATS_TEST_TMPDIR/part" "$BATS_TEST_TMPDIR/other"
	[ "$output" = "3 rows" ]
	# The part is a part: fewer runs than the whole, none of them zero.
	run awk -F'\t' 'NR == FNR { if (FNR > 1) w[FNR] = $3; next }
		FNR > 1 && !($3 > 0 && $3 < w[FNR]) { print "row " FNR ": " $3 }' \
		"$BATS_TEST_TMPDIR/whole" "$BATS_TEST_TMPDIR/part"
	[ -z "$output" ]
	run --separate-stderr sp-size --attributed "$g"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --attributed re-costs the attributable runs: add --cost" ]
}

#!/usr/bin/env bats
# sp-submit: sbatch with the workload's history read first, against a
# stand-in sbatch that records its arguments (t/fake/sbatch) and the
# stand-in sacct (t/fake/sacct).  tok ran twice at 8G (peaks of 5.6
# GiB), then was killed for memory three times at 4G, the last two
# hours ago; the times are made relative to now, in UTC.  And the hook
# (sp-submit --hook) fed the JSON a coding agent sends.

load lib/common

setup_file() {
	export TZ=UTC
	rows=$BATS_FILE_TMPDIR/rows.psv
	at() { date -u -d "$1" +%Y-%m-%dT%H:%M:%S; }
	{
		echo 'JobID|JobIDRaw|JobName|User|Partition|State|ExitCode|Submit|Eligible|Start|End|Elapsed|ElapsedRaw|Timelimit|ReqMem|ReqCPUS|AllocTRES|NCPUS|NNodes|NodeList|TotalCPU|CPUTime|MaxRSS'
		# sacct answers in Submit order: gen first, two days ago.
		# gen: 12 runs on n1 held their node an hour and computed
		# nothing, cancelled; 24 on n2 and n3 completed.
		i=0
		for node in n1 n2 n3; do
			for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
				i=$((i + 1))
				s=$(at "-$((60 - i)) hours")
				if [ $node = n1 ]; then
					st=CANCELLED e=$(at "-$((59 - i)) hours")
					el=01:00:00 raw=3600 cpu=00:00:02
				else
					st=COMPLETED e=$(at "-$((60 - i)) hours +20 minutes")
					el=00:20:00 raw=1200 cpu=00:19:00
				fi
				echo "20$i|20$i|gen|alice|cpu|$st|0:0|$s|$s|$s|$e|$el|$raw|02:00:00|2G|1|billing=1,cpu=1,mem=2G,node=1|1|1|$node|$cpu|$el|"
				echo "20$i.batch|20$i.batch|batch||||0:0|$s|$s|$s|$e|$el|$raw||||cpu=1,mem=2G,node=1|1|1|$node|$cpu|$el|1024M"
			done
		done
		i=0
		for h in 10 8 6 4 2; do
			i=$((i + 1))
			s=$(at "-$h hours") e=$(at "-$h hours +20 minutes")
			if [ "$h" -ge 8 ]; then
				st=COMPLETED mem=8G rss=5734M
			else
				st=OUT_OF_MEMORY mem=4G rss=4096M
			fi
			echo "10$i|10$i|tok|alice|cpu|$st|0:0|$s|$s|$s|$e|00:20:00|1200|01:00:00|$mem|1|billing=1,cpu=1,mem=$mem,node=1|1|1|n1|00:19:00|00:20:00|"
			echo "10$i.batch|10$i.batch|batch||||0:0|$s|$s|$s|$e|00:20:00|1200||||cpu=1,mem=$mem,node=1|1|1|n1|00:19:00|00:20:00|$rss"
		done
	} >"$rows"
}

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
	PATH="$SP_TOP/t/fake:$PATH"
	FAKE_SACCT_ROWS=$BATS_FILE_TMPDIR/rows.psv
	FAKE_SACCT_LOG=$T/sacct.log
	FAKE_SBATCH_LOG=$T/sbatch.log
	FAKE_SBATCH_SCRIPT=$T/submitted
	export PATH FAKE_SACCT_ROWS FAKE_SACCT_LOG FAKE_SBATCH_LOG \
	    FAKE_SBATCH_SCRIPT TZ=UTC USER=alice SLURMPAST_NO_SITE=1
	unset FAKE_SACCT_MODE FAKE_SBATCH_RC SLURMPAST_TIMEOUT
	cat >tok.sh <<-'EOF'
	#!/bin/bash
	#SBATCH --job-name=tok
	#SBATCH --mem=4G
	#SBATCH --time=01:00:00
	srun tokenize
	EOF
	sed 's/--mem=4G/--mem=8G/' tok.sh >ok.sh
	sed 's/=tok$/=brandnew/' tok.sh >new.sh
}

KILLED='tok: killed for memory 3 times at 4G (last 2 hours ago); its runs peaked at 5.6 GiB: ask --mem=8G (sp-size). This submission asks 4G.'

# The arguments of the nth sbatch call, one a line.
sbatch_args() {
	awk -v n="${1:-1}" '$0 == "--" { c++; next } c == n - 1' "$FAKE_SBATCH_LOG"
}

@test "sp-submit: the default path submits exactly what it was given, says the verdict, and is sbatch's status" {
	run --separate-stderr sp-submit --parsable -p cpu tok.sh 'an arg' --mem=1G
	[ "$status" -eq 0 ]
	[ "$output" = "Submitted batch job 4242" ]
	[ "$stderr" = "$KILLED
sp-submit: submitted as asked (sp-submit --apply writes the advice in)" ]
	[ "$(sbatch_args)" = "--parsable
-p
cpu
tok.sh
an arg
--mem=1G" ]
	cmp tok.sh submitted
	FAKE_SBATCH_RC=1 run sp-submit ok.sh
	[ "$status" -eq 1 ]
	[ "$output" = "sbatch: error: Batch job submission failed: Invalid account" ]
}

@test "sp-submit: only its own leading options are its; the rest, --check included, is sbatch's" {
	run --separate-stderr sp-submit --mem=8G --check tok.sh
	[ "$status" -eq 0 ]
	[ "$(sbatch_args)" = "--mem=8G
--check
tok.sh" ]
	[ "$stderr" = "" ]
	run sp-submit --check --in-place tok.sh
	[ "$status" -eq 2 ]
	[ "$output" = "sp-submit: --in-place writes the advice into the script: add --apply" ]
	run sp-submit --check
	[ "$status" -eq 2 ]
	[ ! -e "$FAKE_SBATCH_LOG" ] || [ "$(grep -c -- '^--$' "$FAKE_SBATCH_LOG")" -eq 1 ]
}

@test "sp-submit --check: 1 on a workload killed at the script's size, naming the size to ask" {
	run --separate-stderr sp-submit --check tok.sh
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "$KILLED" ]
	[ ! -e "$FAKE_SBATCH_LOG" ]
}

@test "sp-submit --check: 0 and nothing said on a clean history and on no history" {
	run --separate-stderr sp-submit --check ok.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	run --separate-stderr sp-submit --check new.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	# No history at all: sacct answers nothing.
	head -1 "$FAKE_SACCT_ROWS" >empty.psv
	FAKE_SACCT_ROWS=$T/empty.psv XDG_CACHE_HOME=$T/other run --separate-stderr sp-submit --check tok.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ ! -e "$FAKE_SBATCH_LOG" ]
}

@test "sp-submit: the command line overrides the #SBATCH lines, as sbatch takes them" {
	# The size: 8G on the command line is what sbatch asks.
	run --separate-stderr sp-submit --check --mem=8G tok.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	run --separate-stderr sp-submit --check --mem 3G ok.sh
	[ "$status" -eq 1 ]
	[ "$stderr" = "${KILLED%asks 4G.}asks 3G." ]
	# The name: -J on the command line names the workload.
	run --separate-stderr sp-submit --check -J brandnew tok.sh
	[ "$status" -eq 0 ]
	run --separate-stderr sp-submit --check --job-name=tok new.sh
	[ "$status" -eq 1 ]
	# --mem-per-cpu, the last of the two given, per node by the cores.
	run --separate-stderr sp-submit --check --mem-per-cpu=1G -c4 tok.sh
	[ "$status" -eq 1 ]
	run --separate-stderr sp-submit --check --mem-per-cpu=2G -c 4 tok.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
}

@test "sp-submit --apply: a copy with the advice submitted under the script's name, the diff said, the script untouched" {
	cp tok.sh before
	run --separate-stderr sp-submit --apply tok.sh x
	[ "$status" -eq 0 ]
	[ "$output" = "Submitted batch job 4242" ]
	cmp tok.sh before
	grep -qx '#SBATCH --mem=8G' submitted
	! grep -q 'mem=4G' submitted
	[ "$(sbatch_args | sed -n 2p)" = x ]
	# The copy is called tok.sh: sbatch names the job after it.
	case $(sbatch_args | sed -n 1p) in */tok.sh) ;; *) false ;; esac
	[[ $stderr == *'-#SBATCH --mem=4G'*'+#SBATCH --mem=8G'* ]]
	# An option on the command line is rewritten too, in its spelling.
	run --separate-stderr sp-submit --apply --mem 4096M tok.sh
	[ "$status" -eq 0 ]
	[ "$(sbatch_args 2 | sed -n 1,2p)" = "--mem
8192M" ]
	[[ $stderr == *'-sbatch --mem 4096M'*'+sbatch --mem 8192M'* ]]
}

@test "sp-submit --apply --in-place: the script rewritten, the original kept as script~" {
	cp tok.sh before
	run --separate-stderr sp-submit --apply --in-place tok.sh
	[ "$status" -eq 0 ]
	cmp tok.sh~ before
	grep -qx '#SBATCH --mem=8G' tok.sh
	[ "$(sbatch_args)" = tok.sh ]
	cmp tok.sh submitted
}

@test "sp-submit: history unreadable: one line and submitted anyway; --check exits 2" {
	FAKE_SACCT_MODE=dbd run --separate-stderr sp-submit tok.sh
	[ "$status" -eq 0 ]
	[ "$output" = "Submitted batch job 4242" ]
	[ "$stderr" = "sp-submit: history not read (sp-fetch: sacct cannot reach the accounting database, slurmdbd (Connection refused): try again later, or tell the admins): submitted as given" ]
	[ "$(sbatch_args)" = tok.sh ]
	FAKE_SACCT_MODE=dbd run --separate-stderr sp-submit --check tok.sh
	[ "$status" -eq 2 ]
	[ "$(grep -c -- '^--$' "$FAKE_SBATCH_LOG")" -eq 1 ]
	# A sacct that never answers costs one deadline, then the submission.
	FAKE_SACCT_MODE=sleep SLURMPAST_TIMEOUT=0.5 run --separate-stderr sp-submit tok.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-submit: history not read (no answer within 0.5s): submitted as given" ]
	[ "$(grep -c -- '^--$' "$FAKE_SBATCH_LOG")" -eq 2 ]
}

@test "sp-submit: a warm store asks sacct only for what is new" {
	sp-submit --check ok.sh
	sp-submit --check ok.sh
	since() {
		awk -v n="$1" '$0 == "--" { c++; next }
		    c == n - 1 && p == "-S" { print } { p = $0 }' "$FAKE_SACCT_LOG"
	}
	# Each call probes the fields, then asks: the 2nd and 4th lists.
	[ "$(since 2)" != "$(since 4)" ]
	[ "$(since 2)" = "now-30days" ]
	# A store written from a store (its hashes carried) is whole too.
	run --separate-stderr sp-submit --check ok.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ -n "$(since 6)" ] && [ "$(since 6)" != "now-30days" ]
}

@test "sp-submit --check: a node the node rule names for the workload, asked for, is a repeat; not excluded, a word" {
	printf '#!/bin/sh\n#SBATCH -J gen -p cpu\nsrun gen\n' >gen.sh
	run --separate-stderr sp-submit --check -w n1 gen.sh
	[ "$status" -eq 1 ]
	[ "$stderr" = "gen: n1 is worse than the other machines for it (sp-nodes): ask --exclude=n1. This submission asks for n1." ]
	run --separate-stderr sp-submit --check gen.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "gen: sp-nodes advises --exclude=n1 (worse than the other machines for it). This submission excludes none." ]
	run --separate-stderr sp-submit --check --exclude=n1 gen.sh
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	# --apply writes the --exclude advice as sp-size --script does: the
	# script's own machines kept, the rule's joined to them.
	printf '#!/bin/sh\n#SBATCH -J gen -p cpu -x n9\nsrun gen\n' >gen.sh
	run --separate-stderr sp-submit --apply gen.sh
	[ "$status" -eq 0 ]
	grep -qx '#SBATCH -J gen -p cpu -x n\[1,9\]' submitted
}

# The call Claude Code (and Codex) sends a PreToolUse hook.
call() {
	printf '{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%s,"description":"submit"}}' "$T" "$1"
}

@test "sp-submit --hook: blocks an sbatch that repeats a failure, with the sentence as the reason" {
	mkdir sub
	mv tok.sh sub/
	call '"cd sub && sbatch --parsable tok.sh"' >in.json
	cd /
	run --separate-stderr sp-submit --hook <"$T/in.json"
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "$KILLED
This sbatch repeats a failure of its workload: submit it with what is advised above (sp-submit --apply writes it in), or find what else must change." ]
	[ ! -e "$FAKE_SBATCH_LOG" ]
	# Several in one line: the one that repeats blocks the call.
	call '"sbatch ok.sh; echo done && sbatch -J x ok.sh >log 2>&1 ; cd sub; sbatch tok.sh"' >"$T/in.json"
	run --separate-stderr sp-submit --hook <"$T/in.json"
	[ "$status" -eq 2 ]
	# Escapes in the JSON are the command's own bytes.
	call '"sbatch \"sub/tok\u002esh\""' >"$T/in.json"
	run sp-submit --hook <"$T/in.json"
	[ "$status" -eq 2 ]
}

@test "sp-submit --hook: lets a clean sbatch, a command with no sbatch, and what it cannot read run" {
	call '"sbatch --mem=8G tok.sh && sbatch ok.sh"' | {
		run --separate-stderr sp-submit --hook
		[ "$status" -eq 0 ]
		[ "$stderr" = "" ]
	}
	rm -f "$FAKE_SACCT_LOG"
	call '"ls -l | grep sbatch"' >in.json
	run --separate-stderr sp-submit --hook <in.json
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ ! -e "$FAKE_SACCT_LOG" ]
	# Not JSON, or cut short: let through, with a note.
	printf '{"tool_input":{"command":"sbatch tok.sh"' >in.json
	run --separate-stderr sp-submit --hook <in.json
	[ "$status" -eq 0 ]
	[ "$stderr" = "slurmpast hook: the call is not JSON: let through" ]
	printf 'sbatch tok.sh' | { run sp-submit --hook; [ "$status" -eq 0 ]; }
	# A value the hook cannot know is not guessed.
	call '"sbatch --mem=$MEM tok.sh"' >in.json
	run --separate-stderr sp-submit --hook <in.json
	[ "$status" -eq 0 ]
	[ "$stderr" = 'slurmpast hook: an sbatch not checked (an expansion ($ or `)): let through' ]
	# slurmpast itself cannot answer: everything runs.
	call '"sbatch tok.sh"' >in.json
	FAKE_SACCT_MODE=dbd run --separate-stderr sp-submit --hook <in.json
	[ "$status" -eq 0 ]
	[[ $stderr == 'slurmpast hook: an sbatch not checked (sp-submit: history not read: '* ]]
	[ ! -e "$FAKE_SBATCH_LOG" ]
}

@test "sp-submit --hook: a Codex call's command as an argument vector" {
	printf '{"tool_name":"Bash","tool_input":{"command":["bash","-lc","sbatch tok.sh"]},"cwd":"%s"}' "$T" >in.json
	run sp-submit --hook <in.json
	[ "$status" -eq 2 ]
	printf '{"tool_input":{"command":["sbatch","ok.sh"]},"cwd":"%s"}' "$T" >in.json
	run sp-submit --hook <in.json
	[ "$status" -eq 0 ]
}

@test "examples/hooks: the wrapper lets everything run when sp-submit is not there" {
	call '"sbatch tok.sh"' >in.json
	run --separate-stderr "$SP_TOP/examples/hooks/slurmpast-pretooluse.sh" <in.json
	[ "$status" -eq 2 ]
	PATH=/usr/bin:/bin run --separate-stderr /bin/sh "$SP_TOP/examples/hooks/slurmpast-pretooluse.sh" <in.json
	[ "$status" -eq 0 ]
	[ "$stderr" = "slurmpast hook: sp-submit is not on PATH: the call runs unchecked" ]
}

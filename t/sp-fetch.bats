#!/usr/bin/env bats
# sp-fetch: the query it sends sacct, its answers to every way sacct
# fails, and what it reads from every real dump in ../shared/fixtures.
# sacct is faked by t/fake/sacct (first on PATH), which records its
# arguments and answers in the field order it was asked for.

load lib/common

XDMOD_FIELDS=JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName
HPC_FIELDS=State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition

setup() {
	PATH="$SP_TOP/t/fake:$PATH"
	FAKE_SACCT_LOG=$BATS_TEST_TMPDIR/argv
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv
	SLURMPAST_NO_SITE=1
	export PATH FAKE_SACCT_LOG FAKE_SACCT_ROWS SLURMPAST_NO_SITE
	unset FAKE_SACCT_MODE FAKE_SACCT_HELPFORMAT FAKE_SACCT_HELP_FAIL
	unset SLURMPAST_TIMEOUT
	me=$(id -un)
	US=$'\x1f'
}

# The arguments of sacct call number $1, one per line.
call() {
	awk -v n="$1" '$0 == "--" { c++; next } c == n - 1' "$FAKE_SACCT_LOG"
}

calls() {
	grep -c '^--$' "$FAKE_SACCT_LOG"
}

# Column $2 of the record whose jobid is $1 (and step $3, default none).
field() {
	awk -F'\t' -v id="$1" -v col="$2" -v st="${3:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["jobid"] == id && $c["step"] == st { print $c[col]; exit }'
}

FORMAT=--format=JobID,JobIDRaw,JobName,User,UID,Account,Cluster,Partition,QOS,State,ExitCode,DerivedExitCode,Reason,Flags,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,Timelimit,TimelimitRaw,Planned,ReqMem,ReqCPUS,ReqTRES,Constraints,AllocTRES,AllocCPUS,AllocNodes,NCPUS,NNodes,NTasks,NodeList,TotalCPU,UserCPU,SystemCPU,CPUTime,CPUTimeRAW,AveCPU,MinCPU,MinCPUNode,MinCPUTask,AveCPUFreq,MaxRSS,MaxRSSNode,AveRSS,MaxVMSize,MaxPages,MaxDiskRead,MaxDiskWrite,TRESUsageInTot,TRESUsageOutTot,TRESUsageInMax,TRESUsageInAve,ConsumedEnergyRaw,ReqGRES,AllocGRES,WorkDir,Comment,StdOut,StdErr,SubmitLine

# ------------------------------------------------------------ the query

@test "one query: --helpformat, then sacct with the exact arguments" {
	run --separate-stderr sp-fetch
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(calls)" -eq 2 ]
	[ "$(call 1)" = "--helpformat" ]
	[ "$(call 2)" = "-D
--parsable2
--noheader
$FORMAT
--delimiter=$US
-u
$me
-S
now-7days" ]
}

@test "sacct's selection options reach sacct in sacct's own spellings" {
	run sp-fetch -u alice,bob -S -7days -E 2026-01-31 -r gpu -A lab --failed \
	    --name train,eval -N 'n[1-2]' -q normal -M c1 -X
	[ "$status" -eq 0 ]
	[ "$(call 2 | tail -n +6)" = "-u
alice,bob
-S
now-7days
--state
FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL,BOOT_FAIL,DEADLINE
-E
2026-01-31
-r
gpu
-A
lab
--name
train,eval
-N
n[1-2]
-q
normal
-M
c1" ]
	# The long spellings are sacct's too.
	run sp-fetch --user=alice --starttime=2026-01-01 --endtime=2026-01-02 \
	    --partition=gpu --accounts=lab --state=CD --allclusters
	[ "$status" -eq 0 ]
	[ "$(call 4 | tail -n +6)" = "-u
alice
-S
2026-01-01
--state
CD
-E
2026-01-02
-r
gpu
-A
lab
-L" ]
}

@test "-v says the query asked" {
	run --separate-stderr sp-fetch -v -a -S 2026-01-01
	[ "$status" -eq 0 ]
	[ "${stderr_lines[1]}" = "sp-fetch: asked: sacct -D --parsable2 --noheader --format=... --delimiter=0x1F --allusers -S 2026-01-01" ]
	run --separate-stderr sp-fetch -v -a -S 2026-01-01 --no-cache
	[ "$stderr" = "sp-fetch: asked: sacct -D --parsable2 --noheader --format=... --delimiter=0x1F --allusers -S 2026-01-01" ]
}

@test "sacct's options that would mean something else are refused, saying what to do" {
	run --separate-stderr sp-fetch -p gpu
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -p is sacct's --parsable: sp-fetch's records are always parsable (TSV; --csv, --json); a partition is -r" ]
	run --separate-stderr sp-fetch -P
	[ "$stderr" = "sp-fetch: -P is sacct's --parsable2: sp-fetch's records are always parsable (TSV; --csv, --json)" ]
	run --separate-stderr sp-fetch --noheader
	[ "$stderr" = "sp-fetch: --noheader is sacct's --noheader: sp-fetch keeps its header line, by which every stage finds its columns (tail -n +2 drops it)" ]
	run --separate-stderr sp-fetch -o JobID,State
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -o chooses sacct's columns: sp-fetch writes every column of the job record, named in its header (pick them by name with awk, or --json and jq)" ]
	run --separate-stderr sp-fetch -X --steps
	[ "$stderr" = "sp-fetch: -X asks for allocations only, --steps for their steps too: give one" ]
	[ ! -e "$FAKE_SACCT_LOG" ]
}

@test "a state filter always comes with an end time" {
	run sp-fetch --all-users -S '- 3 weeks' --state CANCELLED
	[ "$status" -eq 0 ]
	[ "$(call 2 | tail -n +6)" = "--allusers
-S
now-3weeks
--state
CANCELLED
-E
now" ]
}

@test "-j asks for the ids only; an unexpanded array as its master id" {
	run sp-fetch -j '123_[1-20%10],456'
	[ "$status" -eq 0 ]
	[ "$(call 2 | tail -n +6)" = "-j
123,456" ]
}

@test "-j: what sacct answers beyond the ids named is left out" {
	# The fake answers every row it has, as sacct does for an array's id.
	run --separate-stderr sp-fetch -j 1001,1003
	[ "$status" -eq 0 ]
	[ "$(cut -f1 <<<"$output" | tr '\n' ' ')" = "jobid 1001 1003 " ]
	run --separate-stderr sp-fetch -j 1001.batch --steps
	[ "$(cut -f1,5 <<<"$output" | tr '\t\n' ': ')" = "jobid:step 1001: 1001:batch " ]
}

@test "the records: one per allocation attempt, steps folded" {
	run --separate-stderr sp-fetch
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$(field 1001 total_cpu_s <<<"$output")" = 18000 ]
	[ "$(field 1001 max_rss_b <<<"$output")" = 21474836480 ]
	[ "$(field 1001 max_rss_step <<<"$output")" = batch ]
	[ "$(field 1001 alloc_gpus <<<"$output")" = 1 ]
	[ "$(field 1001 mem_limit_total_b <<<"$output")" = 34359738368 ]
	[ "$(field 1001 wait_s <<<"$output")" = 10 ]
	[ "$(field 1001 stdout <<<"$output")" = /home/alice/out.txt ]
	[ "$(field 1002 name <<<"$output")" = 'a|b' ]
	[ "$(field 1003 state <<<"$output")" = OUT_OF_MEMORY ]
	[ "$(field 1003 signal <<<"$output")" = 125 ]
}

@test "--steps: each allocation is followed by its steps" {
	run sp-fetch --steps
	[ "$status" -eq 0 ]
	[ "$(cut -f1,5,7 <<<"$output")" = "jobid	step	name
1001		train_s1e20
1001	batch	batch
1001	extern	extern
1002		a|b
1003		oom
1003	batch	batch" ]
	[ "$(field 1001 max_rss_b extern <<<"$output")" = 1048576 ]
	[ "$(field 1001 user extern <<<"$output")" = alice ]
}

@test "--json and --csv write the same records" {
	run sp-fetch --json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[1]}" == *'"name":"a|b"'* ]]
	run sp-fetch --csv
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == '"jobid","jobid_raw",'* ]]
}

# ---------------------------------------------------- field negotiation

@test "negotiation: a site without StdOut/StdErr/SubmitLine, with Planned" {
	sed -e 's/StdOut//' -e 's/StdErr//' -e 's/SubmitLine//' \
	    "$SP_TOP/t/fake/helpformat-24.05" >"$BATS_TEST_TMPDIR/help"
	FAKE_SACCT_HELPFORMAT=$BATS_TEST_TMPDIR/help
	export FAKE_SACCT_HELPFORMAT
	run sp-fetch
	[ "$status" -eq 0 ]
	f=$(call 2 | grep -e '^--format=')
	[[ "$f" == *,Planned,* ]]
	[[ "$f" != *StdOut* && "$f" != *StdErr* && "$f" != *SubmitLine* ]]
	[ "$(field 1001 stdout <<<"$output")" = "" ]
	[ "$(field 1001 wait_s <<<"$output")" = 10 ]
}

@test "negotiation: an older site spelling Reserved is asked for Reserved" {
	sed 's/Planned /Reserved/' "$SP_TOP/t/fake/helpformat-24.05" \
	    >"$BATS_TEST_TMPDIR/help"
	FAKE_SACCT_HELPFORMAT=$BATS_TEST_TMPDIR/help
	export FAKE_SACCT_HELPFORMAT
	run sp-fetch
	[ "$status" -eq 0 ]
	[[ "$(call 2 | grep -e '^--format=')" == *,Reserved,ReqMem,* ]]
	[ "$(field 1001 wait_s <<<"$output")" = 10 ]
}

@test "negotiation: a mandatory field the site lacks fails loudly" {
	# MaxRSSNode stays: the name is matched whole, not as a prefix
	sed 's/\<MaxRSS\>//' "$SP_TOP/t/fake/helpformat-24.05" \
	    >"$BATS_TEST_TMPDIR/help"
	grep -q MaxRSSNode "$BATS_TEST_TMPDIR/help"
	FAKE_SACCT_HELPFORMAT=$BATS_TEST_TMPDIR/help
	export FAKE_SACCT_HELPFORMAT
	run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: this sacct has no field 'MaxRSS', which slurmpast needs (sacct --helpformat)" ]
	[ "$(calls)" -eq 1 ]
}

@test "negotiation: a failed probe asks for every field as spelled now" {
	FAKE_SACCT_HELP_FAIL=1
	export FAKE_SACCT_HELP_FAIL
	run sp-fetch
	[ "$status" -eq 0 ]
	[ "$(call 2 | grep -e '^--format=')" = "$FORMAT" ]
}

# ----------------------------------------------------- delimiter retry

@test "an old sacct refusing --delimiter: one retry with '|', the split name rejoined" {
	FAKE_SACCT_MODE=nodelim
	export FAKE_SACCT_MODE
	run --separate-stderr sp-fetch
	[ "$status" -eq 0 ]
	[ "$(calls)" -eq 3 ]
	[ "$(call 2 | grep -c -e '^--delimiter=')" -eq 1 ]
	[ "$(call 3 | grep -c -e '^--delimiter=')" -eq 0 ]
	[ "$(cut -f1,7 <<<"$output")" = "jobid	name
1001	train_s1e20
1002	a|b
1003	oom" ]
	[ "$stderr" = "sp-fetch: rejoined 1 row whose JobName held the delimiter '|'" ]
}

# --------------------------------------------------------------- errors

@test "sacct not on PATH: one line, exit 2, what to do" {
	run --separate-stderr env PATH=/nonexistent "$SP_BIN/sp-fetch"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-fetch: sacct is not on PATH: load your site's Slurm module (module load slurm), or try --demo" ]
}

@test "accounting disabled" {
	FAKE_SACCT_MODE=disabled run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-fetch: Slurm accounting storage is disabled on this cluster (AccountingStorageType=accounting_storage/none), so there is no job history to read: ask the admins, or try --demo" ]
}

@test "slurmdbd unreachable" {
	FAKE_SACCT_MODE=dbd run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: sacct cannot reach the accounting database, slurmdbd (Connection refused): try again later, or tell the admins" ]
}

@test "munge down" {
	FAKE_SACCT_MODE=munge run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: sacct cannot authenticate: munge is not running on this node (Munge encode failed): try a login node, or ask the admins to start munged" ]
}

@test "a time sacct does not take" {
	FAKE_SACCT_MODE=timespec run --separate-stderr sp-fetch -S now-6months
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: sacct refused the time 'now-6months': it takes now-Ndays or now-Nweeks (also hours, minutes) or a date YYYY-MM-DD[THH:MM:SS], not months or years" ]
}

@test "an unknown user" {
	FAKE_SACCT_MODE=baduser run --separate-stderr sp-fetch -u nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: sacct does not know the user 'nosuch': it wants a login name, and this node may not resolve yours (check: getent passwd \$(id -u)), or give -u <login>" ]
}

@test "no Slurm configuration on this node" {
	FAKE_SACCT_MODE=noconf run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: sacct finds no Slurm configuration on this node: run on a login node of the cluster, or set SLURM_CONF" ]
}

@test "a sacct that does not answer is killed at SLURMPAST_TIMEOUT" {
	FAKE_SACCT_MODE=sleep SLURMPAST_TIMEOUT=0.5 run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-fetch: sacct did not answer within 0.5s: narrow the window with -S, or raise SLURMPAST_TIMEOUT" ]
}

@test "SLURMPAST_TIMEOUT is checked before anything runs" {
	for v in abc 1x; do
		SLURMPAST_TIMEOUT=$v run --separate-stderr sp-fetch
		[ "$status" -eq 2 ]
		[ "$stderr" = "sp-fetch: SLURMPAST_TIMEOUT is not a number of seconds: '$v'" ]
	done
	for v in 0 0.0 -5 inf 1e999; do
		SLURMPAST_TIMEOUT=$v run --separate-stderr sp-fetch
		[ "$status" -eq 2 ]
		[ "$stderr" = "sp-fetch: SLURMPAST_TIMEOUT must be a positive, finite number of seconds: '$v'" ]
	done
	[ ! -e "$FAKE_SACCT_LOG" ]
}

@test "sacct dying mid-stream: exit 2, never passed off as complete" {
	FAKE_SACCT_MODE=die run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	# A job is written only once the next one has begun: none here.
	[ -z "$output" ]
	[ "$stderr" = "sp-fetch: sacct failed (killed by signal 9)" ]
}

@test "an empty window is no error, and says what was asked" {
	FAKE_SACCT_ROWS=/dev/null run --separate-stderr sp-fetch -u alice
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == jobid* ]]
	[ "$stderr" = "sp-fetch: no jobs for alice since now-7days" ]
	FAKE_SACCT_ROWS=/dev/null run --separate-stderr sp-fetch --all-users \
	    -S 2026-01-01 -E 2026-02-01 --failed -r gpu -q high --name x
	[ "$stderr" = "sp-fetch: no jobs for any user since 2026-01-01 until 2026-02-01 matching --failed in partition gpu named x in QOS high" ]
}

# ----------------------------------------------------------- the group

# 0 when process $1 is gone or a zombie within about 5 s.
ends() {
	local i stat
	for i in $(seq 1 50); do
		stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
		stat=${stat##*) }
		case ${stat%% *} in Z|X|x) return 0 ;; esac
		sleep 0.1
	done
	return 1
}

@test "a sacct given up on ends with what it started" {
	FAKE_CHILD_PID=$BATS_TEST_TMPDIR/child.pid FAKE_SACCT_MODE=child \
	    SLURMPAST_TIMEOUT=1 run --separate-stderr sp-fetch
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: sacct did not answer within 1s: narrow the window with -S, or raise SLURMPAST_TIMEOUT" ]
	pid=$(cat "$BATS_TEST_TMPDIR/child.pid")
	[ -n "$pid" ]
	ends "$pid" || { kill "$pid"; false; }
}

# ---------------------------------------------------------- site facts

@test "--site: the facts asked once, beside sacct, kept for the stages" {
	unset SLURMPAST_NO_SITE
	FAKE_SITE_LOG=$BATS_TEST_TMPDIR/site.log
	FAKE_SACCT_MODE=meet	# sacct answers only once scontrol has started
	export FAKE_SITE_LOG FAKE_SACCT_MODE
	run --separate-stderr sp-fetch --site "$BATS_TEST_TMPDIR/site"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$(cat "$BATS_TEST_TMPDIR/site")" = "slurmpast site facts 1
cluster	
scontrol	1
gather	linux
gather_freq_s	30
gpuutil_tracked	1
version	22.05.8
sinfo	1
partition	test	48	206158430208
partition	gpu	64	536870912000" ]
	# The stages after read the file and ask Slurm nothing.
	printf '%s\n' "$output" | sp-group >"$BATS_TEST_TMPDIR/jobs"
	SLURMPAST_SITE=$BATS_TEST_TMPDIR/site sp-size <"$BATS_TEST_TMPDIR/jobs" >/dev/null
	SLURMPAST_SITE=$BATS_TEST_TMPDIR/site sp-show -j 1001 --no-logs <"$BATS_TEST_TMPDIR/jobs" >/dev/null || [ $? -eq 1 ]
	[ "$(grep -c '^start' "$FAKE_SITE_LOG")" -eq 2 ]
	grep -qx 'start scontrol show config' "$FAKE_SITE_LOG"
	grep -qx 'start sinfo -h -a -N -o %R %c %m' "$FAKE_SITE_LOG"
}

@test "--site with the controller silent: one line, one deadline, the records whole" {
	unset SLURMPAST_NO_SITE
	FAKE_SCONTROL_MODE=sleep FAKE_SINFO_MODE=sleep SLURMPAST_TIMEOUT=1 \
	    run --separate-stderr sp-fetch --site "$BATS_TEST_TMPDIR/site"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$stderr" = "sp-fetch: site facts not had: how memory and CPU are gathered (scontrol: no answer within 1s); the partitions' largest nodes (sinfo: no answer within 1s)" ]
	[ "$(sed -n '3p;8p' "$BATS_TEST_TMPDIR/site")" = "scontrol	0
sinfo	0" ]
	# A stage reading the file says nothing more, and asks nothing.
	FAKE_SITE_LOG=$BATS_TEST_TMPDIR/log SLURMPAST_SITE=$BATS_TEST_TMPDIR/site \
	    run --separate-stderr sh -c 'sp-group | sp-size' <<<"$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ ! -e "$BATS_TEST_TMPDIR/log" ]
}

@test "--site: the demo asks nothing; SLURMPAST_SITE read by a stage, or written by the first" {
	unset SLURMPAST_NO_SITE
	FAKE_SITE_LOG=$BATS_TEST_TMPDIR/log
	export FAKE_SITE_LOG
	run --separate-stderr sp-fetch --demo --site "$BATS_TEST_TMPDIR/demo-site"
	[ "$status" -eq 0 ]
	[ "$(sed -n '3p;8p' "$BATS_TEST_TMPDIR/demo-site")" = "scontrol	0
sinfo	0" ]
	[ ! -e "$FAKE_SITE_LOG" ]
	# No file yet: the first stage asks, and writes it for the next.
	sp-fetch --demo-jobs 50 | sp-group >"$BATS_TEST_TMPDIR/jobs"
	export SLURMPAST_SITE=$BATS_TEST_TMPDIR/new-site
	sp-size <"$BATS_TEST_TMPDIR/jobs" >/dev/null
	sp-size --findings <"$BATS_TEST_TMPDIR/jobs" >/dev/null || [ $? -eq 1 ]
	[ "$(grep -c '^start' "$FAKE_SITE_LOG")" -eq 2 ]
	[ "$(sed -n 4p "$SLURMPAST_SITE")" = "gather	linux" ]
	# A damaged file is said once, and asked again, never trusted.
	echo "gather	cgroup" >"$SLURMPAST_SITE"
	run --separate-stderr sp-size <"$BATS_TEST_TMPDIR/jobs"
	[ "$status" -eq 0 ]
	[ "$(grep 'site facts' <<<"$stderr")" = "sp-size: site facts not had: SLURMPAST_SITE: $SLURMPAST_SITE:1: not a slurmpast site file; asked Slurm instead" ]
	[ "$(sed -n 4p "$SLURMPAST_SITE")" = "gather	linux" ]
	run --separate-stderr sp-fetch --demo --site /nonexistent/dir/site
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sp-fetch: --site: /nonexistent/dir/site: No such file or directory" ]]
}

# ---------------------------------------------------------------- usage

@test "usage errors: one line, exit 2" {
	run --separate-stderr sp-fetch -u alice --all-users
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -u and -a ask for different things: give one" ]
	run --separate-stderr sp-fetch -u ''
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -u needs a value, not an empty one" ]
	run --separate-stderr sp-fetch --demo -s NOSUCH
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sp-fetch: -s: unknown state 'NOSUCH' (sacct's states: "* ]]
	run --separate-stderr sp-fetch --demo -S yesterday
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -S: 'yesterday' is not a time (YYYY-MM-DD[THH:MM[:SS]], MMDD[YY], MM/DD[/YY] or MM.DD[.YY] with [-HH:MM[:SS]], HH:MM[:SS], today, midnight, noon, or now-N with seconds, minutes, hours, days or weeks)" ]
	# every other form sacct takes, on the demo's clock
	[ "$(sp-fetch --demo -S 03/10 | md5sum)" = "$(sp-fetch --demo -S 2026-03-10 | md5sum)" ]
	[ "$(sp-fetch --demo -S 03.09.26-12:00 -E 0310 | md5sum)" = "$(sp-fetch --demo -S 2026-03-09T12:00 -E 2026-03-10 | md5sum)" ]
	run --separate-stderr sp-fetch --demo -j 12_[3
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: '12_[3' is not a job id (123, 123_4, 123_[1-3,7], 123+1)" ]
	run --separate-stderr sp-fetch --fields JobID
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --fields names the columns of an --input dump" ]
	run --separate-stderr sp-fetch --state FAILED --failed
	[ "$status" -eq 2 ]
	run --separate-stderr sp-fetch 123
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: unexpected argument '123' (job ids go with -j, dumps with --input)" ]
	run --separate-stderr sp-fetch -S -E
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -S needs a time, not the option '-E'" ]
	[ ! -e "$FAKE_SACCT_LOG" ]
}

# ------------------------------------------------------------- --input

@test "--input -: a dump on standard input, the delimiter found" {
	printf 'JobID\x1fJobName\x1fState\n7\x1fa|b\x1fCOMPLETED\n' \
	    >"$BATS_TEST_TMPDIR/d"
	run --separate-stderr sp-fetch --input - <"$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 0 ]
	[ "$(field 7 name <<<"$output")" = 'a|b' ]
}

@test "--input: a headerless dump needs --fields" {
	printf '7|x|COMPLETED\n' >"$BATS_TEST_TMPDIR/d"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: $BATS_TEST_TMPDIR/d: the first line is not a sacct header (it names no JobID); give the fields with --fields" ]
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/d" --fields JobID,JobName,State
	[ "$status" -eq 0 ]
	[ "$(field 7 state <<<"$output")" = COMPLETED ]
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/nope"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: $BATS_TEST_TMPDIR/nope: No such file or directory" ]
}

@test "--input: a '|' in a command line is rejoined where only one field can hold it" {
	cat >"$BATS_TEST_TMPDIR/d" <<'EOF'
JobID|JobName|State|Elapsed|TotalCPU|MaxRSS|SubmitLine
31|count|COMPLETED|00:10:00|00:09:00||sbatch count.sh
31.batch|batch|COMPLETED|00:10:00|00:01:00|100M|
31.0|bash|COMPLETED|00:09:00|00:08:00|3G|srun bash -c zcat in.gz | sort | uniq -c
EOF
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/d" --steps
	[ "$status" -eq 0 ]
	[ "$(cut -f1,5,36,37,42 <<<"$output")" = "jobid	step	max_rss_b	max_rss_step	total_cpu_s
31		3221225472	0	540
31	batch	104857600	batch	60
31	0	3221225472	0	480" ]
	[ "$(field 31 submit_line 0 <<<"$output")" = "srun bash -c zcat in.gz | sort | uniq -c" ]
	[ "$(field 31 submit_line <<<"$output")" = "sbatch count.sh" ]
	[ "$stderr" = "sp-fetch: rejoined 1 row whose SubmitLine held the delimiter '|'" ]
}

@test "--input: where two fields could hold it, the step is dropped, never the job" {
	cat >"$BATS_TEST_TMPDIR/d" <<'EOF'
JobID|JobName|State|Elapsed|TotalCPU|MaxRSS|SubmitLine|Comment
31|count|COMPLETED|00:10:00|00:09:00||sbatch count.sh|
31.batch|batch|COMPLETED|00:10:00|00:01:00|100M||
31.0|bash|COMPLETED|00:09:00|00:08:00|3G|srun bash -c zcat in.gz | sort|
32|pipe|COMPLETED|00:01:00|00:00:30||sbatch --wrap a|b|x
32.batch|batch|COMPLETED|00:01:00|00:00:30|1G||
33|fine|FAILED|00:00:05|00:00:01||sbatch fine.sh|
33.batch|batch|FAILED|00:00:05|00:00:01|10M||
EOF
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 0 ]
	# 31's peak and CPU are its own row's: unknown peak, all of its CPU.
	[ "$(cut -f1,14,36,37,42 <<<"$output")" = "jobid	state	max_rss_b	max_rss_step	total_cpu_s
31	COMPLETED			540
33	FAILED	10485760	batch	1" ]
	[ "$stderr" = "sp-fetch: dropped 2 rows with more fields than the 8 named, where no single free-text field can hold the extra ones (the delimiter inside a value?)
sp-fetch: 1 of the 2 dropped rows was a step, so for 1 job the step figures (peak memory, step CPU, I/O) are the allocation row's alone, unknown where it has none
sp-fetch: left out 1 allocation whose own row was dropped" ]
}

@test "--stats: every count, with the line that says it" {
	cat >"$BATS_TEST_TMPDIR/d" <<'EOF'
JobID|JobName|State|Elapsed|Partition
not a record
41|a|COMPLETED|00:01:00|p
41.batch|batch|COMPLETED|00:01:00
42|b|FOO|00:02:00|p
43.batch|x|COMPLETED|00:00:01|p
44|c|COMPLETED|00:00:01|p|q
EOF
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/d" --stats "$BATS_TEST_TMPDIR/stats"
	[ "$status" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/stats")" = "key	count	message
rows	5	
records	2	
unselected	0	
short_rows	1	read 1 row short of its last field (Partition) with it unknown
rejoined_rows	0	
long_rows	1	dropped 1 row with more fields than the 5 named, where no single free-text field can hold the extra ones (the delimiter inside a value?)
nul_rows	0	
dropped_steps	0	
partial_records	0	
left_out	1	left out 1 allocation whose own row was dropped
orphan_steps	1	ignored 1 step row without its allocation row
stray_lines	1	ignored 1 line that holds no record
unknown_states	1	1 record in a state slurmpast does not know (FOO): kept as printed, counted as neither success nor failure
cpu_from_usersys	0	
cpu_from_tres	0	
usage_not_recorded	0	
mem_update	0	" ]
	# The lines on stderr are the messages, in the same order.
	[ "$stderr" = "$(awk -F'\t' 'NR > 1 && $3 != "" { print "sp-fetch: " $3 }' "$BATS_TEST_TMPDIR/stats")" ]
	run --separate-stderr sp-fetch --demo --stats /nonexistent/dir/s
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --stats: /nonexistent/dir/s: No such file or directory" ]
}

# ------------------------------------------------- selection on records

# A small dump whose times make sacct's window semantics visible.
window_dump() {
	cat >"$BATS_TEST_TMPDIR/w" <<'EOF'
JobID|JobName|User|State|Submit|Eligible|Start|End
1|a|u1|COMPLETED|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|2026-01-01T02:00:00
2|b|u1|FAILED|2026-01-02T00:00:00|2026-01-02T00:00:00|2026-01-02T01:00:00|2026-01-03T02:00:00
3|c|u2|CANCELLED|2026-01-04T00:00:00|Unknown|Unknown|2026-01-04T05:00:00
4|d|u2|RUNNING|2026-01-04T00:00:00|2026-01-04T00:00:00|2026-01-04T01:00:00|Unknown
5|e|u1|PENDING|2026-01-02T12:00:00|2026-01-02T12:00:00|Unknown|Unknown
6|f|u2|TIMEOUT|2026-01-05T00:00:00|2026-01-05T00:00:00|2026-01-05T00:10:00|2026-01-05T01:10:00
EOF
}

# The job ids sp-fetch --input selects with options "$@".
picked() {
	sp-fetch --input "$BATS_TEST_TMPDIR/w" "$@" | cut -f1 | tail -n +2 | tr '\n' ' '
}

@test "--input -S -E: a job eligible or running during the window, as sacct" {
	window_dump
	[ "$(picked)" = "1 2 3 4 5 6 " ]
	# 1 ended before, 3 never became eligible, 4 and 6 became so after.
	[ "$(picked -S 2026-01-02 -E 2026-01-03)" = "2 5 " ]
	[ "$(picked -S 2026-01-04T03:00)" = "4 5 6 " ]
	[ "$(picked -E 2026-01-02)" = "1 " ]
	[ "$(picked -S 2026-01-02 -E 2026-01-03 -u u1)" = "2 5 " ]
	[ "$(picked --starttime=2026-01-02 --endtime=2026-01-03 -u u2)" = "" ]
	# What never ended is in every window after it became eligible.
	[ "$(picked -S 2026-02-01)" = "4 5 " ]
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/w" -E 2025-12-01
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-fetch: no job in $BATS_TEST_TMPDIR/w matches the selection (6 do not)" ]
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/w" -S 2026-01-03 -E 2026-01-02
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: -E 2026-01-02 is before -S 2026-01-03" ]
}

@test "--input -s with a window: in the state during it, as sacct decides" {
	window_dump
	# Ended in the state within the window.
	[ "$(picked -s F -S 2026-01-02 -E 2026-01-04)" = "2 " ]
	[ "$(picked -s F -S 2026-01-02 -E 2026-01-03)" = "" ]
	[ "$(picked --failed -S 2026-01-01)" = "2 6 " ]
	# Running during it, whatever the state it ended in.
	[ "$(picked -s R -S 2026-01-02T12:00 -E 2026-01-02T13:00)" = "2 " ]
	[ "$(picked -s RUNNING -S 2026-01-04T00:30 -E 2026-01-04T02:00)" = "4 " ]
	# Waiting during it.
	[ "$(picked -s PD -S 2026-01-02T12:30)" = "5 " ]
	# Without a window, the state the record is in.
	[ "$(picked -s CA,TO)" = "3 6 " ]
}

@test "--demo -u bob: bob's records, the same as the whole demo filtered" {
	sp-fetch --demo >"$BATS_TEST_TMPDIR/all"
	run --separate-stderr sp-fetch --demo -u bob
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -gt 100 ]
	[ "$output" = "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["user"] == "bob"' "$BATS_TEST_TMPDIR/all")" ]
	# and every other option sacct filters by, on the demo's columns
	run sp-fetch --demo -u bob,carol -r gpu -s CD,F --steps
	[ "$status" -eq 0 ]
	[ "$output" = "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	    $c["step"] == "" { keep = ($c["user"] == "bob" || $c["user"] == "carol") &&
	        $c["partition"] == "gpu" && ($c["state"] == "COMPLETED" || $c["state"] == "FAILED") }
	    keep' <(sp-fetch --demo --steps))" ]
}

@test "--stats counts the records the selection left out, and says nothing of them" {
	window_dump
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/w" -u u2 --stats "$BATS_TEST_TMPDIR/s"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(sed -n 2,4p "$BATS_TEST_TMPDIR/s")" = "rows	6	
records	3	
unselected	3	" ]
}

@test "-j on a dump: every id form sacct prints, commas split outside brackets" {
	need_fixtures
	f=$FIXTURES/xdmod/accounting-logs-with-job-arrays.log
	p() { sp-fetch --input "$f" --fields "$XDMOD_FIELDS" -j "$1" | cut -f1 | tail -n +2 | tr '\n' ' '; }
	[ "$(p 4103947)" = "4103947_100 4103947_[1-3] 4103947_[1,5] 4103947_[9-11,20] 4103947_[91,100-102] 4103947_[9-11,13,16-20] " ]
	[ "$(p '4103947_[1,5]')" = "4103947_[1-3] 4103947_[1,5] " ]
	[ "$(p 4103947_100)" = "4103947_100 4103947_[91,100-102] " ]
	[ "$(p '4103947_[12-15],4103947_19')" = "4103947_[9-11,13,16-20] " ]
	[ "$(p 4103947+1)" = "" ]
}

@test "--input: a TAB-delimited dump, the delimiter said with -v" {
	printf 'JobID\tJobName\tState\tPartition\n7\ta|b\tCOMPLETED\tp\n' >"$BATS_TEST_TMPDIR/t"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/t" -v
	[ "$status" -eq 0 ]
	[ "$(field 7 name <<<"$output")" = 'a|b' ]
	[ "$(field 7 partition <<<"$output")" = p ]
	[ "$stderr" = "sp-fetch: $BATS_TEST_TMPDIR/t: fields delimited by TAB, named by its first line" ]
	printf '8\tx\tFAILED\n' >"$BATS_TEST_TMPDIR/t2"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/t2" --fields JobID,JobName,State -v
	[ "$(field 8 state <<<"$output")" = FAILED ]
	[ "$stderr" = "sp-fetch: $BATS_TEST_TMPDIR/t2: fields delimited by TAB, named by --fields" ]
}

@test "sp-fetch's own records are no dump; the stages say they read TSV" {
	sp-fetch --demo-jobs 20 >"$BATS_TEST_TMPDIR/jobs"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/jobs"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: $BATS_TEST_TMPDIR/jobs: these are job records already (sp-fetch's own output), not a sacct dump: give them to the next stage as they are" ]
	run --separate-stderr sh -c 'sp-fetch --demo-jobs 20 --csv | sp-group'
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-group: <stdin>:1: line 1 is CSV (--csv?): the stages read TAB-separated records, each program's default output (drop the option)" ]
	run --separate-stderr sh -c 'sp-fetch --demo-jobs 20 --json | sp-group'
	[ "$stderr" = "sp-group: <stdin>:1: line 1 is JSON (--json?): the stages read TAB-separated records, each program's default output (drop the option)" ]
	run --separate-stderr sh -c 'sp-fetch --demo-jobs 20 --plain | sp-size'
	[ "$stderr" = "sp-size: <stdin>:1: line 1 is an aligned table (--plain?): the stages read TAB-separated records, each program's default output (drop the option)" ]
}

@test "-M: sacct and the site queries ask that cluster" {
	unset SLURMPAST_NO_SITE
	FAKE_SITE_LOG=$BATS_TEST_TMPDIR/site.log
	export FAKE_SITE_LOG
	run --separate-stderr sp-fetch -M c2 --site "$BATS_TEST_TMPDIR/site"
	[ "$status" -eq 0 ]
	[ "$(call 2 | tail -n 2)" = "-M
c2" ]
	grep -qx 'start scontrol -M c2 show config' "$FAKE_SITE_LOG"
	grep -qx 'start sinfo -h -a -N -o %R %c %m -M c2' "$FAKE_SITE_LOG"
	[ "$(sed -n 2p "$BATS_TEST_TMPDIR/site")" = "cluster	c2" ]
	# Several clusters have no one set of facts: none asked, all unknown.
	rm -f "$FAKE_SITE_LOG"
	run --separate-stderr sp-fetch -M c1,c2 --site "$BATS_TEST_TMPDIR/site"
	[ "$status" -eq 0 ]
	[ ! -e "$FAKE_SITE_LOG" ]
	[ "$(sed -n 3p "$BATS_TEST_TMPDIR/site")" = "scontrol	0" ]
	# On records, -M is the cluster column.
	run --separate-stderr sp-fetch --input "$FAKE_SACCT_ROWS" -M c2
	[ "${#lines[@]}" -eq 1 ]
	run --separate-stderr sp-fetch --input "$FAKE_SACCT_ROWS" -M c1
	[ "${#lines[@]}" -eq 4 ]
}

# ------------------------------------------------------------ the store

# store_rows FILE: jobs long finished, an array of one Submit second
# printed out of JobIDRaw order (as sacct's database may), a requeued
# job, and jobs of the last hours (times relative to now, as sacct has
# them): whatever $RECENT_STATE says for job 9001 ($RECENT_END its End).
store_rows() {
	local h2 h1 now
	h2=$(date -d '-2 hours' +%Y-%m-%dT%H:%M:%S)
	h1=$(date -d '-1 hour' +%Y-%m-%dT%H:%M:%S)
	now=$(date +%Y-%m-%dT%H:%M:%S)
	{
		echo 'JobID|JobIDRaw|JobName|User|UID|Cluster|Partition|State|Submit|Eligible|Start|End|Elapsed|TotalCPU|MaxRSS'
		echo '2001|2001|old|alice|1000|c1|cpu|COMPLETED|2026-01-02T10:00:00|2026-01-02T10:00:00|2026-01-02T10:00:05|2026-01-02T11:00:05|01:00:00|00:30:00|'
		echo '2001.batch|2001.batch|batch||||||2026-01-02T10:00:05|2026-01-02T10:00:05|2026-01-02T10:00:05|2026-01-02T11:00:05|01:00:00|00:30:00|2G'
		echo '2002|2002|req|alice|1000|c1|cpu|REQUEUED|2026-01-03T10:00:00|2026-01-03T10:00:00|2026-01-03T10:00:05|2026-01-03T10:30:00|00:29:55||'
		echo '2100_2|2102|arr|alice|1000|c1|cpu|COMPLETED|2026-01-04T09:00:00|2026-01-04T09:00:00|2026-01-04T09:00:05|2026-01-04T09:10:00|00:09:55||'
		echo '2100_1|2101|arr|alice|1000|c1|cpu|COMPLETED|2026-01-04T09:00:00|2026-01-04T09:00:00|2026-01-04T09:00:05|2026-01-04T09:20:00|00:19:55||'
		echo "2100_3|2100|arr|alice|1000|c1|cpu|COMPLETED|2026-01-04T09:00:00|2026-01-04T09:00:00|2026-01-04T09:00:05|$h1|||"
		echo "2002|2002|req|alice|1000|c1|cpu|${REQ_STATE:-RUNNING}|2026-01-05T10:00:00|2026-01-05T10:00:00|$h2|${REQ_END:-Unknown}|||"
		echo "9001|9001|new|alice|1000|c1|cpu|${RECENT_STATE:-RUNNING}|$h2|$h2|$h2|${RECENT_END:-Unknown}|||"
	} >"$1"
}

# fetched: sp-fetch's answer for the window, into $BATS_TEST_TMPDIR/$1.
fetched() {
	local out=$1
	shift
	sp-fetch -a -S 2026-01-01 --steps "$@" >"$BATS_TEST_TMPDIR/$out" \
	    2>"$BATS_TEST_TMPDIR/$out.err"
}

# stored: a first run over store_rows' jobs, windowed as sacct would;
# $store is the store it wrote.
stored() {
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows FAKE_SACCT_WINDOW=1
	export FAKE_SACCT_ROWS FAKE_SACCT_WINDOW
	store_rows "$FAKE_SACCT_ROWS"
	fetched first
	store=$(ls "$XDG_CACHE_HOME"/slurmpast/*.sacct)
}

# The -S sacct was last asked for.
asked_since() {
	awk '$0 == "-S" { getline; s = $0 } END { print s }' "$FAKE_SACCT_LOG"
}

@test "records from sacct in one order: Submit, then cluster, then JobIDRaw" {
	store_rows "$BATS_TEST_TMPDIR/rows"
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows run --separate-stderr sp-fetch -a -S 2026-01-01
	[ "$status" -eq 0 ]
	[ "$(cut -f1,2,6 <<<"$output" | tail -n +2 | tr '\t\n' ': ')" = "2001:2001:0 2002:2002:0 2100_3:2100:0 2100_1:2101:0 2100_2:2102:0 2002:2002:1 9001:9001:0 " ]
}

@test "the store: the second run asks sacct for the last hours only, and gives the same bytes" {
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows FAKE_SACCT_WINDOW=1
	export FAKE_SACCT_ROWS FAKE_SACCT_WINDOW
	store_rows "$FAKE_SACCT_ROWS"
	fetched first
	[ "$(asked_since)" = 2026-01-01 ]
	[ -z "$(cat "$BATS_TEST_TMPDIR/first.err")" ]
	store=$(ls "$XDG_CACHE_HOME"/slurmpast/*.sacct)
	[ "$(head -n 1 "$store")" = "magic	slurmpast sacct store 1" ]
	# The second run: sacct is asked from six hours before the first.
	fetched second -v
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/second"
	since=$(asked_since)
	[[ "$since" =~ ^20[0-9]{2}-[0-9]{2}-[0-9]{2}T ]]
	[[ "$since" > "$(date -d '-7 hours' +%Y-%m-%dT%H:%M:%S)" ]]
	[[ "$since" < "$(date -d '-5 hours' +%Y-%m-%dT%H:%M:%S)" ]]
	grep -qx "sp-fetch: store: $store, jobs since 2026-01-01T00:00:00 as of 2.*: sacct is asked from $since" "$BATS_TEST_TMPDIR/second.err"
	grep -qx "sp-fetch: asked: sacct -D .* -S $since" "$BATS_TEST_TMPDIR/second.err"
	# The store keeps the settled jobs: sacct gave only the recent ones.
	[ "$(grep -c '^U	' "$store")" -eq 7 ]
	# --no-cache and --refresh ask for the whole window: the same bytes.
	fetched fresh --no-cache
	[ "$(asked_since)" = 2026-01-01 ]
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/fresh"
	fetched refreshed --refresh
	[ "$(asked_since)" = 2026-01-01 ]
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/refreshed"
	# A window inside the one stored is served the same way.
	sp-fetch -a -S 2026-01-04 --no-cache >"$BATS_TEST_TMPDIR/part-fresh"
	sp-fetch -a -S 2026-01-04 >"$BATS_TEST_TMPDIR/part"
	cmp "$BATS_TEST_TMPDIR/part-fresh" "$BATS_TEST_TMPDIR/part"
	[ "$(cut -f1 "$BATS_TEST_TMPDIR/part" | tail -n +2 | tr '\n' ' ')" = "2100_3 2100_1 2100_2 2002 9001 " ]
}

@test "the store: a job that finishes between the runs appears, a requeued one numbered on" {
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows FAKE_SACCT_WINDOW=1
	export FAKE_SACCT_ROWS FAKE_SACCT_WINDOW
	store_rows "$FAKE_SACCT_ROWS"
	fetched first
	[ "$(awk -F'\t' '$1 == 9001 { print $14 }' "$BATS_TEST_TMPDIR/first")" = RUNNING ]
	RECENT_STATE=COMPLETED RECENT_END=$(date -d '-10 minutes' +%Y-%m-%dT%H:%M:%S) \
	    REQ_STATE=FAILED REQ_END=$(date -d '-20 minutes' +%Y-%m-%dT%H:%M:%S) \
	    store_rows "$FAKE_SACCT_ROWS"
	fetched second
	[ "$(awk -F'\t' '$1 == 9001 { print $14 }' "$BATS_TEST_TMPDIR/second")" = COMPLETED ]
	[ "$(awk -F'\t' '$1 == 2002 { print $6 ":" $14 }' "$BATS_TEST_TMPDIR/second" | tr '\n' ' ')" = "0:REQUEUED 1:FAILED " ]
	fetched fresh --no-cache
	cmp "$BATS_TEST_TMPDIR/fresh" "$BATS_TEST_TMPDIR/second"
}

@test "the store: damaged or another query's, it is said and not used; SLURMPAST_NO_CACHE" {
	stored
	sed -i 's/old|alice/odd|alice/; s/^2001|2001|old/2001|2001|odd/' "$store"
	sed -i '0,/old/s/old/odd/' "$store"
	fetched second
	[ "$(cat "$BATS_TEST_TMPDIR/second.err")" = "sp-fetch: the store $store is damaged: not used, sacct asked for the whole window" ]
	[ "$(asked_since)" = 2026-01-01 ]
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/second"
	# Rewritten whole by that run: the next one trusts it again.
	fetched third
	[ -z "$(cat "$BATS_TEST_TMPDIR/third.err")" ]
	[ "$(asked_since)" != 2026-01-01 ]
	# Another query's file under this name is not trusted either.
	sed -i '2s/.*/key	someone else/' "$store"
	fetched fourth
	[ "$(cat "$BATS_TEST_TMPDIR/fourth.err")" = "sp-fetch: the store $store is another query's: not used, sacct asked for the whole window" ]
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/fourth"
	echo garbage >"$store"
	fetched fifth
	[ "$(cat "$BATS_TEST_TMPDIR/fifth.err")" = "sp-fetch: the store $store is not a slurmpast store: not used, sacct asked for the whole window" ]
	# SLURMPAST_NO_CACHE=1 neither reads nor writes it.
	rm -rf "$XDG_CACHE_HOME"
	SLURMPAST_NO_CACHE=1 fetched sixth
	[ ! -e "$XDG_CACHE_HOME/slurmpast" ]
	[ "$(asked_since)" = 2026-01-01 ]
	run --separate-stderr sp-fetch --refresh --no-cache
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --refresh writes the store, --no-cache does not: give one" ]
}

@test "the store: --no-cache leaves it as it was, --refresh writes it anew" {
	stored
	cp -p "$store" "$BATS_TEST_TMPDIR/kept"
	# The controller rewrites a job long settled (as after a restart):
	# the store's copy stands until --refresh asks for the whole window.
	sed -i 's/^2001|2001|old|/2001|2001|redone|/' "$FAKE_SACCT_ROWS"
	fetched second
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/second"
	cp -p "$store" "$BATS_TEST_TMPDIR/kept"
	fetched fresh --no-cache
	[ "$(field 2001 name <"$BATS_TEST_TMPDIR/fresh")" = redone ]
	cmp "$store" "$BATS_TEST_TMPDIR/kept"
	[ ! "$store" -nt "$BATS_TEST_TMPDIR/kept" ]
	[ -z "$(cat "$BATS_TEST_TMPDIR/fresh.err")" ]
	fetched refreshed --refresh
	[ "$(asked_since)" = 2026-01-01 ]
	cmp "$BATS_TEST_TMPDIR/fresh" "$BATS_TEST_TMPDIR/refreshed"
	# The next run reads the refreshed store and asks for the recent part.
	fetched after
	[ "$(asked_since)" != 2026-01-01 ]
	cmp "$BATS_TEST_TMPDIR/fresh" "$BATS_TEST_TMPDIR/after"
	[ -z "$(cat "$BATS_TEST_TMPDIR/after.err")" ]
}

@test "the store: cut short anywhere, it is damaged, said once, and rewritten" {
	stored
	cp "$store" "$BATS_TEST_TMPDIR/whole"
	size=$(wc -c <"$BATS_TEST_TMPDIR/whole")
	# Without its last line, in the middle of a unit, inside the header,
	# empty; and a unit's byte count that runs past the file's end.
	for cut in $((size - 8)) $((size / 2)) 40 0; do
		head -c "$cut" "$BATS_TEST_TMPDIR/whole" >"$store"
		fetched "cut$cut"
		[ "$(asked_since)" = 2026-01-01 ]
		cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/cut$cut"
		[ "$(wc -l <"$BATS_TEST_TMPDIR/cut$cut.err")" -eq 1 ]
		grep -qx "sp-fetch: the store $store \(is damaged\|is not a slurmpast store\|is another query's\): not used, sacct asked for the whole window" "$BATS_TEST_TMPDIR/cut$cut.err"
		# That run wrote it whole again.
		[ "$(tail -n 1 "$store")" = "$(tail -n 1 "$BATS_TEST_TMPDIR/whole")" ]
	done
	sed '0,/^U\t[0-9]*/s//U\t99999/' "$BATS_TEST_TMPDIR/whole" >"$store"
	fetched long
	[ "$(cat "$BATS_TEST_TMPDIR/long.err")" = "sp-fetch: the store $store is damaged: not used, sacct asked for the whole window" ]
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/long"
}

@test "the store: runs at the same time leave a whole one" {
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows FAKE_SACCT_WINDOW=1
	export FAKE_SACCT_ROWS FAKE_SACCT_WINDOW
	store_rows "$FAKE_SACCT_ROWS"
	fetched first --no-cache
	for i in 1 2 3 4 5 6; do
		fetched "run$i" &
	done
	wait
	for i in 1 2 3 4 5 6; do
		cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/run$i"
		[ -z "$(cat "$BATS_TEST_TMPDIR/run$i.err")" ]
	done
	[ "$(ls "$XDG_CACHE_HOME"/slurmpast/ | grep -v '\.lock$' | wc -l)" -eq 1 ]
	fetched last
	[ -z "$(cat "$BATS_TEST_TMPDIR/last.err")" ]
	cmp "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/last"
}

@test "the store is not used for ids, a past window, or several clusters" {
	store_rows "$BATS_TEST_TMPDIR/rows"
	export FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/rows
	sp-fetch -j 2001 >/dev/null
	sp-fetch -a -S 2026-01-01 -E 2026-02-01 >/dev/null
	sp-fetch -a -S 2026-01-01 -M c1,c2 >/dev/null
	[ ! -e "$XDG_CACHE_HOME/slurmpast" ] || [ -z "$(ls "$XDG_CACHE_HOME/slurmpast")" ]
}

# ------------------------------------------------------- parts at once

# same_as_one_core FILE [OPTION...]: sp-fetch --input FILE read in small
# parts at once gives the bytes, the counts and the lines one core gives
# (a pipe is read on one core).
same_as_one_core() {
	local f=$1 d=$BATS_TEST_TMPDIR
	shift
	cat "$f" | sp-fetch --input - --stats "$d/one.stats" "$@" >"$d/one.tsv" 2>"$d/one.err"
	SLURMPAST_CHUNK_BYTES=${CHUNK:-4096} sp-fetch --input "$f" \
	    --stats "$d/parts.stats" "$@" >"$d/parts.tsv" 2>"$d/parts.err"
	cmp "$d/one.tsv" "$d/parts.tsv"
	cmp "$d/one.stats" "$d/parts.stats"
	# The names differ: <stdin> against the file's.
	diff <(sed 's|<stdin>|F|' "$d/one.err") <(sed "s|$f|F|" "$d/parts.err")
}

@test "--input of a file: read in parts at once, the same bytes as one core" {
	sp-fetch --demo-sacct --demo-jobs 2000 >"$BATS_TEST_TMPDIR/demo.psv"
	same_as_one_core "$BATS_TEST_TMPDIR/demo.psv"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/parts.tsv")" -gt 2000 ]
	same_as_one_core "$BATS_TEST_TMPDIR/demo.psv" --steps
	same_as_one_core "$BATS_TEST_TMPDIR/demo.psv" -u bob -S 2026-01-10
	run --separate-stderr env SLURMPAST_CHUNK_BYTES=50000 sp-fetch \
	    --input "$BATS_TEST_TMPDIR/demo.psv" -v
	[[ "${stderr_lines[1]}" =~ ^"sp-fetch: $BATS_TEST_TMPDIR/demo.psv: read in "[0-9]+" parts, "[0-9]" at once"$ ]]
}

@test "parts at once: a requeued job's attempts, a row over two lines, the counts" {
	{
		echo 'JobID|JobName|User|UID|Cluster|State|Submit|Elapsed|SubmitLine|Partition'
		echo '7|req|u1|1|c|REQUEUED|2026-01-01T00:00:00|00:01:00|sbatch r.sh|p'
		echo '7.batch|batch||||REQUEUED|2026-01-01T00:00:01|00:01:00||p'
		for i in $(seq 100 400); do
			echo "$i|fill|u2|2|c|COMPLETED|2026-01-01T01:00:00|00:00:0$((i % 10))|sbatch --wrap 'a"
			echo "b | c'|p"
		done
		echo '7|req|u1|1|c|NODE_FAIL|2026-01-01T02:00:00|00:02:00|sbatch r.sh|p'
		for i in $(seq 401 700); do
			echo "$i|short|u2|2|c|FOO|2026-01-01T03:00:00|00:00:01|sbatch s.sh"
		done
		echo '7|req|u1|1|c|COMPLETED|2026-01-01T04:00:00|00:03:00|sbatch r.sh|p'
		echo '7|other|u9|9|c|COMPLETED|2026-01-01T05:00:00|00:03:00|sbatch o.sh|p'
		echo '8|x|y|z|COMPLETED|too|many|fields|here|p'
	} >"$BATS_TEST_TMPDIR/r.psv"
	for CHUNK in 500 4096 30000; do
		CHUNK=$CHUNK same_as_one_core "$BATS_TEST_TMPDIR/r.psv"
	done
	run sp-fetch --input "$BATS_TEST_TMPDIR/r.psv"
	[ "$(awk -F'\t' '$1 == 7 { print $6, $7, $14 }' <<<"$output")" = "0 req REQUEUED
1 req NODE_FAIL
2 req COMPLETED
0 other COMPLETED" ]
}

@test "parts at once: the shared fixtures, as one core reads them" {
	need_fixtures
	CHUNK=20000 same_as_one_core "$FIXTURES/xdmod/pozidriv.log" --fields "$XDMOD_FIELDS"
	CHUNK=3000 same_as_one_core "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" --fields "$HPC_FIELDS" --steps
	CHUNK=3000 same_as_one_core "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" --fields "${HPC_FIELDS%,Partition}"
}

# ------------------------------------------------------------- fixtures

@test "fixture xdmod/pozidriv.log: 11704 allocations, nothing dropped" {
	need_fixtures
	run --separate-stderr sp-fetch --input "$FIXTURES/xdmod/pozidriv.log" \
	    --fields "$XDMOD_FIELDS"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 11705 ]
	[ "$(cut -f14 <<<"$output" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')" = "CANCELLED=468 COMPLETED=10134 FAILED=1007 PREEMPTED=86 TIMEOUT=9 state=1 " ]
	# the per-CPU bit in ReqMem: 2147486448Mn is 2800 MiB per CPU, x 8
	[ "$(field 996759 mem_limit_total_b <<<"$output")" = 23488102400 ]
	[ "$(field 999638 mem_limit_node_b <<<"$output")" = 58720256000 ]
	[ "$(field 999638 nnodes <<<"$output")" = 2 ]
	# Partition_Limit, None assigned, CANCELLED by N
	[ "$(field 990246 timelimit_s <<<"$output")" = "" ]
	[ "$(field 990246 nodelist <<<"$output")" = "" ]
	[ "$(field 990246 state <<<"$output")" = CANCELLED ]
	[ "$(field 990246 cancelled_by <<<"$output")" = 294703 ]
	# nothing open, every elapsed read
	[ "$(cut -f24 <<<"$output" | sort -u | tr '\n' ' ')" = "0 open " ]
	[ "$(awk -F'\t' 'NR > 1 && $25 == ""' <<<"$output" | wc -l)" -eq 0 ]
}

@test "fixture xdmod/accounting-logs.log: limits of named jobs" {
	need_fixtures
	run --separate-stderr sp-fetch --input "$FIXTURES/xdmod/accounting-logs.log" \
	    --fields "$XDMOD_FIELDS"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 5 ]
	# 3000Mc x 256 CPUs, where AllocTRES held the per-CPU request
	[ "$(field 4103947 mem_limit_total_b <<<"$output")" = 805306368000 ]
	[ "$(field 4103947 state <<<"$output")" = TIMEOUT ]
	# 48000Mn on 3 nodes
	[ "$(field 4107166 mem_limit_node_b <<<"$output")" = 50331648000 ]
	[ "$(field 4107166 mem_limit_total_b <<<"$output")" = 150994944000 ]
	[ "$(field 4107219 mem_limit_total_b <<<"$output")" = 150994944000 ]
	# ReqMem 0n and no mem= anywhere: unknown; GPUs from AllocTRES
	[ "$(field 5692623 mem_limit_total_b <<<"$output")" = "" ]
	[ "$(field 5692623 alloc_gpus <<<"$output")" = 2 ]
}

@test "fixture xdmod arrays, open, unknown states, UTF-8" {
	need_fixtures
	run sp-fetch --input "$FIXTURES/xdmod/accounting-logs-with-job-arrays.log" \
	    --fields "$XDMOD_FIELDS"
	[ "$status" -eq 0 ]
	[ "$(cut -f3,4 <<<"$output" | tail -n +2 | tr '\t\n' '_ ')" = "4103947_100 4103947_[1-3] 4103947_[1,5] 4103947_[9-11,20] 4103947_[91,100-102] 4103947_[9-11,13,16-20] " ]
	run sp-fetch --input "$FIXTURES/xdmod/non-ended-job-state.log" --fields "$XDMOD_FIELDS"
	[ "$(field 3451067 open <<<"$output")" = 1 ]
	[ "$(field 3483276 open <<<"$output")" = 1 ]
	[ "$(field 3483276 start <<<"$output")" = "" ]
	run --separate-stderr sp-fetch --input "$FIXTURES/xdmod/unknown-job-state.log" --fields "$XDMOD_FIELDS"
	[ "$(field 3451067 state <<<"$output")" = FOO ]
	[ "$(field 3483276 state <<<"$output")" = BAR ]
	[ "$stderr" = "sp-fetch: 2 records in states slurmpast does not know (FOO, BAR): kept as printed, counted as neither success nor failure" ]
	run sp-fetch --input "$FIXTURES/xdmod/utf8-multibyte-chars.log" --fields "$XDMOD_FIELDS"
	[ "$(field 4103947 name <<<"$output")" = "aàb" ]
}

@test "fixture hpc-cost-simulator: two formats in one file, the other rows counted" {
	need_fixtures
	f=$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt
	run --separate-stderr sp-fetch --input "$f" --fields "$HPC_FIELDS"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 484 ]
	[ "$stderr" = "sp-fetch: read 846 rows short of their last field (Partition) with it unknown" ]
	[ "$(field 67108880 partition <<<"$output")" = "" ]
	[ "$(field 67108880 max_rss_b <<<"$output")" = 117895168 ]
	[ "$(field 67108865 partition <<<"$output")" = partition1 ]
	[ "$(field 67108865 state <<<"$output")" = OUT_OF_MEMORY ]
	[ "$(field 67108865 max_rss_b <<<"$output")" = 117702656 ]
	[ "$(field 67108865 mem_limit_total_b <<<"$output")" = 104857600 ]
	[ "$(field 67108865 total_cpu_s <<<"$output")" = 130.584 ]
	run --separate-stderr sp-fetch --input "$f" --fields "${HPC_FIELDS%,Partition}"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 468 ]
	[ "$stderr" = "sp-fetch: dropped 32 rows with more fields than the 25 named, where no single free-text field can hold the extra ones (the delimiter inside a value?)
sp-fetch: left out 16 allocations whose own rows were dropped" ]
	[ "$(field 67108880 max_rss_b <<<"$output")" = 117895168 ]
}

@test "fixture slurm2sql: headers, steps, CANCELLED by, a CSV export" {
	need_fixtures
	for n in 1 2; do
		run --separate-stderr sp-fetch --input "$FIXTURES/slurm2sql/test-data$n.txt"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		[ "${#lines[@]}" -eq 3 ]
		[ "$(field 43974388 cancelled_by <<<"$output")" = 1300204 ]
		[ "$(field 43974388 total_cpu_s <<<"$output")" = 15.056 ]
		[ "$(field 43974388 max_rss_b <<<"$output")" = 236638208 ]
		[ "$(field 43974388 max_rss_step <<<"$output")" = batch ]
		[ "$(field 43977780 end <<<"$output")" = "" ]
		[ "$(field 43977780 open <<<"$output")" = 0 ]
	done
	run --separate-stderr sp-fetch --input "$FIXTURES/slurm2sql/test-data3.txt"
	[ "$status" -eq 0 ]
	[ "$(field 1 name <<<"$output")" = job1 ]
	[ "$(field 1 start <<<"$output")" = 1970-01-01T03:00:00 ]
}

# ----------------------------------------------------------------- demo

@test "--demo goes through the same parser as sacct's text" {
	sp-fetch --demo-sacct >"$BATS_TEST_TMPDIR/demo.psv" 2>/dev/null ||
		skip "the demo history is not built in yet"
	run --separate-stderr sp-fetch --demo
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# allocation rows: a job id without a step (other lines continue a row)
	allocs=$(awk -F'|' 'NR > 1 && $1 ~ /^[0-9][0-9_+]*$/' \
	    "$BATS_TEST_TMPDIR/demo.psv" | wc -l)
	[ "${#lines[@]}" -eq $((allocs + 1)) ]
	run sp-fetch --input "$BATS_TEST_TMPDIR/demo.psv"
	[ "${#lines[@]}" -eq $((allocs + 1)) ]
}

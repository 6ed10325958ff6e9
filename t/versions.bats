#!/usr/bin/env bats
# Every Slurm a user runs: the habits of one version read right (Slurm
# 25.05's zero CPU times for job steps), a saved dump that asks this
# machine's Slurm nothing, and the fields and failures of newer versions.
# sacct is faked by t/fake/sacct; the 25.05 history is hand-made
# (t/data/slurm-25.05-cpu/README).

load lib/common

setup() {
	PATH="$SP_TOP/t/fake:$PATH"
	CPU25=$SP_TOP/t/data/slurm-25.05-cpu/relax-pipe.txt
	FAKE_SACCT_LOG=$BATS_TEST_TMPDIR/argv
	SLURMPAST_NO_SITE=1
	export PATH FAKE_SACCT_LOG SLURMPAST_NO_SITE
	unset FAKE_SACCT_MODE FAKE_SACCT_HELPFORMAT FAKE_SACCT_HELP_FAIL
	unset FAKE_SACCT_ROWS SLURMPAST_TIMEOUT SLURMPAST_SITE
}

# The named columns of every record (the header not printed), space-separated, in the input's order.
cols() {
	awk -F'\t' -v want="$*" '
		NR == 1 { n = split(want, w, " ")
			  for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ line = ""
		  for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") $c[w[i]]
		  print line }'
}

HABIT25="sp-fetch: read the CPU time of 4 jobs from TRESUsageInTot's cpu=: TotalCPU, UserCPU and SystemCPU said 0 or nothing, as Slurm 25.05 wrote them for job steps (user and system time unknown)"

# ---------------------------------------------- Slurm 25.05's CPU times

@test "25.05 history, --input: CPU time from TRESUsageInTot, said once" {
	run --separate-stderr sp-fetch --input "$CPU25" --stats "$BATS_TEST_TMPDIR/stats"
	[ "$status" -eq 0 ]
	[ "$stderr" = "$HABIT25" ]
	[ "$(printf '%s\n' "$output" | cols jobid state total_cpu_s user_cpu_s sys_cpu_s)" = "5001 COMPLETED 27002  
5002 COMPLETED 26502  
5003 COMPLETED 27602  
5004 TIMEOUT 54002  " ]
	[ "$(awk -F'\t' '$1 ~ /^cpu_from/ { print $1, $2 }' "$BATS_TEST_TMPDIR/stats")" = "cpu_from_usersys 0
cpu_from_tres 4" ]
}

@test "25.05 history, --steps: each step's own source; .extern's 0 is a reading" {
	run --separate-stderr sp-fetch --input "$CPU25" --steps -j 5004
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cols step total_cpu_s user_cpu_s)" = " 54002 
batch 2 
extern 0 0
0 54000 " ]
}

@test "25.05 history from sacct: the same records as from the dump" {
	FAKE_SACCT_ROWS=$CPU25
	export FAKE_SACCT_ROWS
	run --separate-stderr sp-fetch --no-cache
	[ "$status" -eq 0 ]
	[ "$stderr" = "$HABIT25" ]
	expected=$(sp-fetch --input "$CPU25" 2>/dev/null)
	[ "$output" = "$expected" ]
}

@test "TotalCPU 0, UserCPU + SystemCPU not: the sum, said" {
	printf '%s\n' 'JobID|JobName|User|Partition|State|ExitCode|Start|End|ElapsedRaw|AllocCPUS|TotalCPU|UserCPU|SystemCPU|TRESUsageInTot' \
		'9|a|u|p|COMPLETED|0:0|2026-01-01T00:00:00|2026-01-01T01:00:00|3600|1|00:00:00|00:40:00|00:10:00|' \
		'9.batch|batch|||COMPLETED|0:0|2026-01-01T00:00:00|2026-01-01T01:00:00|3600|1|00:00:00|00:40:00|00:10:00|cpu=00:50:00' \
		>"$BATS_TEST_TMPDIR/d"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-fetch: read the CPU time of 1 job from UserCPU + SystemCPU: TotalCPU said 0 or nothing" ]
	[ "$(printf '%s\n' "$output" | cols total_cpu_s user_cpu_s sys_cpu_s | tail -1)" = "3000 2400 600" ]
}

@test "25.05 history: sp-hang lists no run; the timeout is a computing one" {
	sp-fetch --input "$CPU25" 2>/dev/null | sp-group >"$BATS_TEST_TMPDIR/g"
	run --separate-stderr sp-hang "$BATS_TEST_TMPDIR/g"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	run --separate-stderr sp-size "$BATS_TEST_TMPDIR/g"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cols flag verdict suggestion basis | grep -- '^--time ')" = "--time raise --time=05:00:00 longest of 3 completed runs took 02:03:00; 1 run timed out while computing at 04:00:00, so at least 05:00:00" ]
	[ "$(printf '%s\n' "$output" | cols flag verdict | grep -- '^--cpus')" = "--cpus-per-task raise" ]
}

@test "25.05 history, the report: no hang, a slow timeout, the habit said once" {
	run --separate-stderr slurmpast --input "$CPU25" --plain
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sed -n 3p)" = "A habit of Slurm met: read the CPU time of 4 jobs from TRESUsageInTot's cpu=: TotalCPU, UserCPU and SystemCPU said 0 or nothing, as Slurm 25.05 wrote them for job steps (user and system time unknown)." ]
	printf '%s\n' "$output" | grep -q '^relax  *spalice  *cpu  *4  *1  *0 '
	printf '%s\n' "$output" | grep -q '^5004  *relax  *TIMEOUT .*timeout-real: Ran out of wall clock at its 04:00:00 limit while working (15:00:02 of CPU)'
	! printf '%s\n' "$output" | grep -qi 'computed nothing\|hung\|blocked'
	[ "$stderr" = "slurmpast: ${HABIT25#sp-fetch: }" ]
}

# ------------------------------------ a saved dump is another cluster's

# Stand-ins for every Slurm command, first on PATH: each records its call
# in $CALLS and fails as a machine outside any cluster does.
stand_ins() {
	mkdir -p "$BATS_TEST_TMPDIR/slurm"
	CALLS=$BATS_TEST_TMPDIR/calls
	for c in sacct sstat scontrol sinfo squeue; do
		cat >"$BATS_TEST_TMPDIR/slurm/$c" <<-STAND
		#!/bin/sh
		echo "$c \$*" >>"$CALLS"
		echo "$c: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host" >&2
		exit 1
		STAND
		chmod +x "$BATS_TEST_TMPDIR/slurm/$c"
	done
	PATH=$BATS_TEST_TMPDIR/slurm:$PATH
	unset SLURMPAST_NO_SITE
}

@test "slurmpast --input: no Slurm command runs; the site caveat said once, quietly" {
	stand_ins
	printf '#!/bin/sh\n#SBATCH -J relax -p cpu\n#SBATCH --time=04:00:00\n#SBATCH --mem=8G\nsrun relax\n' \
		>"$BATS_TEST_TMPDIR/relax.sh"
	run --separate-stderr slurmpast --input "$CPU25" --plain
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "4 jobs of spalice, 2025-09-01 to 2025-09-04, read from $CPU25 (site facts unknown: not asked of this machine), in 1 workload." ]
	[ "$(printf '%s\n' "$output" | grep -c 'site facts')" -eq 1 ]
	[ "$stderr" = "slurmpast: ${HABIT25#sp-fetch: }" ]
	run --separate-stderr slurmpast --input "$CPU25" --json -a
	[ "$status" -eq 0 ]
	# One job's post-mortem: its critical finding is status 1.
	run --separate-stderr slurmpast --input "$CPU25" --plain 5004
	[ "$status" -eq 1 ]
	[[ "$output" == *"timeout-real"* ]]
	run --separate-stderr slurmpast --input "$CPU25" --advise "$BATS_TEST_TMPDIR/relax.sh" -u spalice
	[ "$status" -eq 0 ]
	[ ! -e "$CALLS" ]
}

@test "slurmpast --input --site: this machine's facts asked, once each" {
	stand_ins
	run --separate-stderr slurmpast --input "$CPU25" --site --plain
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "4 jobs of spalice, 2025-09-01 to 2025-09-04, read from $CPU25, in 1 workload." ]
	[ "$(sort "$CALLS")" = "scontrol show config
sinfo -h -a -N -o %R %c %m" ]
	run --separate-stderr slurmpast --demo --site
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --site: the demo's cluster is no real one; --site is for a dump of this cluster" ]
}

@test "sp-fetch --input --site: the facts written unknown, asked only with --local-site" {
	stand_ins
	run --separate-stderr sp-fetch --input "$CPU25" --site "$BATS_TEST_TMPDIR/site"
	[ "$status" -eq 0 ]
	[ ! -e "$CALLS" ]
	[ "$(sed -n '3p;8p' "$BATS_TEST_TMPDIR/site")" = "scontrol	0
sinfo	0" ]
	# The stages after read the file: they ask nothing either.
	printf '%s\n' "$output" | sp-group | SLURMPAST_SITE=$BATS_TEST_TMPDIR/site sp-size >/dev/null
	[ ! -e "$CALLS" ]
	run --separate-stderr sp-fetch --input "$CPU25" --site "$BATS_TEST_TMPDIR/site" --local-site
	[ "$status" -eq 0 ]
	[ "$(sort "$CALLS")" = "scontrol show config
sinfo -h -a -N -o %R %c %m" ]
	run --separate-stderr sp-fetch --input "$CPU25" --local-site
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-fetch: --local-site asks this machine's Slurm about a dump's cluster: it goes with --input and --site" ]
}

# ------------------------------------------------------- just ended

# A history from sacct, its times counted back from now (this machine's
# civil time, as sacct prints it): 71 ended a minute ago with no CPU time
# recorded, 72 two hours ago the same, 73 a minute ago having computed,
# 74 a minute ago on a node that failed (a state that explains it).
recent_rows() {
	local now t
	now=$(date +%s)
	t() { date -d "@$((now - $1))" +%Y-%m-%dT%H:%M:%S; }
	{
		echo 'JobID|JobName|User|Partition|State|ExitCode|Submit|Eligible|Start|End|ElapsedRaw|AllocCPUS|TotalCPU'
		echo "71|idle|u|p|COMPLETED|0:0|$(t 1300)|$(t 1300)|$(t 1260)|$(t 60)|1200|1|00:00:00"
		echo "71.batch|batch|||COMPLETED|0:0|$(t 1260)|$(t 1260)|$(t 1260)|$(t 60)|1200|1|00:00:00"
		echo "72|idle|u|p|COMPLETED|0:0|$(t 8500)|$(t 8500)|$(t 8400)|$(t 7200)|1200|1|00:00:00"
		echo "72.batch|batch|||COMPLETED|0:0|$(t 8400)|$(t 8400)|$(t 8400)|$(t 7200)|1200|1|00:00:00"
		echo "73|work|u|p|COMPLETED|0:0|$(t 1300)|$(t 1300)|$(t 1260)|$(t 60)|1200|1|00:10:00"
		echo "74|idle|u|p|NODE_FAIL|1:0|$(t 1300)|$(t 1300)|$(t 1260)|$(t 60)|1200|1|00:00:00"
	} >"$BATS_TEST_TMPDIR/recent.psv"
	FAKE_SACCT_ROWS=$BATS_TEST_TMPDIR/recent.psv
	export FAKE_SACCT_ROWS
}

@test "just ended with no CPU time: usage not yet recorded, not a hang" {
	recent_rows
	run --separate-stderr sp-fetch --no-cache --steps --stats "$BATS_TEST_TMPDIR/stats"
	[ "$status" -eq 0 ]
	[ "$stderr" = "sp-fetch: 1 job ended within the last 5 minutes with no CPU time recorded: usage not yet recorded, read as unknown, not as computing nothing (ask again later)" ]
	[ "$(printf '%s\n' "$output" | cols jobid step total_cpu_s)" = "71  
71 batch 
72  0
72 batch 0
73  600
74  0" ]
	[ "$(awk -F'\t' '$1 == "usage_not_recorded" { print $2 }' "$BATS_TEST_TMPDIR/stats")" = 1 ]
	# The hang rule sees the one that had time to be recorded.
	printf '%s\n' "$output" | sp-group >"$BATS_TEST_TMPDIR/g"
	run --separate-stderr sp-hang "$BATS_TEST_TMPDIR/g"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$output" | cols jobid)" = 72 ]
	[ "$stderr" = "sp-hang: could not judge 1 allocation: no CPU time recorded (total_cpu_s)" ]
	# A saved dump has no "now" of its own: read as written.
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/recent.psv"
	[ -z "$stderr" ]
	[ "$(printf '%s\n' "$output" | cols jobid total_cpu_s)" = "71 0
72 0
73 600
74 0" ]
}

# ------------------------------------------- every version's fields

@test "sacct 23.02 to 26.05: each helpformat's query, answered; --version never asked" {
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv
	# 26.05's sacct --version fails without a readable slurm.conf.
	FAKE_SACCT_VERSION_FAIL=1
	export FAKE_SACCT_ROWS FAKE_SACCT_VERSION_FAIL
	for v in 23.02 23.11 24.05 24.11 25.05 25.11 26.05; do
		FAKE_SACCT_HELPFORMAT=$SP_TOP/t/fake/helpformat-$v
		export FAKE_SACCT_HELPFORMAT
		rm -f "$FAKE_SACCT_LOG"
		run --separate-stderr sp-fetch --no-cache
		[ "$status" -eq 0 ] || { echo "$v: $stderr"; return 1; }
		[ -z "$stderr" ]
		[ "${#lines[@]}" -eq 4 ]
		# Every field asked is one this version lists.
		for f in $(sed -n 's/^--format=//p' "$FAKE_SACCT_LOG" | tr , ' '); do
			tr -s ' ' '\n' <"$FAKE_SACCT_HELPFORMAT" | grep -qix "$f" ||
				{ echo "$v has no $f"; return 1; }
		done
		! grep -qx -- '--version' "$FAKE_SACCT_LOG"
	done
	# The stand-in's --version does fail, as 26.05's does.
	run sacct --version
	[ "$status" -eq 1 ]
}

# A 26.05 dump: the 25.05 history with the fields 26.05 added, and
# --mem-update on every submit line.
dump_2605() {
	awk 'BEGIN { FS = OFS = "|" }
	NR == 1 { print $0, "Exclusive", "OriginalSLUID", "OverSubscribe",
		  "ReqReservation", "SegmentSize"; next }
	{ sub(/--mem=8G/, "--mem=8G --mem-update=20@30")
	  print $0, "NO", "", "OK", "", "" }' "$CPU25" >"$BATS_TEST_TMPDIR/2605.psv"
}

@test "26.05 dump: its new fields read past; --mem-update's limits unknown, said once" {
	dump_2605
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/2605.psv" --stats "$BATS_TEST_TMPDIR/stats"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | tail -n 1)" = "sp-fetch: 4 jobs asked for --mem-update: Slurm may have lowered their memory limit while they ran, so the limit in the record need not be the one they ran or were killed under; read as unknown, never as a kill size or a request" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 2 ]
	[ "$(printf '%s\n' "$output" | cols jobid state total_cpu_s req_mem mem_limit_node_b mem_limit_total_b max_rss_b)" = "5001 COMPLETED 27002 8G   3250585600
5002 COMPLETED 26502 8G   3198156800
5003 COMPLETED 27602 8G   3303014400
5004 TIMEOUT 54002 8G   3271557120" ]
	[ "$(awk -F'\t' '$1 == "mem_update" { print $2 }' "$BATS_TEST_TMPDIR/stats")" = 4 ]
	# Without a known limit, no --mem figure rests on them.
	printf '%s\n' "$output" | sp-group >"$BATS_TEST_TMPDIR/g"
	run --separate-stderr sp-size "$BATS_TEST_TMPDIR/g"
	[ "$(printf '%s\n' "$output" | cols flag verdict requested basis | grep -- '^--mem ')" = "--mem refuse  the input's column 'mem_limit_node_b' has no value in any record, and the --mem rule reads it" ]
	# The same records without --mem-update keep their limits.
	run --separate-stderr sp-fetch --input "$CPU25"
	[ "$(printf '%s\n' "$output" | cols mem_limit_node_b | sort -u)" = 8589934592 ]
}

# ------------------------------- every recorded version, read whole

# check_mix DIR DUMP [sp-fetch options]: the dump's records against DIR's
# manifest (mix.sh's: key jobid user name state exit_code signal attempts
# mem_node_b mem_total_b gpus nnodes cancelled_by); prints one line per
# job that differs, and "missing KEY" for one not read.
check_mix() {
	local dir=$1 dump=$2
	shift 2
	sp-fetch --input "$dump" "$@" >"$BATS_TEST_TMPDIR/mix.tsv" 2>"$BATS_TEST_TMPDIR/mix.err" ||
		{ echo "sp-fetch failed: $(cat "$BATS_TEST_TMPDIR/mix.err")"; return 0; }
	awk -F'\t' '
	FNR == 1 { file++; for (i = 1; i <= NF; i++) c[file, $i] = i; next }
	file == 1 {
		id = $c[1, "jobid"]
		n[id]++
		# The last attempt: sacct -D prints them by submit time.
		st[id] = $c[1, "state"]; ex[id] = $c[1, "exit_code"]
		sg[id] = $c[1, "signal"]; by[id] = $c[1, "cancelled_by"]
		mn[id] = $c[1, "mem_limit_node_b"]; mt[id] = $c[1, "mem_limit_total_b"]
		gp[id] = $c[1, "alloc_gpus"]; nn[id] = $c[1, "nnodes"]
		us[id] = $c[1, "user"]
		next
	}
	{
		k = $c[2, "key"]; id = $c[2, "jobid"]
		if (!(id in n)) { print "missing " k; next }
		got = us[id] " " st[id] " " ex[id] ":" sg[id] " x" n[id] " by" by[id]
		want = $c[2, "user"] " " $c[2, "state"] " " $c[2, "exit_code"] ":" \
		    $c[2, "signal"] " x" $c[2, "attempts"] " by" $c[2, "cancelled_by"]
		if ($c[2, "mem_node_b"] != "") {
			got = got " " mn[id] "/" mt[id]
			want = want " " $c[2, "mem_node_b"] "/" $c[2, "mem_total_b"]
		}
		if ($c[2, "gpus"] != "") { got = got " g" gp[id]; want = want " g" $c[2, "gpus"] }
		if ($c[2, "nnodes"] != "") { got = got " n" nn[id]; want = want " n" $c[2, "nnodes"] }
		if (got != want) print k ": " got " (the manifest: " want ")"
	}' "$BATS_TEST_TMPDIR/mix.tsv" "$dir/manifest.tsv"
}

@test "every recorded Slurm version: its job mix read whole, states right" {
	local dir n=0 dump
	for dir in "$SP_TOP"/t/data/slurm-[0-9]*/ "$SP_TOP"/t/fixtures/slurm-[0-9]*/; do
		[ -f "$dir/manifest.tsv" ] || continue
		n=$((n + 1))
		# '|' between fields: the job whose name holds one is dropped, and said.
		dump=$dir/mix-pipe.txt
		[ "$(check_mix "$dir" "$dump")" = "missing trap_name" ] ||
			{ echo "$dump:"; check_mix "$dir" "$dump"; return 1; }
		grep -qx "sp-fetch: dropped 1 row with more fields than the $(tr , '\n' <"$dir/mix-fields.txt" | grep -c .) named, where no single free-text field can hold the extra ones (the delimiter inside a value?)" \
			"$BATS_TEST_TMPDIR/mix.err"
		# 0x1F between fields, with and without a header: every job.
		[ -z "$(check_mix "$dir" "$dir/mix-us.txt")" ] ||
			{ check_mix "$dir" "$dir/mix-us.txt"; return 1; }
		[ -z "$(check_mix "$dir" "$dir/mix-us-noheader.txt" --fields "$(cat "$dir/mix-fields.txt")")" ]
	done
	# 22.05 (t/data), 24.11 and 26.05 (t/fixtures): none may go missing.
	[ "$n" -ge 3 ]
}

#!/usr/bin/env bats
# sp-fetch against a real Slurm 22.05: the private cluster of up.sh, the
# job mix of mix.sh, and the ways sacct fails when a piece of Slurm is
# missing.  Needs root; brings the cluster up itself (and down again if it
# was not already running), so `make check-slurm` works from nothing.
# Set SP_CLUSTER_KEEP=1 to leave a cluster this file started running.

bats_require_minimum_version 1.5.0
SP_TOP=${SP_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
load ../lib/common

CLUSTER=$BATS_TEST_DIRNAME
load setup

setup_file() {
	cluster_setup_file
}

teardown_file() {
	cluster_teardown_file
}

setup() {
	[ "$(id -u)" = 0 ] || skip "the real Slurm cluster needs root"
	. "$CLUSTER/lib.sh"
}

# A test that stopped a daemon or hid something puts the cluster back
# even when it failed half-way, so the tests after it still have one.
teardown() {
	[ "$(id -u)" = 0 ] || return 0
	# A daemon stopped with SIGSTOP is alive to up.sh: continue it.
	if [ -e "$BATS_FILE_TMPDIR/continue" ]; then
		kill -CONT "$(cat "$BATS_FILE_TMPDIR/continue")" 2>/dev/null
		rm -f "$BATS_FILE_TMPDIR/continue"
	fi
	if [ -e "$BATS_FILE_TMPDIR/restore" ]; then
		rm -f "$BATS_FILE_TMPDIR/restore"
		"$CLUSTER/up.sh"
	fi
}

# rec FILE JOBID COLUMN [ATTEMPT]: the record's COLUMN, found by header
# name; without ATTEMPT, the last attempt's.  Fails when there is none.
rec_in() {
	awk -F'\t' -v id="$2" -v col="$3" -v att="${4:-}" '
		NR == 1 {
			for (i = 1; i <= NF; i++) h[$i] = i
			if (!(col in h)) { print "no column " col > "/dev/stderr"; exit 1 }
			next
		}
		$h["jobid"] == id && (att == "" || $h["attempt"] == att) &&
		    (best == "" || $h["attempt"] + 0 >= best) {
			best = $h["attempt"] + 0; v = $h[col]; found = 1
		}
		END {
			if (!found) { print "no record for job " id > "/dev/stderr"; exit 1 }
			print v
		}' "$1"
}

# rec KEY COLUMN [ATTEMPT]: the same for the mix job KEY, from the fetch.
rec() {
	rec_in "$RECORDS" "$(expect "$1" jobid)" "$2" "${3:-}"
}

# Every manifest key, one a line.
keys() {
	awk -F'\t' 'NR > 1 { print $1 }' "$MANIFEST"
}

# same ACTUAL WANT: equal, or both shown.
same() {
	[ "$1" = "$2" ] && return 0
	printf 'got:  %s\nwant: %s\n' "$1" "$2"
	return 1
}

# attempts_match FILE SKIP STRICT: FILE holds as many records of each mix
# job as the manifest says it has attempts (keys in SKIP left out); STRICT
# also wants no record of any other job.
attempts_match() {
	awk -F'\t' -v skip=" $2 " -v strict="${3:-}" '
		NR == FNR {
			if (FNR == 1) { for (i = 1; i <= NF; i++) m[$i] = i; next }
			if (index(skip, " " $m["key"] " ")) { skipped[$m["jobid"]] = 1; next }
			key[$m["jobid"]] = $m["key"]; want[$m["jobid"]] = $m["attempts"]
			next
		}
		FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		{ n[$h["jobid"]]++ }
		END {
			for (id in want)
				if (n[id] != want[id]) {
					printf "%s (%s): %d records, want %d\n", key[id], id, n[id], want[id]
					bad = 1
				}
			if (strict)
				for (id in n)
					if (!(id in want)) { printf "record of job %s, not in the mix\n", id; bad = 1 }
			exit bad
		}' "$MANIFEST" "$1"
}

# The earliest submit time of the mix, for -S.
mix_since() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		{ print $h["submit"] }' "$RECORDS" | sort | head -n 1
}

# compare MCOL==RCOL ... : every manifest job's MCOL against its record's
# (last attempt) RCOL; MCOL=RCOL skips jobs whose MCOL is empty.  One awk
# pass over both files: prints every difference, fails if there is one.
compare() {
	awk -F'\t' -v pairs="$*" '
		BEGIN {
			np = split(pairs, p, " ")
			for (k = 1; k <= np; k++) {
				exact[k] = index(p[k], "==") > 0
				split(p[k], ab, exact[k] ? "==" : "=")
				mc[k] = ab[1]; rc[k] = ab[2]
			}
		}
		NR == FNR {
			if (FNR == 1) { for (i = 1; i <= NF; i++) m[$i] = i; next }
			nm++; key[nm] = $m["key"]; id[nm] = $m["jobid"]
			for (k = 1; k <= np; k++) want[nm, k] = $m[mc[k]]
			next
		}
		FNR == 1 {
			for (i = 1; i <= NF; i++) h[$i] = i
			for (k = 1; k <= np; k++)
				if (!(rc[k] in h)) { print "no column " rc[k]; exit 2 }
			next
		}
		{
			j = $h["jobid"]; a = $h["attempt"] + 0
			if (!(j in best) || a >= best[j]) {
				best[j] = a
				for (k = 1; k <= np; k++) got[j, k] = $h[rc[k]]
			}
		}
		END {
			for (r = 1; r <= nm; r++)
				for (k = 1; k <= np; k++) {
					if (!exact[k] && want[r, k] == "") continue
					if (!(id[r] in best)) { print key[r] ": no record"; bad = 1; break }
					if (got[id[r], k] != want[r, k]) {
						printf "%s (%s): %s=\"%s\", want \"%s\"\n", key[r], id[r],
						    rc[k], got[id[r], k], want[r, k]
						bad = 1
					}
				}
			exit bad
		}' "$MANIFEST" "$RECORDS"
}

# between X LO HI: X is a number from LO to HI.
between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x + 0 >= lo && x + 0 <= hi) }'
}

@test "sp-fetch reads the whole mix from the real sacct" {
	run cat "$BATS_FILE_TMPDIR/fetch.rc"
	[ "$output" = 0 ] || {
		cat "$BATS_FILE_TMPDIR/fetch.err"
		false
	}
	[ ! -s "$BATS_FILE_TMPDIR/fetch.err" ]
	head -n 1 "$RECORDS" | tr '\t' '\n' >"$BATS_TEST_TMPDIR/cols"
	for c in jobid attempt name user state exit_code signal cancelled_by \
	    mem_limit_node_b mem_limit_total_b max_rss_b total_cpu_s user_cpu_s \
	    sys_cpu_s alloc_gpus nnodes nodelist open submit_line; do
		grep -qx "$c" "$BATS_TEST_TMPDIR/cols" || { echo "no column $c"; false; }
	done
}

@test "every job of the mix is there, once per attempt, and nothing else" {
	attempts_match "$RECORDS" "" strict
}

@test "state, exit code and signal of every job" {
	compare state==state exit_code==exit_code signal==signal
}

@test "user of every job, and who cancelled the cancelled ones" {
	compare user==user cancelled_by==cancelled_by
}

@test "every record is closed" {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["open"] != "0" { print $h["jobid"] " open=" $h["open"]; bad = 1 }
		END { if (NR < 2) { print "no records"; bad = 1 } exit bad }' "$RECORDS"
}

@test "the uid of every job is its user's" {
	local u
	for u in root $SPC_USERS; do
		awk -F'\t' -v u="$u" -v uid="$(id -u "$u")" '
			NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			$h["user"] != u { next }
			{ n++ }
			$h["uid"] != uid { print $h["jobid"] " uid=" $h["uid"]; bad = 1 }
			END { if (!n) { print "no records of " u; bad = 1 } exit bad }' "$RECORDS"
	done
}

@test "the trap names come through intact: | and tab in a name, newline in the command" {
	[ "$(rec trap_name name)" = 'trap|pipe\ttab' ]
	[ "$(expect trap_name name)" = 'trap|pipe\ttab' ]
	[ "$(rec trap_name comment)" = 'a | in the comment' ]
	run rec trap_newline submit_line
	[[ $output == *'--wrap=echo one\necho two' ]]
	[ "$(rec fold_s1e20 name)" = s1e20 ]
	[ "$(rec fold_s2e47 name)" = s2e47 ]
	[ "$(rec fold_lr name)" = train_lr0.001 ]
}

@test "per-node and total memory limits: --mem, --mem-per-cpu, two nodes" {
	compare mem_node_b=mem_limit_node_b mem_total_b=mem_limit_total_b
	# The default the cluster gives a job that asks for nothing: 100 MB a CPU.
	[ "$(rec completed mem_limit_node_b)" = 104857600 ]
}

@test "the OOM job's peak against its limit, and the array's climb" {
	local limit peak
	limit=$(rec oom mem_limit_node_b)
	peak=$(rec oom max_rss_b)
	[ "$limit" = 209715200 ]
	# Killed on reaching the limit: the 1-second sampler saw most of it,
	# and never more than the cgroup allowed.
	between "$peak" "$((limit / 2))" "$((limit * 105 / 100))" || {
		echo "oom peak $peak against limit $limit"
		false
	}
	# Array tasks: 1 stays near 100 MiB, 2 near 180; 3 and 4 die at the limit.
	between "$(rec oom_array_1 max_rss_b)" 80000000 150000000
	between "$(rec oom_array_2 max_rss_b)" 150000000 "$limit"
	between "$(rec oom_array_3 max_rss_b)" "$((limit / 2))" "$((limit * 105 / 100))"
	between "$(rec oom_array_4 max_rss_b)" "$((limit / 2))" "$((limit * 105 / 100))"
	[ "$(rec oom max_rss_step)" = batch ]
}

@test "the burner's CPU: two workers of 4 s user time each, on 2 CPUs" {
	local total user sys cpu_time
	total=$(rec burner total_cpu_s)
	user=$(rec burner user_cpu_s)
	sys=$(rec burner sys_cpu_s)
	cpu_time=$(rec burner cpu_time_s)
	[ "$(rec burner alloc_cpus)" = 2 ]
	between "$total" 7.9 20
	between "$user" 7.9 20
	# Work-step CPU is user plus system, to the millisecond each.
	awk -v t="$total" -v u="$user" -v s="$sys" 'BEGIN { d = t - u - s; exit !(d > -0.0025 && d < 0.0025) }'
	awk -v u="$user" -v t="$total" 'BEGIN { exit !(u / t > 0.9) }'
	# Never more than the allocation could burn (elapsed x 2 CPUs).
	awk -v t="$total" -v c="$cpu_time" 'BEGIN { exit !(t <= c) }'
}

@test "dd bs=1 spends a kernel share the burner does not" {
	local total sys user elapsed cpus
	total=$(rec dd total_cpu_s)
	sys=$(rec dd sys_cpu_s)
	user=$(rec dd user_cpu_s)
	elapsed=$(rec dd elapsed_s)
	cpus=$(rec dd alloc_cpus)
	# Shares of the job's own figures, never an absolute amount of CPU
	# (that depends on the processor): dd ran for three seconds of wall
	# clock, so it kept a core at least a tenth busy over its elapsed
	# time, and it cannot have used more than its cores could give.
	awk -v t="$total" -v e="$elapsed" -v c="$cpus" \
		'BEGIN { exit !(t != "" && e > 0 && t / e > 0.1 && t <= e * c + 0.01) }' || {
		echo "dd: total $total over elapsed $elapsed on $cpus cores"
		false
	}
	awk -v t="$total" -v u="$user" -v s="$sys" 'BEGIN { d = t - u - s; exit !(d > -0.0025 && d < 0.0025) }'
	awk -v s="$sys" -v t="$total" 'BEGIN { exit !(s / t > 0.3) }' || {
		echo "dd: sys $sys of total $total"
		false
	}
	awk -v s="$(rec burner sys_cpu_s)" -v t="$(rec burner total_cpu_s)" \
		'BEGIN { exit !(s / t < 0.1) }'
}

@test "GPU counts: --gres=gpu:2, --gres=gpu:1, --gpus=3" {
	[ "$(rec sleeper alloc_gpus)" = 2 ]
	[ "$(rec gpu1 alloc_gpus)" = 1 ]
	[ "$(rec gpu3 alloc_gpus)" = 3 ]
	[ "$(rec sleeper alloc_cpus)" = 4 ]
}

@test "the two-node job: two nodes, and its node list expands to them" {
	local list nodes
	[ "$(rec twonode nnodes)" = 2 ]
	list=$(rec twonode nodelist)
	nodes=$(scontrol show hostnames "$list" | sort -u)
	[ "$(printf '%s\n' "$nodes" | grep -cE '^n[1-4]$')" = 2 ]
	# The same two nodes sacct names for the job.
	[ "$nodes" = "$(scontrol show hostnames "$(sacct -n -X -P -j "$(expect twonode jobid)" -o nodelist)" | sort -u)" ]
}

@test "jobs that never started have no node list; the others one node of ours" {
	local key bad=
	for key in cancel_pending cancel_held deadline; do
		[ -z "$(rec "$key" nodelist)" ] || bad="$bad $key nodelist='$(rec "$key" nodelist)';"
	done
	for key in completed exit1 oom burner dd node_fail; do
		[[ $(rec "$key" nodelist) =~ ^n[1-4]$ ]] || bad="$bad $key nodelist='$(rec "$key" nodelist)';"
	done
	[ "$(rec node_fail nodelist)" = n4 ]
	[ -z "$bad" ] || { echo "$bad"; false; }
}

@test "the requeue's two attempts: REQUEUED, then COMPLETED" {
	local id
	id=$(expect requeue jobid)
	# Shown when a check below fails: every record of the job.
	awk -F'\t' -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["jobid"] == id { print "attempt=" $h["attempt"] " state=" $h["state"] " start=" $h["start"] }' "$RECORDS"
	[ "$(rec requeue state 0)" = REQUEUED ]
	[ "$(rec requeue state 1)" = COMPLETED ]
	[ "$(rec requeue jobid_raw 0)" = "$id" ]
	[ "$(rec requeue jobid_raw 1)" = "$id" ]
	[[ $(rec requeue start 0) < $(rec requeue start 1) ]]
}

@test "a window (-S) with --all-users holds every job that started, once per attempt" {
	run --separate-stderr sp-fetch --all-users -S "$(mix_since)"
	[ "$status" = 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/window.tsv"
	# sacct leaves jobs cancelled before they started out of -S windows,
	# and so the deadline job where it was never eligible (Slurm 24.11
	# and later: mix.sh holds it until its deadline passes; 22.05 ends it
	# at once, eligible, without a node).
	local never="cancel_pending cancel_held"
	[ -n "$(rec deadline eligible)" ] || never="$never deadline"
	attempts_match "$BATS_TEST_TMPDIR/window.tsv" "$never"
}

@test "-u spalice gives spalice's jobs and no one else's" {
	run --separate-stderr sp-fetch -u spalice -S "$(mix_since)"
	[ "$status" = 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/alice.tsv"
	[ "$(rec_in "$BATS_TEST_TMPDIR/alice.tsv" "$(expect timeout jobid)" user)" = spalice ]
	[ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["user"] != "spalice" { n++ } END { print n + 0 }' "$BATS_TEST_TMPDIR/alice.tsv")" = 0 ]
	run rec_in "$BATS_TEST_TMPDIR/alice.tsv" "$(expect completed jobid)" user
	[ "$status" = 1 ]
}

# --- sacct failing: one line, exit 2, nothing on stdout, within seconds ---
# The outer timeout only bounds a hang; sacct answers these at once (munge
# in about 2 s), and SLURMPAST_TIMEOUT would turn a hang into another message.

fetch_one() {
	run --separate-stderr timeout 60 sp-fetch --all-users -j "$(expect completed jobid)"
}

@test "slurmdbd stopped: one line naming the refused connection, exit 2" {
	touch "$BATS_FILE_TMPDIR/restore"
	spc_stop_daemon slurmdbd 15
	fetch_one
	[ "$status" = 2 ] || { echo "status $status; stderr: $stderr"; return 1; }
	[ -z "$output" ]
	same "$stderr" "sp-fetch: sacct cannot reach the accounting database, slurmdbd (Connection refused): try again later, or tell the admins"
}

@test "accounting switched off: one line, exit 2" {
	mkdir -p "$BATS_TEST_TMPDIR/etc"
	sed 's|^AccountingStorageType=.*|AccountingStorageType=accounting_storage/none|' \
		"$SLURM_CONF" >"$BATS_TEST_TMPDIR/etc/slurm.conf"
	SLURM_CONF=$BATS_TEST_TMPDIR/etc/slurm.conf fetch_one
	[ "$status" = 2 ] || { echo "status $status; stderr: $stderr"; return 1; }
	[ -z "$output" ]
	same "$stderr" "sp-fetch: Slurm accounting storage is disabled on this cluster (AccountingStorageType=accounting_storage/none), so there is no job history to read: ask the admins, or try --demo"
}

@test "munged stopped: one line about munge, exit 2" {
	touch "$BATS_FILE_TMPDIR/restore"
	spc_stop_daemon munged 10
	fetch_one
	[ "$status" = 2 ] || { echo "status $status; stderr: $stderr"; return 1; }
	[ -z "$output" ]
	same "$stderr" "sp-fetch: sacct cannot authenticate: munge is not running on this node (Munge encode failed): try a login node, or ask the admins to start munged"
}

@test "sacct not on PATH: one line, exit 2" {
	run --separate-stderr env PATH="$SP_BIN" sp-fetch --all-users -j "$(expect completed jobid)"
	[ "$status" = 2 ]
	[ -z "$output" ]
	same "$stderr" "sp-fetch: sacct is not on PATH: load your site's Slurm module (module load slurm), or try --demo"
}

@test "slurmctld stopped: sp-fetch still reads accounting" {
	local i
	# Restarting a controller that still remembers ended jobs rewrites
	# their accounting (see down.sh): wait until it has forgotten them.
	for i in $(seq 1 90); do
		[ -z "$(squeue -h -t all -o %i 2>/dev/null)" ] && break
		sleep 1
	done
	touch "$BATS_FILE_TMPDIR/restore"
	spc_stop_daemon slurmctld 15
	run --separate-stderr timeout 60 sp-fetch --all-users -j "$(expect completed jobid)"
	[ "$status" = 0 ]
	[ -z "$stderr" ]
	[ "$(rec_in <(printf '%s\n' "$output") "$(expect completed jobid)" state)" = COMPLETED ]
}

# --- sacct's selection options, with sacct's meaning (issue 17) ---

@test "-j with a set of array tasks: those tasks, as sacct prints them" {
	local array
	array=$(expect oom_array_1 jobid)
	array=${array%_*}
	run --separate-stderr sp-fetch -a -j "${array}_[1,3]"
	[ "$status" = 0 ]
	[ "$(cut -f1 <<<"$output" | tail -n +2 | sort | tr '\n' ' ')" = "${array}_1 ${array}_3 " ]
	run --separate-stderr sp-fetch -a -j "${array}_2,$(expect completed jobid)" -X
	[ "$(cut -f1 <<<"$output" | tail -n +2 | sort | tr '\n' ' ')" = "$(expect completed jobid) ${array}_2 " ]
}

@test "-M, --name, -s with a window: sacct's answer, and the same selection on its dump" {
	local since
	since=$(mix_since)
	run --separate-stderr sp-fetch -a -S "$since" -M "$SPC_CLUSTER" --name oom_array,dd
	[ "$status" = 0 ]
	[ -z "$stderr" ]
	[ "$(awk -F'\t' 'NR > 1 { print $7 }' <<<"$output" | sort -u | tr '\n' ' ')" = "dd oom_array " ]
	# sacct -s OOM within the window: the array's two killed tasks, the OOM job.
	# Other test files may run jobs of their own after the mix: the mix's
	# jobs are told by their names.
	run --separate-stderr sp-fetch -a -S "$since" -s OOM --name oom,oom_array
	[ "$status" = 0 ]
	want=$(awk -F'\t' 'NR > 1 && $5 == "OUT_OF_MEMORY" { print $2 }' "$MANIFEST" | sort | tr '\n' ' ')
	[ "$(cut -f1 <<<"$output" | tail -n +2 | sort | tr '\n' ' ')" = "$want" ]
	# The same options over a dump of the window give the same jobs.
	sacct -a -D -P -S "$since" -E now \
	    -o JobID,JobIDRaw,JobName,User,Cluster,Partition,State,Submit,Eligible,Start,End,NodeList \
	    >"$BATS_TEST_TMPDIR/dump"
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/dump" -S "$since" -E now -s OOM --name oom,oom_array
	[ "$(cut -f1 <<<"$output" | tail -n +2 | sort | tr '\n' ' ')" = "$want" ]
	run --separate-stderr sp-fetch --input "$BATS_TEST_TMPDIR/dump" -M "$SPC_CLUSTER" --name oom_array,dd
	[ "$(awk -F'\t' 'NR > 1 { print $7 }' <<<"$output" | sort -u | tr '\n' ' ')" = "dd oom_array " ]
}

# --- the store of finished records (issue 18) ---

@test "the store: a second run asks sacct for the last hours only, the same records, and a new job appears" {
	local since j state i
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	since=$(mix_since)
	run --separate-stderr sp-fetch -a -S "$since" -v
	[ "$status" = 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/first"
	[[ "${stderr_lines[1]}" == *" -S $since" ]]
	# A job that runs and finishes between the two.
	j=$(cd "$SPC/work/root" && sbatch --parsable -A physics -J store_new -t 1 --wrap 'sleep 1')
	j=${j%%;*}
	# Whole in accounting, not only ended: the allocation row can say
	# COMPLETED before its steps' rows arrive, and a record fetched then
	# is not the one a later query gives.  Asked as sp-fetch asks (a
	# window, not -j): for a moment after its end a job is in the answer
	# to -j and not yet in a window's.
	for i in $(seq 1 300); do
		state=$(sacct -D -n -P -a -S "$since" -o jobid,state,end 2>/dev/null |
			awk -F'|' -v j="$j" '$3 != "Unknown" && $2 == "COMPLETED" &&
			    ($1 == j || $1 == j ".batch" || $1 == j ".extern") { n++ }
			    END { print (n == 3 ? "whole" : "not yet") }')
		[ "$state" = whole ] && break
		sleep 0.2
	done
	[ "$state" = whole ] || { sacct -P -j "$j" -o jobid,state,end; false; }
	run --separate-stderr sp-fetch -a -S "$since" -v
	[ "$status" = 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/second"
	# Asked from six hours before the first run, not from the window's start.
	asked=$(sed -n 's/^sp-fetch: asked: .* -S \([^ ]*\)$/\1/p' <<<"$stderr")
	[ -n "$asked" ] && [ "$asked" != "$since" ]
	[[ "$asked" > "$(date -d '-7 hours' +%Y-%m-%dT%H:%M:%S)" ]]
	# The new job, and every record of the first run unchanged.
	[ "$(rec_in "$BATS_TEST_TMPDIR/second" "$j" state)" = COMPLETED ]
	diff <(grep -v "^$j	" "$BATS_TEST_TMPDIR/second") "$BATS_TEST_TMPDIR/first"
	# The same bytes as sacct asked for the whole window.
	sp-fetch -a -S "$since" --no-cache >"$BATS_TEST_TMPDIR/fresh"
	cmp "$BATS_TEST_TMPDIR/fresh" "$BATS_TEST_TMPDIR/second"
}

# --- the site facts, and the process groups (issue 15 item 18) ---

# A shim directory first on PATH: scontrol logs its start and runs the
# real one only once sinfo has started too (at most 10 s), so "met" in
# the log says the two ran at the same time; sinfo logs its start.
site_shims() {
	local d=$BATS_TEST_TMPDIR/shim real_scontrol real_sinfo
	real_scontrol=$(command -v scontrol)
	real_sinfo=$(command -v sinfo)
	mkdir -p "$d"
	cat >"$d/scontrol" <<EOF
#!/bin/sh
echo "start scontrol" >>"$BATS_TEST_TMPDIR/site.log"
i=0
while ! grep -q '^start sinfo' "$BATS_TEST_TMPDIR/site.log"; do
	i=\$((i + 1)); [ "\$i" -le 100 ] || exit 1; sleep 0.1
done
echo "met" >>"$BATS_TEST_TMPDIR/site.log"
echo \$\$ >>"$BATS_TEST_TMPDIR/site.pids"
exec "$real_scontrol" "\$@"
EOF
	cat >"$d/sinfo" <<EOF
#!/bin/sh
echo "start sinfo" >>"$BATS_TEST_TMPDIR/site.log"
echo \$\$ >>"$BATS_TEST_TMPDIR/site.pids"
exec "$real_sinfo" "\$@"
EOF
	chmod +x "$d/scontrol" "$d/sinfo"
	echo "$d"
}

# all_ended FILE: every pid in FILE (one a line, at least one) has ended
# within 5 s; one that has not is named and killed.
all_ended() {
	local pid bad=
	[ -s "$1" ] || { echo "no pids in $1"; return 1; }
	while read -r pid; do
		spc_wait_for 5 eval "! spc_pid_alive $pid" || {
			bad="$bad $pid"; kill -KILL "$pid"; }
	done <"$1"
	[ -z "$bad" ] || { echo "still running:$bad"; return 1; }
}

# Waits until the controller has forgotten every ended job: restarting
# one that still remembers them rewrites their accounting (see down.sh).
controller_forgot() {
	local i
	for i in $(seq 1 90); do
		[ -z "$(squeue -h -t all -o %i 2>/dev/null)" ] && return 0
		sleep 1
	done
}

@test "--site with the cluster whole: the real facts, asked at once" {
	local shim
	shim=$(site_shims)
	PATH="$shim:$PATH" run --separate-stderr sp-fetch --all-users \
	    -j "$(expect completed jobid)" --site "$BATS_TEST_TMPDIR/site"
	[ "$status" = 0 ]
	[ -z "$stderr" ]
	grep -qx met "$BATS_TEST_TMPDIR/site.log"
	[ "$(sed -n '3,4p;8p' "$BATS_TEST_TMPDIR/site")" = "scontrol	1
gather	linux
sinfo	1" ] || { cat "$BATS_TEST_TMPDIR/site"; false; }
	# Each slurmd claims 8 CPUs and 4000 MB.
	grep -q "^partition	[^	]*	8	4194304000$" "$BATS_TEST_TMPDIR/site"
	[ "$(sed -n 7p "$BATS_TEST_TMPDIR/site")" = "version	$(scontrol --version | awk '{print $2}')" ]
}

@test "slurmctld stopped: --site costs one short deadline, says so in one line, the records whole" {
	local shim
	controller_forgot
	touch "$BATS_FILE_TMPDIR/restore"
	spc_stop_daemon slurmctld 15
	shim=$(site_shims)
	PATH="$shim:$PATH" SLURMPAST_TIMEOUT=3 run --separate-stderr timeout 60 \
	    sp-fetch --all-users -j "$(expect completed jobid)" --site "$BATS_TEST_TMPDIR/site"
	[ "$status" = 0 ]
	[ "$(rec_in <(printf '%s\n' "$output") "$(expect completed jobid)" state)" = COMPLETED ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "sp-fetch: site facts not had: how memory and CPU are gathered (scontrol: "*"); the partitions' largest nodes (sinfo: "*")" ]]
	grep -qx met "$BATS_TEST_TMPDIR/site.log"
	[ "$(sed -n '3p;8p' "$BATS_TEST_TMPDIR/site")" = "scontrol	0
sinfo	0" ]
	# A stage reading the file asks nothing and says nothing more.
	rm -f "$BATS_TEST_TMPDIR/site.log"
	printf '%s\n' "$output" | sp-group >"$BATS_TEST_TMPDIR/jobs"
	PATH="$shim:$PATH" SLURMPAST_SITE=$BATS_TEST_TMPDIR/site \
	    run --separate-stderr sp-size "$BATS_TEST_TMPDIR/jobs"
	[ "$status" = 0 ]
	[ -z "$stderr" ]
	[ ! -e "$BATS_TEST_TMPDIR/site.log" ]
}

@test "slurmctld hung: the site queries are given up on at the deadline, with their groups" {
	local shim pid
	pid=$(spc_daemon_pid slurmctld)
	echo "$pid" >"$BATS_FILE_TMPDIR/continue"
	kill -STOP "$pid"
	shim=$(site_shims)
	PATH="$shim:$PATH" SLURMPAST_TIMEOUT=3 run --separate-stderr timeout 60 \
	    sp-fetch --all-users -j "$(expect completed jobid)" --site "$BATS_TEST_TMPDIR/site"
	kill -CONT "$pid"
	rm -f "$BATS_FILE_TMPDIR/continue"
	[ "$status" = 0 ]
	[ "$stderr" = "sp-fetch: site facts not had: how memory and CPU are gathered (scontrol: no answer within 3s); the partitions' largest nodes (sinfo: no answer within 3s)" ]
	grep -qx met "$BATS_TEST_TMPDIR/site.log"
	# Nothing it started is left running.
	all_ended "$BATS_TEST_TMPDIR/site.pids"
}

@test "sacct given up on: its whole process group ends, the real sacct with it" {
	local d=$BATS_TEST_TMPDIR/shim pid real
	real=$(command -v sacct)
	mkdir -p "$d"
	# sacct as a child of a shell, as a site's wrapper would run it.
	cat >"$d/sacct" <<EOF
#!/bin/sh
"$real" "\$@" &
echo \$! >>"$BATS_TEST_TMPDIR/sacct.pids"
wait
EOF
	chmod +x "$d/sacct"
	pid=$(spc_daemon_pid slurmdbd)
	echo "$pid" >"$BATS_FILE_TMPDIR/continue"
	kill -STOP "$pid"
	PATH="$d:$PATH" SLURMPAST_TIMEOUT=3 run --separate-stderr timeout 60 \
	    sp-fetch --all-users -j "$(expect completed jobid)"
	kill -CONT "$pid"
	rm -f "$BATS_FILE_TMPDIR/continue"
	[ "$status" = 2 ]
	[ "$stderr" = "sp-fetch: sacct did not answer within 3s: narrow the window with -S, or raise SLURMPAST_TIMEOUT" ]
	# The helpformat probe answered or not; the query hung: every real
	# sacct it started has ended, none left under init.
	all_ended "$BATS_TEST_TMPDIR/sacct.pids"
}

@test "the cluster is whole again after the failure tests" {
	"$CLUSTER/up.sh"
	run --separate-stderr sp-fetch --all-users -j "$(expect completed jobid)"
	[ "$status" = 0 ]
	[ "$(rec_in <(printf '%s\n' "$output") "$(expect completed jobid)" state)" = COMPLETED ]
}

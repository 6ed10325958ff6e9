#!/usr/bin/env bats
# One rule, one place: the figures one job's findings suggest (sp-show)
# and those of the advice over a workload's runs (sp-size) come from the
# same suggestion rules.  Where the two once rounded apart, sp-size's
# rule is the one both follow now; these cases told them apart.

load lib/common

setup() {
	T=$BATS_TEST_TMPDIR
	export SLURMPAST_NO_SITE=1
	cols='jobid\tstate\telapsed_s\ttimelimit_s\talloc_cpus\ttotal_cpu_s\tmem_limit_node_b\tmax_rss_b\tntasks\tworkload_key\n'
}

# Three completed runs of one workload: elapsed_s timelimit_s alloc_cpus
# total_cpu_s mem_limit_node_b max_rss_b (an empty argument: unknown).
workload() {
	printf "$cols"
	for id in 1 2 3; do
		printf '%s\tCOMPLETED\t%s\t%s\t%s\t%s\t%s\t%s\t1\tu/p/cpu/w\n' \
		    "$id" "$1" "$2" "$3" "$4" "$5" "$6"
	done
}

# The action of the first finding with code $1 in sp-show --findings.
action() {
	sp-show --findings --no-logs "$2" |
		awk -F '\t' -v code="$1" 'NR == 1 { for (i = 1; i <= NF; i++)
			c[$i] = i; next }
		$c["code"] == code { print $c["action"]; exit }'
}

# sp-size's suggestion for flag $1.
advice() {
	sp-size "$2" | awk -F '\t' -v flag="$1" 'NR == 1 { for (i = 1;
		i <= NF; i++) c[$i] = i; next }
		$c["flag"] == flag { print $c["verdict"], $c["suggestion"] }'
}

@test "--time: 480 s and float noise x 1.90 is 00:20:00 for one job and for the workload" {
	workload 480.00000008 3600 1 470 "" "" >"$T/w.tsv"
	run action walltime-slack "$T/w.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "A tighter --time=00:20:00 (sp-size's advice from 3 runs of this workload) starts sooner"* ]]
	run advice --time "$T/w.tsv"
	[ "$output" = "lower --time=00:20:00" ]
}

@test "--mem: a peak a hair over 10 GiB x 1.90 is 19G for one job and for the workload" {
	workload 1000 3600 1 900 68719476736 10737418240.000002 >"$T/w.tsv"
	run action memory-slack "$T/w.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "Try --mem=19G (sp-size's advice from 3 runs of this workload)."* ]]
	run advice --mem "$T/w.tsv"
	[ "$output" = "lower --mem=19G" ]
}

@test "--cpus-per-task: two busy cores of 16 are 3 for one job and for the workload" {
	workload 3600 7200 16 7200 "" "" >"$T/w.tsv"
	run action cpu-overrequest "$T/w.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "Try --cpus-per-task=3 (sp-size's advice from 3 runs of this workload), unless"* ]]
	run advice --cpus-per-task "$T/w.tsv"
	[ "$output" = "lower --cpus-per-task=3" ]
}

@test "the demo: render-plots gets --cpus-per-task=4 from sp-show and sp-size" {
	sp-fetch --demo | sp-group >"$T/demo.tsv"
	awk -F '\t' 'NR == 1 || /\trender-plots\t/' "$T/demo.tsv" >"$T/rp.tsv"
	run advice --cpus-per-task "$T/rp.tsv"
	[ "$output" = "lower --cpus-per-task=4" ]
	run action cpu-overrequest "$T/rp.tsv"
	[[ "$output" == "Try --cpus-per-task=4 (sp-size's advice from "*" runs of this workload), unless"* ]]
}

@test "one run alone: the same rule's figure, said to be one run's, and why" {
	workload 480.00000008 3600 1 470 "" "" | head -2 >"$T/one.tsv"
	run action walltime-slack "$T/one.tsv"
	[ "$output" = "A tighter --time=00:10:00 (this run plus 25%, one run's estimate: sp-size has no verdict for its workload, which needs 3 completed runs; there was 1) starts sooner: short jobs fit the scheduler's backfill gaps." ]
	cut -f 1-9 "$T/one.tsv" >"$T/nokey.tsv"
	run action walltime-slack "$T/nokey.tsv"
	[ "$output" = "A tighter --time=00:10:00 (this run plus 25%, one run's estimate: the input has no workload_key, which sp-group adds) starts sooner: short jobs fit the scheduler's backfill gaps." ]
}

# Issue 14, item 4: one job against its workload.  Every figure a job's
# finding takes from its workload is that workload's advice, and only a
# flag the workload has no verdict on gets one run's estimate.
@test "the demo: a job's figures are its workload's advice, never one run's under it" {
	sp-fetch --demo 2>/dev/null | sp-group >"$T/demo.tsv"
	run sp-show --findings --no-logs "$T/demo.tsv"
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" >"$T/findings.tsv"
	sp-size "$T/demo.tsv" 2>/dev/null >"$T/advice.tsv"
	run awk -F '\t' '
	FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
	FILENAME == ARGV[1] {
		k = $c[FILENAME, "workload_key"]
		f = $c[FILENAME, "flag"]
		verdict[k, f] = $c[FILENAME, "verdict"]
		target[k, f] = $c[FILENAME, "target"]
		sugg[k, f] = $c[FILENAME, "suggestion"]
		req[k, f] = $c[FILENAME, "requested_text"]
		next
	}
	{
		k = $c[FILENAME, "workload_key"]
		a = $c[FILENAME, "action"]
		if (!match(a, /--(time|mem|cpus-per-task)=[^ ]+ \(/))
			next
		fig = substr(a, RSTART, RLENGTH - 2)
		f = substr(fig, 1, index(fig, "=") - 1)
		v = verdict[k, f]
		if (a ~ /one run.s estimate/) {
			alone++
			if (v != "refuse" && v != "hold")
				bad = bad "\n" $c[FILENAME, "jobid"] " " fig \
				    ": one run, though the workload says " v
			next
		}
		checked++
		if (fig != sugg[k, f] && fig != f "=" req[k, f])
			bad = bad "\n" $c[FILENAME, "jobid"] " " fig \
			    " against " v " " sugg[k, f]
	}
	END { printf "%d checked, %d alone%s\n", checked, alone, bad }
	' "$T/advice.tsv" "$T/findings.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" != *$'\n'* ]] || { echo "$output"; false; }
	[[ "$output" != "0 checked"* ]]
	# The issue's two jobs.
	grep -q $'^alice\ttrain-web\t[^\t]*\t51176530\twalltime-slack\t.*--time=19:30:00 (sp-size.s advice from 21 runs of this workload)' "$T/findings.tsv"
	grep -q $'\t51126620\tmemory-slack\t.*--mem=72G (sp-size.s advice from 993 runs of this workload)' "$T/findings.tsv"
}

# Issue 15, item 11: "a tighter --time=00:05:00" to a job that asked
# 00:05:00.  No action over the demo names a job's own request as the
# change: each --time and --mem an action says, against the job's.
@test "the demo: no action suggests the value the job already asked for" {
	sp-fetch --demo 2>/dev/null | sp-group >"$T/demo.tsv"
	sp-show --findings --no-logs "$T/demo.tsv" >"$T/findings.tsv" || [ $? -eq 1 ]
	run awk -F '\t' '
	function secs(t,   d, a) {
		d = 0
		if (index(t, "-")) {
			d = substr(t, 1, index(t, "-") - 1)
			t = substr(t, index(t, "-") + 1)
		}
		split(t, a, ":")
		return d * 86400 + a[1] * 3600 + a[2] * 60 + a[3]
	}
	function bytes(m,   u) {
		u = substr(m, length(m))
		m = substr(m, 1, length(m) - 1)
		return m * (u == "T" ? 2^40 : u == "G" ? 2^30 : u == "M" ? 2^20 : 2^10)
	}
	FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
	FILENAME == ARGV[1] {
		id = $c[FILENAME, "jobid"]
		lim[id] = $c[FILENAME, "timelimit_s"]
		mem[id] = $c[FILENAME, "mem_limit_node_b"]
		next
	}
	# workload-advice states the workload'"'"'s verdict as the report does
	# (its lines against the newest request), not a change to this job.
	$c[FILENAME, "code"] == "workload-advice" { next }
	{
		a = $c[FILENAME, "action"]
		id = $c[FILENAME, "jobid"]
		if (match(a, /--time=[0-9:-]+/)) {
			n++
			if (secs(substr(a, RSTART + 7, RLENGTH - 7)) == lim[id])
				print id " " $c[FILENAME, "code"] ": " a
		}
		if (match(a, /--mem=[0-9.]+[KMGT]/)) {
			n++
			if (bytes(substr(a, RSTART + 6, RLENGTH - 6)) == mem[id])
				print id " " $c[FILENAME, "code"] ": " a
		}
	}
	END { print n + 0 " checked" }' "$T/demo.tsv" "$T/findings.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^[0-9]+\ checked$ ]] || { echo "$output" | head; false; }
	[ "${output% checked}" -gt 1000 ]
}


#!/usr/bin/env bats
# One rule, one place: the figures one job's findings suggest (sp-show)
# and those of the advice over a workload's runs (sp-size) come from the
# same suggestion rules.  Where the two once rounded apart, sp-size's
# rule is the one both follow now; these cases told them apart.

load lib/common

setup() {
	T=$BATS_TEST_TMPDIR
	export SLURMPAST_NO_SITE=1
	cols='jobid\tstate\telapsed_s\ttimelimit_s\talloc_cpus\ttotal_cpu_s\tmem_limit_node_b\tmax_rss_b\tworkload_key\n'
}

# Three completed runs of one workload: elapsed_s timelimit_s alloc_cpus
# total_cpu_s mem_limit_node_b max_rss_b (an empty argument: unknown).
workload() {
	printf "$cols"
	for id in 1 2 3; do
		printf '%s\tCOMPLETED\t%s\t%s\t%s\t%s\t%s\t%s\tu/p/cpu/w\n' \
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

@test "--time: 480 s and float noise is 00:10:00 for one job and for the workload" {
	workload 480.00000008 3600 1 470 "" "" >"$T/w.tsv"
	run action walltime-slack "$T/w.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "A tighter --time=00:10:00 (this run plus 25%) starts sooner"* ]]
	run advice --time "$T/w.tsv"
	[ "$output" = "lower --time=00:10:00" ]
}

@test "--mem: a peak a hair over 10 GiB is 13G for one job and for the workload" {
	workload 1000 3600 1 900 68719476736 10737418240.000002 >"$T/w.tsv"
	run action memory-slack "$T/w.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "Try --mem=13G (the peak plus 30%)."* ]]
	run advice --mem "$T/w.tsv"
	[ "$output" = "lower --mem=13G" ]
}

@test "--cpus-per-task: two busy cores of 16 are 3 for one job and for the workload" {
	workload 3600 7200 16 7200 "" "" >"$T/w.tsv"
	run action cpu-overrequest "$T/w.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == "Try --cpus-per-task=3, unless"* ]]
	run advice --cpus-per-task "$T/w.tsv"
	[ "$output" = "lower --cpus-per-task=3" ]
}

@test "the demo: render-plots gets --cpus-per-task=4 from sp-show and sp-size" {
	sp-fetch --demo | sp-group >"$T/demo.tsv"
	awk -F '\t' 'NR == 1 || /\trender-plots\t/' "$T/demo.tsv" >"$T/rp.tsv"
	run advice --cpus-per-task "$T/rp.tsv"
	[ "$output" = "lower --cpus-per-task=4" ]
	run action cpu-overrequest "$T/rp.tsv"
	[[ "$output" == "Try --cpus-per-task=4, unless"* ]]
}

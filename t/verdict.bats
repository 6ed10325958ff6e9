#!/usr/bin/env bats
# One workload, one verdict (design.md; issue 30, item 7): for every
# workload of the demo and of each real dump, the severity and every
# #SBATCH line of its advice, read off every screen that shows them, are
# the same.  A new screen that shows a verdict joins this file.
#
# Screens read: severity from sp-group --rollup, sp-report workloads and
# sp-browse --plain; advice from sp-size (the records), sp-report advice
# --all (the report's lines), sp-show --findings (the post-mortem's
# workload-advice, --exclude included) and sp-browse --next (the
# dashboard's next: line of each workload, what its y copies).

load lib/common

XDMOD_FIELDS=JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName
HPC_FIELDS=State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition

setup() {
	export SLURMPAST_NO_SITE=1
	cd "$BATS_TEST_TMPDIR" || return 1
}

# "key<TAB>severity" from every severity screen, one file each, sorted.
severities() {
	local jobs=$1
	sp-group --rollup "$jobs" 2>/dev/null >rollup
	sp-size --findings "$jobs" >findings 2>/dev/null || :
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["workload_key"] "\t" $c["severity"] }' rollup |
		sort >sev.rollup
	sp-report workloads --tsv --top 1000000 --rollup rollup \
		--findings findings |
		awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ print $c["workload_key"] "\t" $c["severity"] }' |
		sort >sev.report
	# The dashboard names a row by label, user and partition: the
	# rollup's own three, so its key is the rollup's.
	sp-browse --plain "$jobs" 2>/dev/null |
		awk 'NR == FNR { if (FNR > 1) {
				split($0, f, "\t")
				key[f[4] " " f[1] " " f[5]] = f[3]
			}
			next }
		     /^workload +user +partition/ { on = 1; next }
		     on && NF >= 10 { k = $1 " " $2 " " $3
			# unknown is n/a on a screen, empty in a record
			s = $NF == "n/a" ? "" : $NF
			if (k in key) print key[k] "\t" s
			else print "no row " k }' FS='\t' rollup FS=' ' - |
		sort >sev.browse
}

# "key<TAB>#SBATCH line" from every advice screen, one file each, sorted.
advice_lines() {
	local jobs=$1
	sp-size "$jobs" >advice 2>/dev/null || :
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["sbatch"] != "" { print $c["workload_key"] "\t" $c["sbatch"] }' \
		advice | sort >adv.size
	# The report's comment names the workload as the rollup labels it.
	sp-report advice --all --rollup rollup --advice advice |
		awk 'NR == FNR { if (FNR > 1) {
				split($0, f, "\t")
				n[f[4] " (" f[1] ")"]++; key[f[4] " (" f[1] ")"] = f[3]
				m[f[4]]++; one[f[4]] = f[3]
			}
			next }
		     /^# from [0-9]/ { next }	# the risk (sp-size), not a name
		     /^# / { name = substr($0, 3); sub(/(, [0-9]+ runs?)?: .*/, "", name)
			# (mawk takes no newline after ":")
			if (name in key && n[name] == 1) k = key[name]
			else if (name in one && m[name] == 1) k = one[name]
			else k = "ambiguous " name }
		     /^#SBATCH / { print k "\t" $0 }' rollup - | sort >adv.report
	# Every job of a workload carries the same lines: sort -u makes one.
	sp-show --findings --no-logs "$jobs" 2>/dev/null |
		awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["code"] == "workload-advice" {
				n = split($c["action"], l, "  ")
				for (i = 1; i <= n; i++)
					print $c["workload_key"] "\t" l[i] }' |
		sort -u >adv.show
	# The dashboard's next: line of every workload (what y copies).
	sp-browse --next "$jobs" 2>/dev/null |
		awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ v = $c["next"]
			  if (v !~ /^next: /) { print "no next: " $0; next }
			  if (v ~ /^next: no request to change/) next
			  n = split(substr(v, 7), l, "  ")
			  for (i = 1; i <= n; i++)
				print $c["workload_key"] "\t" l[i] }' |
		sort >adv.browse
}

# Asserts the screens agree, saying where they do not.
agree() {
	local name=$1 a=$2 b=$3
	diff "$a" "$b" >d || { echo "$name: $a and $b differ:"; head -20 d; return 1; }
}

consistent() {
	severities "$1"
	[ -s sev.rollup ]
	agree "$2" sev.rollup sev.report
	agree "$2" sev.rollup sev.browse
	advice_lines "$1"
	agree "$2" adv.size adv.report
	agree "$2" adv.size adv.show
	agree "$2" adv.size adv.browse
}

@test "the demo: every workload's severity and advice the same on every screen" {
	sp-fetch --demo 2>/dev/null | sp-group >jobs
	consistent jobs demo
	[ "$(wc -l <sev.rollup)" -eq 470 ]
	# The workloads the issue names, as every screen now says them.
	grep -qx $'alice/gpu/gpu/rollout-gen\twarning' sev.browse
	grep -qx $'bob/gpu/gpu/label-arxiv\tok' sev.report
	grep -qx $'alice/gpu/gpu/reasoning-exp\twarning' sev.rollup
	grep -qxF $'alice/gpu/gpu/rollout-gen\t#SBATCH --exclude=g[003,011,017]' adv.report
	grep -qxF $'alice/gpu/gpu/rollout-gen\t#SBATCH --exclude=g[003,011,017]' adv.show
	grep -qxF $'alice/gpu/gpu/rollout-gen\t#SBATCH --exclude=g[003,011,017]' adv.browse
	grep -qx $'bob/gpu/gpu/moe-gating-r#\t#SBATCH --mem=61G' adv.show
	# the hold's size, never a size that died
	! grep -q 'rc-tok-github_code' adv.size
	[ "$(awk -F '\t' '$3 == "alice/cpu/cpu/rc-tok-github_code" && $4 == "--mem" { print $6, $15 }' advice)" = "hold 34359738368" ]
}

@test "the real dumps: every workload's severity and advice the same on every screen" {
	need_fixtures
	sp-fetch --input "$FIXTURES/xdmod/pozidriv.log" --fields "$XDMOD_FIELDS" 2>/dev/null |
		sp-group >jobs
	consistent jobs pozidriv
	sp-fetch --input "$FIXTURES/hpc-cost-simulator/sacct-output-v2.txt" --fields "$HPC_FIELDS" 2>/dev/null |
		sp-group >jobs
	consistent jobs hpc-cost-simulator
	# nameless runs: no raise and no lower anywhere
	[ ! -s adv.size ] && [ ! -s adv.show ] && [ ! -s adv.report ] &&
		[ ! -s adv.browse ]
	for f in "$FIXTURES"/slurm2sql/test-data1.txt "$FIXTURES"/xdmod/accounting-logs.log; do
		case $f in
		*xdmod*) sp-fetch --input "$f" --fields "$XDMOD_FIELDS" ;;
		*) sp-fetch --input "$f" ;;
		esac 2>/dev/null | sp-group >jobs
		consistent jobs "$f"
	done
}

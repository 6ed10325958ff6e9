#!/usr/bin/env bats
# The demo history as job records: sp-fetch --demo must read the synthetic
# sacct text into the records every stage starts from, with the named
# cases' states and limits intact (examples/demo-expected.md lists them).
# The rows themselves are checked one by one in t/unit/test_demo.c.

load lib/common

# The demo's sacct header, field by field.
SACCT_HEADER='JobID|JobIDRaw|JobName|User|UID|Account|Cluster|Partition|QOS|State|ExitCode|DerivedExitCode|Reason|Flags|Submit|Eligible|Start|End|Elapsed|ElapsedRaw|Timelimit|TimelimitRaw|ReqMem|ReqCPUS|ReqNodes|ReqTRES|AllocTRES|AllocCPUS|NCPUS|NNodes|NTasks|NodeList|TotalCPU|UserCPU|SystemCPU|CPUTime|CPUTimeRAW|AveCPU|MinCPU|MinCPUNode|MinCPUTask|MaxRSS|MaxRSSNode|MaxRSSTask|AveRSS|MaxVMSize|MaxPages|MaxDiskRead|MaxDiskWrite|TRESUsageInTot|TRESUsageOutTot|TRESUsageInAve|TRESUsageInMax|Constraints|WorkDir|Comment|SubmitLine|StdOut|StdErr'

have_demo() {
	command -v sp-fetch >/dev/null &&
		sp-fetch --help 2>&1 | grep -q -- '--demo'
}

setup_file() {
	if have_demo; then
		sp-fetch --demo >"$BATS_FILE_TMPDIR/jobs.tsv"
	fi
}

setup() {
	have_demo || skip "sp-fetch --demo is not built yet"
	JOBS=$BATS_FILE_TMPDIR/jobs.tsv
}

# pick COLS [COLUMN=VALUE]: the named columns (comma-separated) of every
# job record, or of those whose COLUMN holds VALUE, space-separated.
pick() {
	awk -F'\t' -v cols="$1" -v where="${2:-}" '
		NR == 1 {
			for (i = 1; i <= NF; i++) h[$i] = i
			n = split(cols, c, ",")
			if (where != "") { k = index(where, "="); wc = substr(where, 1, k - 1); wv = substr(where, k + 1) }
			next
		}
		where == "" || $h[wc] == wv {
			line = ""
			for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") $h[c[i]]
			print line
		}' "$JOBS"
}

@test "demo-sacct: sacct's header, then the same bytes every run" {
	run sp-fetch --demo-sacct
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$SACCT_HEADER" ]
	sp-fetch --demo-sacct >"$BATS_TEST_TMPDIR/a"
	sp-fetch --demo-sacct >"$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
}

@test "demo: 3,615 allocation attempts, four of them still open" {
	[ "$(($(wc -l <"$JOBS") - 1))" -eq 3615 ]
	[ "$(pick jobid open=1 | wc -l)" -eq 4 ]
	run pick name,state open=1
	[ "${lines[0]}" = "interactive RUNNING" ]
	[ "${lines[1]}" = "rollout-gen RUNNING" ]
	[ "${lines[2]}" = "dedup-shards RUNNING" ]
	[ "${lines[3]}" = "eval-ckpt-7000 PENDING" ]
}

@test "demo: three users, a GPU and a CPU partition" {
	[ "$(pick user | sort -u | tr '\n' ' ')" = "alice bob carol " ]
	[ "$(pick partition | sort -u | tr '\n' ' ')" = "cpu gpu " ]
}

@test "tokenizer: --mem 48G down to 12G and back, eight kills, then 32G completes at 24 GiB" {
	run pick req_mem,state,exit_code,signal,max_rss_b name=rc-tok-github_code
	[ "${#lines[@]}" -eq 10 ]
	[ "${lines[0]}" = "48G CANCELLED 0 0 24051816448" ]
	[ "${lines[1]}" = "32G OUT_OF_MEMORY 0 125 " ]
	[ "${lines[2]}" = "32G OUT_OF_MEMORY 0 125 " ]
	[ "${lines[3]}" = "17G OUT_OF_MEMORY 0 125 18636936192" ]
	[ "${lines[4]}" = "12G OUT_OF_MEMORY 0 125 13322988544" ]
	[ "${lines[5]}" = "12G OUT_OF_MEMORY 0 125 13039519744" ]
	[ "${lines[6]}" = "14G OUT_OF_MEMORY 0 125 15438259200" ]
	[ "${lines[7]}" = "16G OUT_OF_MEMORY 0 125 17489105920" ]
	[ "${lines[8]}" = "18G OUT_OF_MEMORY 0 125 19501298688" ]
	[ "${lines[9]}" = "32G COMPLETED 0 0 25769803776" ]
	[ "$(pick cancelled_by name=rc-tok-github_code | head -1)" = 41203 ]
	[ "$(pick mem_limit_node_b name=rc-tok-github_code | tail -1)" = 34359738368 ]
}

@test "corpus array: probes at 8G, 71 of 142 tasks killed at 6G, all 142 complete at 12G" {
	[ "$(pick req_mem,max_rss_b,array_job name=scan-corpus | awk '$3 == ""' | tr '\n' ' ')" = \
	  "8G 1073741824  8G 773094400  " ]
	[ "$(pick req_mem,state name=scan-corpus | sort | uniq -c | awk '{print $1, $2, $3}' | tr '\n' ' ')" = \
	  "142 12G COMPLETED 71 6G COMPLETED 71 6G OUT_OF_MEMORY 2 8G COMPLETED " ]
	[ "$(pick array_job name=scan-corpus | sort -u | grep -c .)" -eq 2 ]
}

@test "reasoning experiment: 99 blocked timeouts at an unchanged 30 minutes, 38 completed" {
	[ "$(pick state,timelimit_s name=reasoning-exp | sort | uniq -c | awk '{print $1, $2, $3}' | tr '\n' ' ')" = \
	  "38 COMPLETED 1800 99 TIMEOUT 1800 " ]
	[ "$(pick state,total_cpu_s,elapsed_s name=reasoning-exp |
	     awk '$1 == "TIMEOUT" && $2 < 10 && $3 > 300' | wc -l)" -eq 99 ]
}

@test "increases before a failure: gating 24G after a 34.56 GiB peak, warmup 35 min after 4:10:00, slice 1:16 inside 8 h" {
	[ "$(pick req_mem name=moe-gating-r5)" = 24G ]
	[ "$(pick req_mem,max_rss_b name=moe-gating-r2)" = "48G 37108517888" ]
	[ "$(pick timelimit_s name=ablate-warmup-1)" = 2100 ]
	[ "$(pick state,elapsed_s name=ablate-warmup-200)" = "COMPLETED 15000" ]
	[ "$(pick state,elapsed_s,timelimit_s name=pretrain-slice-3)" = "COMPLETED 28724 28800" ]
}

@test "figure 3: eval-ckpt-4000, a day's limit for 42 minutes, MaxRSS over its limit, 48.7% in the kernel" {
	run pick jobid,state,elapsed_s,timelimit_s,mem_limit_node_b,max_rss_b,total_cpu_s,sys_cpu_s,alloc_gpus name=eval-ckpt-4000
	[ "$output" = "53449206 COMPLETED 2497 86400 34359738368 49713826816 10000 4870 1" ]
}

@test "idle GPUs: node-evaluation held two GPUs 42 hours for 0.54 s of CPU, then was cancelled" {
	run pick jobid,state,cancelled_by,elapsed_s,alloc_gpus,total_cpu_s,nodelist name=node-evaluation
	[ "$output" = "53563545 CANCELLED 41203 151200 2 0.54 g027" ]
	[ "$(pick state,elapsed_s,total_cpu_s name=interactive | tr '\n' ' ')" = \
	  "TIMEOUT 28831 1.9 TIMEOUT 43227 3.4 COMPLETED 540 0.62 COMPLETED 370 1.1 RUNNING 11100  " ]
}

@test "rollout-gen: 1,098 closed placements over 19 nodes, 403 of them on g041" {
	[ "$(pick open name=rollout-gen | grep -c '^0$')" -eq 1098 ]
	[ "$(pick nodelist,open name=rollout-gen | awk '$2 == 0 {print $1}' | sort -u | wc -l)" -eq 19 ]
	[ "$(pick nodelist,open name=rollout-gen | awk '$2 == 0 && $1 == "g041"' | wc -l)" -eq 403 ]
}

@test "reference workloads: cot-exp, midtrain, ddp-pretrain, tokenize-shards, soup-merge" {
	[ "$(pick state,nodelist name=cot-exp | sort | uniq -c | awk '{print $1, $2, $3}' | tr '\n' ' ')" = \
	  "6 COMPLETED g031 12 TIMEOUT g027 2 TIMEOUT g031 " ]
	[ "$(pick elapsed_s,total_cpu_s,sys_cpu_s,max_rss_b name=midtrain | tail -1)" = \
	  "6769 19899 936 198162165760" ]
	run pick state,exit_code,elapsed_s,timelimit_s,ave_cpu_s,min_cpu_s,alloc_gpus name=ddp-pretrain
	[ "$output" = "FAILED 1 5400 10800 3600 720 4" ]
	[ "$(pick total_cpu_s,sys_cpu_s,read_b name=tokenize-shards | sort -u)" = "7200 4800 365072220160" ]
	[ "$(pick max_pages,total_cpu_s name=soup-merge)" = "820000 3900" ]
}

@test "requeues after NODE_FAIL: five earlier attempts under the final ones' ids" {
	run pick name,state,attempt user=bob
	[ "$(printf '%s\n' "${lines[@]}" | awk '$2 == "NODE_FAIL"' | wc -l)" -eq 5 ]
	[ "$(printf '%s\n' "${lines[@]}" | awk '$1 ~ /^finetune-vit-s/ && $3 > 0' | wc -l)" -eq 5 ]
	[ "$(printf '%s\n' "${lines[@]}" | awk '$1 ~ /^finetune-vit-s/ && $3 == 0' | wc -l)" -eq 12 ]
}

@test "a recycled job id is two jobs: carol's in January, bob's in March" {
	run pick user,name,attempt jobid=51201660
	[ "${lines[0]}" = "carol plot-loss 0" ]
	[ "${lines[1]}" = "bob resize-images 0" ]
}

@test "the submit line that spans two lines survives, escaped" {
	[ "$(pick submit_line name=wrap)" = \
	  'sbatch -p cpu -c 4 --mem=8G --time=01:00:00 --wrap="python prep.py \\\n    --shards 64 --out /scratch/carol/shards"' ]
}

@test "demo-jobs: the same mix at any size, the named cases kept" {
	run sp-fetch --demo --demo-jobs 20000
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 20001 ] && [ "${#lines[@]}" -le 20031 ]
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/big.tsv"
	JOBS=$BATS_TEST_TMPDIR/big.tsv
	[ "$(pick state name=reasoning-exp | grep -c TIMEOUT)" -eq 99 ]
	[ "$(pick state,elapsed_s,total_cpu_s name=eval-ckpt-4000)" = "COMPLETED 2497 10000" ]
}

# What sp-fetch(1) and its --help say of --demo-jobs N, counted.
@test "demo-jobs: about N allocations, never fewer than the named cases" {
	words=$(sed -n 's/.*never fewer than the \([0-9,]*\) of its named cases.*/\1/p' \
		"$SP_TOP/man1/sp-fetch.1")
	mix=$(sed -n 's/.*the default mix of \([0-9,]*\)\..*/\1/p' "$SP_TOP/man1/sp-fetch.1" | tr -d ,)
	[ -n "$words" ] && [ -n "$mix" ]
	sp-fetch --help | tr -s ' \n' ' ' | grep -qF "never fewer than its $words named cases"
	named=$(printf '%s' "$words" | tr -d ,)
	allocations() {
		sp-fetch --demo-jobs "$1" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["step"] == "" { n++ } END { print n }'
	}
	[ "$(allocations 1)" -eq "$named" ]
	[ "$(allocations 100)" -eq "$named" ]
	[ "$(allocations 0)" -eq "$mix" ]
	for n in 3000 10000; do
		got=$(allocations $n)
		# about: within 1%
		[ $((got * 100)) -ge $((n * 99)) ] && [ $((got * 100)) -le $((n * 101)) ] ||
			{ echo "--demo-jobs $n: $got allocations"; return 1; }
	done
}

@test "the demo's names fold into 470 workloads" {
	command -v sp-group >/dev/null || skip "sp-group is not built yet"
	[ "$(sp-group --rollup <"$JOBS" 2>/dev/null | wc -l)" -eq 471 ]
}

@test "the README's count of sp-fetch's columns is the header's" {
	said=$(tr -s ' \n' ' ' <"$SP_TOP/README.md" |
		sed -n 's/.*folds the steps into their job and writes \([0-9]*\) columns.*/\1/p')
	[ -n "$said" ]
	[ "$(sp-fetch --demo-jobs 1 | head -1 | tr '\t' '\n' | wc -l)" -eq "$said" ]
}

# Each command of a README block that shows a command's output ("$ "
# lines), run, gives the lines shown under it in that order ("..."
# stands for lines left out).  $1: the blocks, one file.
readme_commands_print() {
	# split into one file a command: its line, then what it printed
	awk -v dir="$BATS_TEST_TMPDIR" '/^\$ / { n++; f = dir "/cmd." n;
		sub(/^\$ /, ""); sub(/ +#.*/, ""); print > (f ".sh"); next }
		{ print > (f ".want") }' "$1"
	for cmd in "$BATS_TEST_TMPDIR"/cmd.*.sh; do
		want=${cmd%.sh}.want
		sh "$cmd" >"$BATS_TEST_TMPDIR/got" 2>/dev/null || [ $? -eq 1 ]
		# every line shown, in order, in what the command printed
		awk 'NR == FNR { if ($0 !~ /^ *\.\.\.$/) want[++n] = $0; next }
			i < n && $0 == want[i + 1] { i++ }
			END { if (i < n) { print "not printed: " want[i + 1]; exit 1 } }' \
			"$want" "$BATS_TEST_TMPDIR/got" ||
			{ echo "$(cat "$cmd")"; return 1; }
	done
}

# The README's first screen: the commands of its first block.
@test "the README's first screen: the array view and the table, as the programs print them" {
	awk '/^## What it shows/ { f = 1 } f && /^```$/ { if (n++) exit; next }
		f && n' "$SP_TOP/README.md" >"$BATS_TEST_TMPDIR/block"
	grep -q '^\$ slurmpast --demo 52581003' "$BATS_TEST_TMPDIR/block"
	grep -q '^\$ sp-fetch --demo | sp-show --table' "$BATS_TEST_TMPDIR/block"
	readme_commands_print "$BATS_TEST_TMPDIR/block"
	# the first screen: both within the README's first 60 lines
	[ "$(grep -n '^\$ sp-fetch --demo | sp-show --table' "$SP_TOP/README.md" | cut -d: -f1)" -le 60 ]
}

# The tour: its report and its resolved finding are what the demo prints.
@test "the README's tour: the demo's report and findings, as printed now" {
	# its plain blocks that open with a command
	awk '/^## A tour of the demo/ { f = 1; next } f && /^## / { exit }
		!f { next }
		/^```/ { if (on) on = 0; else { on = 1; first = 1 }
			plain = ($0 == "```"); next }
		on && first { first = 0; keep = plain && /^\$ / }
		on && keep' "$SP_TOP/README.md" >"$BATS_TEST_TMPDIR/block"
	[ "$(grep -c '^\$ ' "$BATS_TEST_TMPDIR/block")" -ge 2 ]
	grep -q '^\$ slurmpast --demo --plain$' "$BATS_TEST_TMPDIR/block"
	readme_commands_print "$BATS_TEST_TMPDIR/block"
}

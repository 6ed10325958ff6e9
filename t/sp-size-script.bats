#!/usr/bin/env bats
# sp-size --script: the advice written into the user's own batch script.
# The demo's rollout-gen script, made histories for every verdict, every
# #SBATCH spelling, line ends kept, the diff applied by patch, the file
# rewritten in place (and refused when it changed), and the errors.

load lib/common

setup_file() {
	export SLURMPAST_NO_SITE=1
	sp-fetch --demo 2>/dev/null | sp-group >"$BATS_FILE_TMPDIR/demo.tsv"
}

setup() {
	T=$BATS_TEST_TMPDIR
	DEMO=$BATS_FILE_TMPDIR/demo.tsv
	export SLURMPAST_NO_SITE=1 USER=bob
	cd "$T" || return 1
	# etl: three runs done, three timeouts that computed nothing (a hold
	# on --time), peaks of 2 GiB under 8G.  train: four GPUs, 1.6 busy.
	# One task each: --cpus-per-task is per task, and needs ntasks.
	cat >jobs.tsv <<-'EOF'
	jobid	state	elapsed_s	timelimit_s	alloc_cpus	ntasks	total_cpu_s	mem_limit_node_b	max_rss_b	alloc_gpus	gpu_util	start	workload_key
	11	COMPLETED	1000	3600	4	1	3900	8589934592	2147483648			2026-01-01T10:00:00	bob/cpu/cpu/etl
	12	COMPLETED	900	3600	4	1	3500	8589934592	2000000000			2026-01-02T10:00:00	bob/cpu/cpu/etl
	13	COMPLETED	950	3600	4	1	3600	8589934592	2100000000			2026-01-03T10:00:00	bob/cpu/cpu/etl
	14	TIMEOUT	3600	3600	4	1	2	8589934592	100000000			2026-01-04T10:00:00	bob/cpu/cpu/etl
	15	TIMEOUT	3600	3600	4	1	3	8589934592	100000000			2026-01-05T10:00:00	bob/cpu/cpu/etl
	16	TIMEOUT	3600	3600	4	1	1	8589934592	100000000			2026-01-06T10:00:00	bob/cpu/cpu/etl
	21	COMPLETED	5000	14400	8	1	20000	68719476736	21474836480	4	0.4	2026-01-01T10:00:00	bob/gpu/gpu/train
	22	COMPLETED	5200	14400	8	1	21000	68719476736	22474836480	4	0.35	2026-01-02T10:00:00	bob/gpu/gpu/train
	23	COMPLETED	5100	14400	8	1	20500	68719476736	21000000000	4	0.38	2026-01-03T10:00:00	bob/gpu/gpu/train
	31	COMPLETED	100	600	1	1	99	1073741824	107374182			2026-01-01T10:00:00	bob/cpu/cpu/tiny
	EOF
}

MEM_DEMO='largest peak of 993 runs within their limit: 71.9 GiB (job 53615427), x 1.00'
TIME_DEMO='longest of 975 completed runs took 01:29:58 (p95 01:26:28)'
HOLD='blocked, not slow: 3 of the 3 timeouts (of 6 runs) used under 10 CPU-seconds, and a longer limit buys a longer hang; fix the blocking call (a data read, a lock, a rendezvous, a prompt); sp-hang lists the runs'

@test "sp-size --script on the demo: rollout-gen's --mem and --time rewritten, the rest as it was" {
	cat >rollout.sh <<-'EOF'
	#!/bin/bash
	#SBATCH --job-name=rollout-gen
	#SBATCH --partition=gpu
	#SBATCH --gres=gpu:2
	#SBATCH --mem=128G
	#SBATCH --time=08:00:00
	#SBATCH --cpus-per-task=16

	python rollout.py --shard "$SLURM_ARRAY_TASK_ID"
	EOF
	run --separate-stderr sp-size --script rollout.sh -u alice "$DEMO"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '#!/bin/bash' \
		'#SBATCH --job-name=rollout-gen' \
		'#SBATCH --partition=gpu' \
		'#SBATCH --gres=gpu:2' \
		"# slurmpast: --mem 128G -> 72G: $MEM_DEMO" \
		'#SBATCH --mem=72G' \
		"# slurmpast: --time 08:00:00 -> 01:45:00: $TIME_DEMO" \
		'#SBATCH --time=01:45:00' \
		'#SBATCH --cpus-per-task=16' \
		'' \
		'python rollout.py --shard "$SLURM_ARRAY_TASK_ID"')" ]
	[ "${stderr_lines[0]}" = "sp-size: rollout.sh: the advice of alice/gpu/gpu/rollout-gen, 1098 runs" ]
	# The advice records say the same: the script is their figures.
	sp-size --mem --time "$DEMO" 2>/dev/null |
		awk -F'\t' '$3 == "alice/gpu/gpu/rollout-gen" { print $9 }' >want
	[ "$(cat want)" = "$(printf '#SBATCH --time=01:45:00\n#SBATCH --mem=72G')" ]
}

@test "sp-size --script: a hold and a lower, each line's comment; the user from \$USER" {
	cat >etl.sh <<-'EOF'
	#!/bin/sh
	#SBATCH -J etl
	#SBATCH -t 60 --mem 8192 -c4
	./etl
	EOF
	run --separate-stderr sp-size --script etl.sh jobs.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '#!/bin/sh' '#SBATCH -J etl' \
		"# slurmpast: --time 60 held: $HOLD" \
		'# slurmpast: --mem 8192 -> 4096: largest peak of 3 runs within their limit: 2.0 GiB (job 11), x 1.90' \
		'# slurmpast: --cpus-per-task 4 -> 5: the busiest run (job 11) kept 3.9 of its 4 cores per task busy' \
		'#SBATCH -t 60 --mem 4096 -c5' './etl')" ]
	[ "$stderr" = "sp-size: etl.sh: the advice of bob/cpu/cpu/etl, 6 runs" ]
}

@test "sp-size --script: every spelling kept (=, space, attached, quoted, minutes, megabytes, gres)" {
	cat >train.sh <<-'EOF'
	#!/bin/bash
	#SBATCH --job-name "train"
	#SBATCH --gres=gpu:a100:4,lscratch:100
	#SBATCH --mem=64g
	#SBATCH --time 4:00:00   # four hours
	#SBATCH -c 8
	srun python train.py
	EOF
	run --separate-stderr sp-size --script train.sh jobs.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '#!/bin/bash' '#SBATCH --job-name "train"' \
		'# slurmpast: --gres gpu:a100:4,lscratch:100 -> gpu:a100:2,lscratch:100: the busiest run (job 21) kept 1.6 of its 4 GPUs busy' \
		'#SBATCH --gres=gpu:a100:2,lscratch:100' \
		'# slurmpast: --mem 64g -> 40g: largest peak of 3 runs within their limit: 20.9 GiB (job 22), x 1.90' \
		'#SBATCH --mem=40g' \
		'# slurmpast: --time 4:00:00 -> 2:45:00: longest of 3 completed runs took 01:26:40' \
		'#SBATCH --time 2:45:00   # four hours' \
		'# slurmpast: --cpus-per-task 8 -> 5: the busiest run (job 22) kept 4.0 of its 8 cores per task busy' \
		'#SBATCH -c 5' 'srun python train.py')" ]
}

@test "sp-size --script: the issue's spellings (--mem 64G, -t 4:00:00, -c 8, --gres=gpu:4) kept" {
	printf '#!/bin/bash\n#SBATCH -J train\n#SBATCH --gres=gpu:4\n#SBATCH --mem 64G\n#SBATCH -t 4:00:00\n#SBATCH -c 8\nrun\n' >s.sh
	run --separate-stderr sp-size --script s.sh jobs.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '#!/bin/bash' '#SBATCH -J train' \
		'# slurmpast: --gres gpu:4 -> gpu:2: the busiest run (job 21) kept 1.6 of its 4 GPUs busy' \
		'#SBATCH --gres=gpu:2' \
		'# slurmpast: --mem 64G -> 40G: largest peak of 3 runs within their limit: 20.9 GiB (job 22), x 1.90' \
		'#SBATCH --mem 40G' \
		'# slurmpast: --time 4:00:00 -> 2:45:00: longest of 3 completed runs took 01:26:40' \
		'#SBATCH -t 2:45:00' \
		'# slurmpast: --cpus-per-task 8 -> 5: the busiest run (job 22) kept 4.0 of its 8 cores per task busy' \
		'#SBATCH -c 5' 'run')" ]
}

@test "sp-size --script: --mem-per-cpu per CPU, as the cores per task are rewritten" {
	printf '#!/bin/bash\n#SBATCH -J train -G 4\n#SBATCH --mem-per-cpu=6G -c 8\nrun\n' >t.sh
	run --separate-stderr sp-size --script t.sh --mem --cpus-per-task jobs.tsv
	[ "$status" -eq 0 ]
	# 40G a node over 5 cores: 8G each
	[ "$output" = "$(printf '%s\n' '#!/bin/bash' '#SBATCH -J train -G 4' \
		'# slurmpast: --mem-per-cpu 6G -> 8G: 40G a node over 5 CPUs a node; largest peak of 3 runs within their limit: 20.9 GiB (job 22), x 1.90' \
		'# slurmpast: --cpus-per-task 8 -> 5: the busiest run (job 22) kept 4.0 of its 8 cores per task busy' \
		'#SBATCH --mem-per-cpu=8G -c 5' 'run')" ]
}

@test "sp-size --script: CR LF line ends said and kept, a last line without a newline kept so" {
	printf '#!/bin/sh\r\n#SBATCH -J etl --mem=8G\r\n./etl\r\n' >crlf.sh
	run --separate-stderr sp-size --script crlf.sh --mem jobs.tsv
	[ "$status" -eq 0 ]
	printf '#!/bin/sh\r\n# slurmpast: --mem 8G -> 4G: largest peak of 3 runs within their limit: 2.0 GiB (job 11), x 1.90\r\n#SBATCH -J etl --mem=4G\r\n./etl\r\n' >want
	sp-size --script crlf.sh --mem jobs.tsv 2>/dev/null | cmp - want
	[ "${stderr_lines[0]}" = "sp-size: crlf.sh: 3 lines end in CR LF (DOS): sbatch refuses such a script (dos2unix fixes it); the line ends are kept" ]

	printf '#!/bin/sh\n#SBATCH -J etl\n#SBATCH --mem=8G' >open.sh
	printf '#!/bin/sh\n#SBATCH -J etl\n# slurmpast: --mem 8G -> 4G: largest peak of 3 runs within their limit: 2.0 GiB (job 11), x 1.90\n#SBATCH --mem=4G' >want
	sp-size --script open.sh --mem jobs.tsv 2>/dev/null | cmp - want
	# added after that last line: still no newline at the end
	printf '#!/bin/sh\n#SBATCH -J etl' >bare.sh
	sp-size --script bare.sh --mem --add jobs.tsv 2>/dev/null >out
	[ "$(tail -c 16 out)" = "#SBATCH --mem=4G" ]
	[ "$(head -n 2 out)" = "$(printf '#!/bin/sh\n#SBATCH -J etl')" ]
}

@test "sp-size --script: an #SBATCH line after the first command is left alone, as sbatch ignores it" {
	printf '#!/bin/sh\n#SBATCH -J etl\nmodule load x\n#SBATCH --mem=8G\n./etl\n' >late.sh
	run --separate-stderr sp-size --script late.sh --mem jobs.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat late.sh)" ]
	[ "${stderr_lines[1]}" = "sp-size: late.sh: --mem is not in the script; the advice is --mem=4G (largest peak of 3 runs within their limit: 2.0 GiB (job 11), x 1.90): --add adds it" ]
}

@test "sp-size --script --add: a flag the script lacks, after its last directive, with its reason" {
	printf '#!/bin/sh\n#SBATCH -J etl\n#SBATCH -c 4\n\n./etl\n' >add.sh
	run --separate-stderr sp-size --script add.sh --add jobs.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '#!/bin/sh' '#SBATCH -J etl' \
		'# slurmpast: --cpus-per-task 4 -> 5: the busiest run (job 11) kept 3.9 of its 4 cores per task busy' \
		'#SBATCH -c 5' \
		'# slurmpast: --mem=4G added: largest peak of 3 runs within their limit: 2.0 GiB (job 11), x 1.90' \
		'#SBATCH --mem=4G' '' './etl')" ]
	# a hold has no line to add: --time stays out
	[[ "$output" != *--time* ]]
}

EXCL_DEMO='leave out g003, g011, g017, worse than the other machines for it (hang metric, 1098 runs, 11 nodes tested)'

@test "sp-size --script: the node rule's --exclude, added, merged with the script's -x, kept in place" {
	# rollout-gen: the report's #SBATCH --exclude=g[003,011,017]
	printf '#!/bin/sh\n#SBATCH -J rollout-gen -p gpu --gpus=2\n./gen\n' >gen.sh
	run --separate-stderr sp-size --script gen.sh --time -u alice "$DEMO"
	[[ "$output" != *exclude* ]]	# a flag asked for: the node rule is not
	run --separate-stderr sp-size --script gen.sh -u alice "$DEMO"
	[[ "$output" != *exclude* ]]
	[ "${stderr_lines[3]}" = "sp-size: gen.sh: --exclude is not in the script; the advice is --exclude=g[003,011,017] ($EXCL_DEMO): --add adds it" ]
	run --separate-stderr sp-size --script gen.sh --add -u alice "$DEMO"
	[ "$status" -eq 0 ]
	[ "${lines[-3]}" = "# slurmpast: --exclude=g[003,011,017] added: $EXCL_DEMO" ]
	[ "${lines[-2]}" = "#SBATCH --exclude=g[003,011,017]" ]
	# The script's own list is kept, the advice's machines joined to it,
	# in its own spelling; a list that has them all is left as it is.
	printf '#!/bin/sh\n#SBATCH -J rollout-gen -p gpu --gpus=2\n#SBATCH -x g001,g003\n./gen\n' >gen.sh
	sp-size --script gen.sh --in-place -u alice "$DEMO" 2>/dev/null
	grep -qx '#SBATCH -x g\[001,003,011,017\]' gen.sh
	grep -qxF "# slurmpast: --exclude g001,g003 -> g[001,003,011,017]: $EXCL_DEMO" gen.sh
	run --separate-stderr sp-size --script gen.sh --diff -u alice "$DEMO"
	[ -z "$output" ]
	# A list in a file is sbatch's to read; a machine asked for by -w is
	# not left out behind the user's back.
	printf '#!/bin/sh\n#SBATCH -J rollout-gen -p gpu --gpus=2 --exclude=./bad\n./gen\n' >gen.sh
	sp-size --script gen.sh -u alice "$DEMO" 2>/dev/null >out
	grep -qxF "# slurmpast: --exclude ./bad left as it is: it names a file of machines, which sbatch reads and this does not; the advice is --exclude=g[003,011,017]: $EXCL_DEMO" out
	printf '#!/bin/sh\n#SBATCH -J rollout-gen -p gpu --gpus=2 -w g011\n./gen\n' >gen.sh
	run --separate-stderr sp-size --script gen.sh --add -u alice "$DEMO"
	[[ "$output" != *exclude* ]]
	[[ "$stderr" == *"--nodelist asks for a machine the advice leaves out (--exclude=g[003,011,017]): --exclude not written;"* ]]
}

@test "sp-size --script --diff: patch -p0 applies it and gives exactly the rewritten script" {
	cat >train.sh <<-'EOF'
	#!/bin/bash
	#SBATCH -J train
	#SBATCH --gpus=4 --mem=64G -t 240
	line 4
	line 5
	line 6
	line 7
	line 8
	EOF
	sp-size --script train.sh jobs.tsv 2>/dev/null >want
	run --separate-stderr sp-size --script train.sh --diff jobs.tsv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "--- train.sh" ]
	[ "${lines[1]}" = "+++ train.sh" ]
	[ "${lines[2]}" = "@@ -1,6 +1,9 @@" ]
	printf '%s\n' "$output" >d.patch
	patch -s -p0 <d.patch
	cmp train.sh want
	# applied, nothing is left to change
	run --separate-stderr sp-size --script train.sh --diff jobs.tsv
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "sp-size --script --diff: CR LF and no last newline go through patch too" {
	printf '#!/bin/sh\r\n#SBATCH -J etl --mem=8G\r\n./etl' >c.sh
	sp-size --script c.sh --add jobs.tsv 2>/dev/null >want
	sp-size --script c.sh --add --diff jobs.tsv 2>/dev/null >d.patch
	grep -qx '\\ No newline at end of file' d.patch
	patch -s -p0 <d.patch
	cmp c.sh want
}

@test "sp-size --script --in-place: the script rewritten, the original kept; twice changes nothing" {
	printf '#!/bin/sh\n#SBATCH -J etl --mem=8G\n./etl\n' >etl.sh
	chmod 750 etl.sh
	cp etl.sh orig
	sp-size --script etl.sh jobs.tsv 2>/dev/null >want
	run --separate-stderr sp-size --script etl.sh --in-place jobs.tsv
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "${stderr_lines[-1]}" = "sp-size: etl.sh: rewritten; the original is etl.sh~" ]
	cmp etl.sh want
	cmp etl.sh~ orig
	[ "$(stat -c %a etl.sh)" = 750 ]
	# run again: nothing to change, nothing touched, no new backup
	rm etl.sh~
	run --separate-stderr sp-size --script etl.sh --in-place jobs.tsv
	[ "$status" -eq 0 ]
	[ "${stderr_lines[-1]}" = "sp-size: etl.sh: nothing to change: left as it is" ]
	cmp etl.sh want
	[ ! -e etl.sh~ ]
	# another suffix; through a symbolic link, its target
	cp orig real.sh
	ln -s real.sh link.sh
	sp-size --script link.sh --in-place --backup=.orig jobs.tsv 2>/dev/null
	[ -L link.sh ]
	cmp real.sh want
	cmp real.sh.orig orig
}

@test "sp-size --script --in-place: a request below the memory hold's size is raised to it, never held" {
	# rc-tok-github_code completed at 32G after 32G was killed: 18G dies
	printf '#!/bin/sh\n#SBATCH -J rc-tok-github_code\n#SBATCH --mem=18G\n./tok\n' >tok.sh
	run --separate-stderr sp-size --script tok.sh --in-place -u alice "$DEMO"
	[ "$status" -eq 0 ]
	grep -qx '#SBATCH --mem=32G' tok.sh
	grep -q '^# slurmpast: --mem 18G -> 32G, the size the hold keeps: job 53511658 completed at 32G, a size already killed for memory (job 53496668): memory is not the deciding variable, so no increment beyond 32G;' tok.sh
	! grep -q 'held' tok.sh
	# at the size itself: held, the line as it is
	printf '#!/bin/sh\n#SBATCH -J rc-tok-github_code\n#SBATCH --mem=32G\n./tok\n' >tok.sh
	sp-size --script tok.sh -u alice "$DEMO" 2>/dev/null >out
	grep -qx '#SBATCH --mem=32G' out
	grep -q '^# slurmpast: --mem 32G held: ' out
}

@test "sp-size --script --in-place: a script that changed since it was read is left as it is" {
	printf '#!/bin/sh\n#SBATCH -J etl --mem=8G\n./etl\n' >etl.sh
	mkfifo history
	sp-size --script etl.sh --in-place history 2>err &
	pid=$!
	# The history is opened after the script is read: once it is open
	# the script has been read, and another editor saves before the
	# history arrives.
	# (bats keeps descriptor 3 for itself)
	exec 7>history
	printf '#!/bin/sh\n#SBATCH -J etl --mem=9G\n./etl\n' >etl.sh
	cat jobs.tsv >&7
	exec 7>&-
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 2 ]
	[ "$(tail -n 1 err)" = "sp-size: etl.sh changed since it was read: left as it is" ]
	[ "$(cat etl.sh)" = "$(printf '#!/bin/sh\n#SBATCH -J etl --mem=9G\n./etl')" ]
	[ ! -e etl.sh~ ]
	[ "$(ls)" = "$(printf 'err\netl.sh\nhistory\njobs.tsv')" ]
}

@test "sp-size --script: a missing script is one line, exit 2, before any history is read" {
	run --separate-stderr sp-size --script nosuch.sh /dev/null
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-size: nosuch.sh: No such file or directory" ]
	run --separate-stderr sp-size --script . jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: .: Is a directory" ]
}

@test "sp-size --script: a workload with no history is one line, exit 2, naming the nearest" {
	printf '#!/bin/sh\n#SBATCH -J etI -p cpu\n./etl\n' >typo.sh
	run --separate-stderr sp-size --script typo.sh jobs.tsv
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-size: typo.sh: no history for job name 'etI', user bob, partition cpu, without GPUs; nearest with history: bob/cpu/cpu/etl (6 runs)" ]

	# no -J: the file's name, as sbatch names the job
	printf '#!/bin/sh\n#SBATCH -p gpu\n./etl\n' >etl.sh
	run --separate-stderr sp-size --script etl.sh jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: etl.sh: no history for job name 'etl.sh' (the file's name: no -J in the script), user bob, partition gpu, without GPUs; nearest with history: bob/cpu/cpu/etl (6 runs)" ]

	# GPUs asked, none held before: the same name elsewhere comes first
	printf '#!/bin/sh\n#SBATCH -J etl --gres=gpu:1\n./etl\n' >g.sh
	run --separate-stderr sp-size --script g.sh -u bob jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: g.sh: no history for job name 'etl', user bob, any partition, with GPUs; nearest with history: bob/cpu/cpu/etl (6 runs)" ]

	run --separate-stderr sp-size --script g.sh -u carol jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: g.sh: no history for job name 'etl', user carol, any partition, with GPUs; the name ran for other users: bob/cpu/cpu/etl (6 runs) (-u bob advises from theirs)" ]
}

@test "sp-size --script: a refusal leaves the line, with why" {
	printf '#!/bin/sh\n#SBATCH -J tiny -t 10\n./tiny\n' >tiny.sh
	run --separate-stderr sp-size --script tiny.sh --time jobs.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '#!/bin/sh' \
		'# slurmpast: --time 10 left as it is: needs 3 completed runs; there was 1' \
		'#SBATCH -J tiny -t 10' './tiny')" ]
}

@test "sp-size --script: sbatch's own objections said with their line; a hetjob and a bad quote refused" {
	printf '#!/bin/sh\n#SBATCH -J etl --bogus\n#SBATCH --mem=8G stray\n./etl\n' >odd.sh
	run --separate-stderr sp-size --script odd.sh --mem jobs.tsv
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "sp-size: odd.sh:2: '--bogus' is not an sbatch option" ]
	[ "${stderr_lines[1]}" = "sp-size: odd.sh:3: 'stray' is not an option: sbatch reads no directive after it, and refuses the script" ]

	printf '#!/bin/sh\n#SBATCH -J "etl\n' >q.sh
	run --separate-stderr sp-size --script q.sh jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: q.sh:2: unmatched \", which sbatch refuses" ]

	printf '#!/bin/sh\n#SBATCH -J etl\n#SBATCH hetjob\n#SBATCH -c 2\n' >het.sh
	run --separate-stderr sp-size --script het.sh jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: het.sh:3: a heterogeneous job (hetjob): its components are sized apart" ]

	printf '#SBATCH -J etl --mem=8G\n./etl\n' >nobang.sh
	run --separate-stderr sp-size --script nobang.sh --mem jobs.tsv
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "sp-size: nobang.sh: no #! first line: sbatch refuses such a script" ]
}

@test "sp-size --script: a control character in the script never reaches a comment raw" {
	printf '#!/bin/sh\n#SBATCH -J etl --mem=8\033[2JG\n./etl\n' >esc.sh
	run --separate-stderr sp-size --script esc.sh --mem jobs.tsv
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = '# slurmpast: --mem 8\x1b[2JG left as it is: not a size sbatch reads; the advice is --mem=4G: largest peak of 3 runs within their limit: 2.0 GiB (job 11), x 1.90' ]
	# and the directive itself is the script's own, byte for byte
	[ "${lines[2]}" = "$(printf '#SBATCH -J etl --mem=8\033[2JG')" ]
}

@test "sp-size --script: its options go together, and a failed write is exit 2" {
	printf '#!/bin/sh\n#SBATCH -J etl --mem=8G\n' >etl.sh
	run --separate-stderr sp-size --diff jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --diff, --in-place, --backup, --add and -u apply the advice to a batch script: add --script" ]
	run --separate-stderr sp-size --script etl.sh --diff --in-place jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --diff and --in-place are different outputs; choose one" ]
	run --separate-stderr sp-size --script etl.sh --backup=.b jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --backup names --in-place's copy of the original: add --in-place" ]
	run --separate-stderr sp-size --script etl.sh --in-place --backup= jobs.tsv
	[ "$status" -eq 2 ]
	run --separate-stderr sp-size --script etl.sh --plain jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --script writes the script, not records: no --tsv, --plain, --json or --csv" ]
	run --separate-stderr sp-size --script etl.sh --findings jobs.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-size: --findings, --running, --cost and --script are different outputs; choose one" ]
	run --separate-stderr sh -c 'sp-size --script etl.sh jobs.tsv >/dev/full'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sp-size: <stdout>: No space left on device" ]]
}

@test "README: the before and after of a script are what sp-size --script does" {
	# The first two sh blocks of the README's section on scripts.
	awk '/^## The advice in your own script/ { f = 1; next }
	     f && /^## / { exit }
	     f && /^```sh$/ { n++; on = 1; next }
	     on && /^```$/ { on = 0; if (n == 2) exit; next }
	     on { print > (n == 1 ? "before.sh" : "after.sh") }' \
		"$SP_TOP/README.md"
	[ -s before.sh ] && [ -s after.sh ]
	sp-size --script before.sh -u alice "$DEMO" 2>/dev/null >got
	cmp got after.sh
}

#!/usr/bin/env bats
# Every script in examples/ runs against the demo and says what the demo
# holds; the ones that need a real cluster run against the fake sacct.

load lib/common

EX=$SP_TOP/examples

# The shared fake sacct (t/fake/sacct) first on PATH.
fake_sacct() {
	local dir=$BATS_TEST_TMPDIR/fake
	mkdir -p "$dir"
	ln -sf "$SP_TOP/t/fake/sacct" "$dir/sacct"
	export FAKE_SACCT_HELPFORMAT=$SP_TOP/t/fake/helpformat-24.05
	export FAKE_SACCT_ROWS=$SP_TOP/t/fake/rows.psv
	export FAKE_SACCT_LOG=$BATS_TEST_TMPDIR/sacct.log
	PATH="$dir:$PATH"
}

@test "every example has a test here" {
	for f in "$EX"/*.sh; do
		name=${f##*/}
		grep -q "\$EX/$name" "$BATS_TEST_FILENAME" ||
			{ echo "no test runs examples/$name"; return 1; }
	done
}

@test "the examples are POSIX sh" {
	for f in "$EX"/*.sh; do
		sh -n "$f" || { echo "$f"; return 1; }
		if command -v shellcheck >/dev/null; then
			shellcheck -s sh "$f" || return 1
		fi
	done
}

@test "costliest.sh: the five costliest workloads" {
	run --separate-stderr "$EX/costliest.sh" --demo
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 5 ]
	[[ "${lines[0]}" =~ ^train-web\ +alice\ +22\ runs\ +4204\.4\ GPU-h\ +50452\.7\ core-h\ +16\.8%$ ]]
	[[ "${lines[1]}" =~ ^rollout-gen\ +alice\ +1098\ runs ]]
}

@test "costliest.sh on a cluster: this month's window" {
	fake_sacct
	run --separate-stderr "$EX/costliest.sh"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "train_s1e20 "* ]]
	grep -qx -- "$(date +%Y-%m-01)" "$FAKE_SACCT_LOG"
}

@test "costliest.sh and mem-below-peak.sh fail loudly when sacct does" {
	fake_sacct
	export FAKE_SACCT_MODE=dbd
	for ex in costliest.sh mem-below-peak.sh; do
		run --separate-stderr "$EX/$ex"
		[ "$status" -eq 2 ] || { echo "$ex: status $status"; return 1; }
		[ -z "$output" ] || { echo "$ex: $output"; return 1; }
		[[ "$stderr" == "sp-fetch: sacct cannot reach the accounting database"* ]] ||
			{ echo "$ex: $stderr"; return 1; }
	done
}

@test "mem-below-peak.sh: the gating experiment asks for less than it used" {
	run --separate-stderr "$EX/mem-below-peak.sh" --demo
	[ "$status" -eq 0 ]
	[[ "$output" == *$'bob/gpu/gpu/moe-gating-r#\tnewest --mem 24.0 GiB (job 53833621) is below the peak of 34.6 GiB (job 52105531)'* ]]
	# the figure-3 evaluation read 46.3 GiB above its 32G limit without a
	# kill: not a footprint, so not a peak
	[[ "$output" != *"eval-ckpt"* ]]
}

@test "weekly-report.sh --demo: the mail it would send" {
	run --separate-stderr "$EX/weekly-report.sh" --demo
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Subject: slurmpast: your week, a critical finding" ]
	[ "${lines[1]}" = "Demo: a synthetic history (sp-fetch --demo), not a real cluster's record." ]
	[[ "$output" == *$'\nProblem jobs, newest first\n'* ]]
	[[ "$output" == *"more: slurmpast --top 0 lists every one"* ]]
}

@test "weekly-report.sh from cron: mailed, the subject saying how it went" {
	fake_sacct
	mkdir -p "$BATS_TEST_TMPDIR/mail"
	cat >"$BATS_TEST_TMPDIR/mail/mail" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$BATS_TEST_TMPDIR/mail.args"
cat >"$BATS_TEST_TMPDIR/mail.body"
EOF
	chmod +x "$BATS_TEST_TMPDIR/mail/mail"
	PATH="$BATS_TEST_TMPDIR/mail:$PATH"
	run --separate-stderr "$EX/weekly-report.sh" you@example.org
	[ "$status" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/mail.args")" = "-s
slurmpast: your week, nothing critical
you@example.org" ]
	[ "$(head -1 "$BATS_TEST_TMPDIR/mail.body")" = "2 of 3 jobs failed" ]
	# sacct failing: the mail still goes, saying why
	export FAKE_SACCT_MODE=dbd
	run --separate-stderr "$EX/weekly-report.sh" you@example.org
	[ "$status" -eq 0 ]
	grep -qx 'slurmpast: no report this week' "$BATS_TEST_TMPDIR/mail.args"
	grep -q '^slurmpast: sacct cannot reach the accounting database' \
		"$BATS_TEST_TMPDIR/mail.body"
}

@test "shard-by-user.sh --demo: the merged parts are the whole" {
	run --separate-stderr "$EX/shard-by-user.sh" --demo
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "task 0: alice,carol, 1314 advice records" ]
	[ "${lines[1]}" = "task 1: bob, 415 advice records" ]
	[ "${lines[2]}" = "merged: 1729 advice records, the same as one run over the whole history" ]
	run --separate-stderr "$EX/shard-by-user.sh" --demo 3
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[3]}" == *", the same as one run over the whole history" ]]
}

@test "shard-by-user.sh task and merge, as the array runs them" {
	fake_sacct
	export SHARD_DIR=$BATS_TEST_TMPDIR/shards SINCE=2026-01-01
	mkdir -p "$SHARD_DIR"
	printf 'alice\nbob\n' >"$SHARD_DIR/users"
	for i in 0 1; do
		SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=2 \
			"$EX/shard-by-user.sh" task
	done
	grep -qx -- '-u' "$FAKE_SACCT_LOG"
	grep -qx 'alice' "$FAKE_SACCT_LOG"
	grep -qx 'bob' "$FAKE_SACCT_LOG"
	run --separate-stderr "$EX/shard-by-user.sh" merge
	[ "$status" -eq 0 ]
	[[ "$output" == "$SHARD_DIR/advice.tsv: "*" advice records" ]]
	head -1 "$SHARD_DIR/advice.tsv" | grep -q $'\tworkload_key\t'
	run --separate-stderr "$EX/shard-by-user.sh" bogus
	[ "$status" -eq 2 ]
	[[ "$stderr" == "usage: shard-by-user.sh "* ]]
}

@test "json-jq.sh: --json through jq" {
	command -v jq >/dev/null || skip "no jq"
	run --separate-stderr "$EX/json-jq.sh" --demo 53449206
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Critical failures across runs:" ]
	[[ "${lines[1]}" == "  rc-tok-github_code: memory-search: Memory is not the deciding variable"* ]]
	[[ "$output" == *$'\n  #SBATCH --mem=61G\n'* ]]
	[[ "$output" == *$'\nJob 53449206:\n  COMPLETED, 2497s of 86400s\n'* ]]
	[[ "$output" == *$'\n  warning rss-above-limit'* ]]
}

@test "json-jq.sh: slurmpast failing stops it, no empty heading" {
	command -v jq >/dev/null || skip "no jq"
	fake_sacct
	export FAKE_SACCT_MODE=dbd
	run --separate-stderr "$EX/json-jq.sh"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "slurmpast: sacct cannot reach the accounting database"* ]]
}

# A stand-in for sbatch: its arguments and the script it was given.
fake_sbatch() {
	local dir=$BATS_TEST_TMPDIR/sbatch
	mkdir -p "$dir"
	cat >"$dir/sbatch" <<EOF2
#!/bin/sh
printf '%s\n' "\$@" >"$BATS_TEST_TMPDIR/sbatch.args"
cat "\$1" >"$BATS_TEST_TMPDIR/sbatch.script"
echo "Submitted batch job 4242"
EOF2
	chmod +x "$dir/sbatch"
	PATH="$dir:$PATH"
}

rollout_script() {
	printf '%s\n' '#!/bin/bash' '#SBATCH --job-name=rollout-gen' \
		'#SBATCH --partition=gpu' '#SBATCH --gres=gpu:2' \
		'#SBATCH --mem=128G' '#SBATCH --time=08:00:00' \
		'python rollout.py' >"$1"
}

@test "advise-before-sbatch.sh --demo: the diff shown, nothing written, nothing submitted" {
	fake_sbatch
	cd "$BATS_TEST_TMPDIR"
	rollout_script rollout.sh
	cp rollout.sh orig
	run --separate-stderr "$EX/advise-before-sbatch.sh" -u alice rollout.sh --demo
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "--- rollout.sh" ]
	[ "${lines[6]}" = "-#SBATCH --mem=128G" ]
	[ "${lines[9]}" = "+#SBATCH --mem=72G" ]
	[ "${lines[11]}" = "+#SBATCH --time=01:45:00" ]
	cmp rollout.sh orig
	[ ! -e sbatch.args ]
}

@test "advise-before-sbatch.sh --submit: what was shown is written, then submitted" {
	fake_sbatch
	cd "$BATS_TEST_TMPDIR"
	rollout_script rollout.sh
	cp rollout.sh orig
	"$EX/advise-before-sbatch.sh" -u alice rollout.sh --demo >shown 2>/dev/null
	run --separate-stderr "$EX/advise-before-sbatch.sh" --submit -u alice rollout.sh --demo
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "Submitted batch job 4242" ]
	[ "$(cat sbatch.args)" = rollout.sh ]
	cmp sbatch.script rollout.sh
	cmp rollout.sh~ orig
	# the diff shown is the change written
	cp orig check.sh
	sed 's/^\(---\|+++\) rollout.sh$/\1 check.sh/' shown | patch -s -p0
	cmp check.sh rollout.sh
	# a workload with no history: said, and not submitted
	rm sbatch.args
	printf '#!/bin/sh\n#SBATCH -J never-ran\n./x\n' >new.sh
	run --separate-stderr "$EX/advise-before-sbatch.sh" --submit -u alice new.sh --demo
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"sp-size: new.sh: no history for job name 'never-ran'"* ]]
	[ ! -e sbatch.args ]
}

@test "advise-before-sbatch.sh on a cluster: the last 30 days of the user's jobs" {
	fake_sacct
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\n#SBATCH -J train_s2e40 -p gpu --gres=gpu:1 -t 2:00:00\nrun\n' >t.sh
	run --separate-stderr "$EX/advise-before-sbatch.sh" -u alice t.sh
	[ "$status" -eq 0 ]
	# one run is too few: the lines stay, with why
	[ "${lines[4]}" = "+# slurmpast: --time 2:00:00 left as it is: needs 3 completed runs; there was 1" ]
	grep -qx -- '-S' "$FAKE_SACCT_LOG"
	grep -qx -- 'now-30days' "$FAKE_SACCT_LOG"
	grep -qx -- 'alice' "$FAKE_SACCT_LOG"
	run --separate-stderr "$EX/advise-before-sbatch.sh" --bogus t.sh
	[ "$status" -eq 2 ]
	[[ "$stderr" == "usage: advise-before-sbatch.sh "* ]]
}

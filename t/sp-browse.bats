#!/usr/bin/env bats
# sp-browse: the dashboard driven through a real terminal (tmux): the
# screens and the keys between them, what each screen says against what
# the other stages say of the same records, the terminal given back on
# every way out, hostile names, a 100,000-job history; and --plain.
# Screens are waited for by polling (term_wait_for), never by sleeping.

load lib/common
load lib/tmux

setup_file() {
	local d=$BATS_FILE_TMPDIR
	export DEMO=$d/demo.tsv
	SLURMPAST_NO_SITE=1 "$SP_BIN/sp-fetch" --demo 2>/dev/null |
		"$SP_BIN/sp-group" >"$DEMO"
}

teardown() {
	term_stop
}

# The value of a column in the records of $1 where column $2 is $3.
field_where() {
	awk -F '\t' -v want="$4" -v key="$2" -v val="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c[key] == val { print $c[want] }' "$1"
}

# The first screen's line of column titles.
header_line() {
	local l
	for l in "${lines[@]}"; do
		[[ "$l" == "workload"[▴▾\ ]* ]] && { printf '%s\n' "$l"; return 0; }
	done
	return 1
}

# The first screen's first row of workloads, under the column titles.
first_row() {
	local i
	for i in "${!lines[@]}"; do
		if [[ "${lines[i]}" == "workload"[▴▾\ ]* ]]; then
			printf '%s\n' "${lines[i + 1]}"
			return 0
		fi
	done
	return 1
}

# The first screen's rows of workloads: under the titles, above the keys.
rows() {
	local i on=0
	for i in "${!lines[@]}"; do
		[ "$i" -eq "$((${#lines[@]} - 1))" ] && break
		[ "$on" = 1 ] && printf '%s\n' "${lines[i]}"
		[[ "${lines[i]}" == "workload"[▴▾\ ]* ]] && on=1
	done
	return 0
}

# The screen's line that holds TEXT.
line_with() {
	local l
	for l in "${lines[@]}"; do
		[[ "$l" == *"$1"* ]] && { printf '%s\n' "$l"; return 0; }
	done
	return 1
}

open_demo() {
	term_exec "${1:-80}" "${2:-24}" "sp-browse '$DEMO'" "${@:3}"
	term_wait_for "? keys"
}

@test "sp-browse: the first screen on the demo, at 80x24" {
	open_demo
	[ "${lines[0]}" = "slurmpast · 470 workloads · by share of compute" ]
	# The headline sp-report leads the report with.
	[ "${lines[1]}" = "26033 GPU-hours, 1568 of them in allocations that never computed" ]
	[ "${lines[2]}" = "1180 of them in rollout-gen (40.0% of its 2948 GPU-hours)." ]
	[[ "${lines[3]}" == "3611 jobs of alice, bob and carol, 2026-01-05 to 2026-03-13, in 470"* ]]
	header_line | grep -Eq "runs +failed +noop +GPU-h +core-h +share▾ +severity"
	# The biggest workload first, its figures those of sp-group --rollup.
	first_row | grep -Eq '^train-web +alice +gpu +22 +1 +0 +4204\.4 +50452\.7 +16\.8% +ok$'
	rows | grep -Eq '^rollout-gen +alice +gpu +1098 +85 +105 +2948\.2 +23585\.5 +10\.1% warning$'
	# The keys, and the place, always on the last line.
	[[ "${lines[23]}" == "Enter open  s sort  f filter  / search  y copy #SBATCH  ? keys  q quit"*"1/470" ]]
	[ "$(term_alt)" = 1 ]
}

@test "sp-browse: down to a workload and a job, and back up with q" {
	local newest
	newest=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["workload_key"] == "alice/gpu/gpu/rollout-gen" && $c["open"] != 1 {
			print $c["start"], $c["jobid"] }' "$DEMO" | sort -r | head -1 | cut -d' ' -f2)
	open_demo
	term_keys Down Enter
	term_wait_for "1 [runs]"
	[ "${lines[0]}" = "slurmpast · rollout-gen · alice · gpu" ]
	[[ "${lines[1]}" == "1098 runs · 85 failed · 105 noop · 2948.2 GPU-h"* ]]
	# every line sp-size writes, the node rule's --exclude too (issue 30)
	[[ "${lines[2]}" == "next: #SBATCH --time=01:45:00  #SBATCH --mem=72G  #SBATCH --exc"* ]]
	# --next: the same line, whole, without a terminal
	local next
	next=$(sp-browse --next "$DEMO" 2>/dev/null |
		awk -F '\t' '$4 == "alice/gpu/gpu/rollout-gen" { print $5 }')
	[ "$next" = "next: #SBATCH --time=01:45:00  #SBATCH --mem=72G  #SBATCH --exclude=g[003,011,017]" ]
	[ "${next:0:70}" = "${lines[2]:0:70}" ]
	line_with "jobid" | grep -Eq '^jobid +state +elapsed +peak mem +CPU +node +finding'
	# Newest first.
	[[ "${lines[5]}" == "$newest "* ]]
	term_keys Enter
	term_wait_for "job $newest"
	# The post-mortem is sp-show's, line for line.
	local want
	want=$(sp-show --no-pager --no-color --width 80 -j "$newest" "$DEMO" |
		sed -n 1p)
	[ "${lines[1]}" = "$want" ]
	line_with "time    " | grep -q "of "
	term_keys q
	term_wait_for "1 [runs]"
	term_keys q
	term_wait_for "470 workloads"
	term_keys q
	term_dead
	[ "$output" = 0 ]
	[ "$(term_alt)" = 0 ]
}

@test "sp-browse: a workload's advice, findings and machines are the stages' own" {
	local key=alice/gpu/gpu/rollout-gen
	open_demo
	term_keys Down Enter
	term_wait_for "1 [runs]"
	term_keys Tab
	term_wait_for "2 [advice]"
	# Every flag sp-size advises, with its verdict.
	SLURMPAST_NO_SITE=1 sp-size "$DEMO" 2>/dev/null |
		awk -F '\t' -v k="$key" '$3 == k { print $4, $6 }' >"$BATS_TEST_TMPDIR/advice"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/advice")" -eq 5 ]
	# (the three that fit the window's 24 rows beside their risk)
	head -n 3 "$BATS_TEST_TMPDIR/advice" >"$BATS_TEST_TMPDIR/shown"
	while read -r flag verdict; do
		line_with "$flag " | grep -Eq -- "^$flag +$verdict " ||
			{ echo "no line for $flag $verdict"; return 1; }
	done <"$BATS_TEST_TMPDIR/shown"
	line_with "--time " | grep -q "08:00:00 → #SBATCH --time=01:45:00"
	# what the replay measured, sp-size's risk, under the advice (as
	# much of it as 80 columns hold)
	local risk shown
	risk=$(SLURMPAST_NO_SITE=1 sp-size "$DEMO" 2>/dev/null |
		awk -F '\t' -v k="$key" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$3 == k && $4 == "--time" { print $c["risk"] }')
	shown=$(line_with "from 975 runs;" | sed 's/^ *//; s/…$//; s/ *$//')
	[ "${#shown}" -gt 40 ] && [[ "$risk" == "$shown"* ]] ||
		{ echo "risk '$risk', shown '$shown'"; return 1; }
	term_keys Tab
	term_wait_for "3 [findings]"
	SLURMPAST_NO_SITE=1 sp-size --findings "$DEMO" 2>/dev/null |
		awk -F '\t' -v k="$key" '$3 == k { print $6, $5 }' >"$BATS_TEST_TMPDIR/found"
	[ -s "$BATS_TEST_TMPDIR/found" ]
	while read -r sev code; do
		line_with "$code" | grep -Eq "^$sev +$code" ||
			{ echo "no finding $sev $code"; return 1; }
	done <"$BATS_TEST_TMPDIR/found"
	term_keys Tab
	term_wait_for "4 [machines]"
	# The nodes sp-nodes finds worse for this workload, and only those.
	sp-nodes --workload "$key" "$DEMO" |
		awk -F '\t' '$12 == "worse" { print $4 }' | sort >"$BATS_TEST_TMPDIR/worse"
	[ -s "$BATS_TEST_TMPDIR/worse" ]
	printf '%s\n' "${lines[@]}" | awk '$NF == "worse" { print $1 }' | sort |
		diff - "$BATS_TEST_TMPDIR/worse"
	# Each row its interval as a bar on one scale, a legend says so; a
	# node with no bad placement (g015, 0 of 7) draws none.
	line_with "g041" | grep -q "█"
	[ "${lines[6]}" = "bar: █ the rate's 95% interval, │ the other nodes' rate; no bad run: empty" ]
	[[ "$(line_with "g015 ")" =~ ^g015\ +7\ +0\ +0\.0%\ +[░│]+\ +untested$ ]]
	term_keys 1
	term_wait_for "1 [runs]"
}

@test "sp-browse: / finds a workload by name, n the next, Escape gives up" {
	open_demo
	term_keys / r e r a n k
	term_wait_for "/rerank"
	term_keys Enter
	term_wait_for "19/470"
	term_keys Enter
	term_wait_for "slurmpast · rerank-docs · carol · gpu"
	term_keys q
	term_wait_for "19/470"
	term_keys n
	term_wait_for "24/470"
	term_keys / n o - s u c h - n a m e Escape
	term_wait_for "24/470"
	term_keys / n o - s u c h - n a m e Enter
	term_wait_for 'no line holds "no-such-name"'
}

@test "sp-browse: s sorts by the next column, S reverses it" {
	open_demo
	term_keys s
	term_wait_for "by severity"
	header_line | grep -q "severity▾"
	# The cursor stays on its workload; the top holds the worst.
	term_keys g
	term_wait_for "1/470"
	[[ "$(first_row)" == *" critical" ]]
	term_keys s s s s
	term_wait_for "by runs"
	header_line | grep -q "runs▾"
	# rollout-gen has the most runs; the cursor stayed on train-web.
	term_keys g
	term_wait_for "1/470"
	[[ "$(first_row)" == "rollout-gen "* ]]
	term_keys S
	term_wait_for "by runs, reversed"
	header_line | grep -q "runs▴"
	term_keys g
	term_wait_for "1/470"
	# The fewest runs first: one.
	first_row | grep -Eq '^[^ ]+ +[^ ]+ +[^ ]+ +1 '

}

@test "sp-browse: f filters to failed workloads of one user" {
	open_demo
	term_keys f
	term_wait_for "which workloads to show"
	term_keys Enter Down Down Down Enter
	term_wait_for "(*) bob"
	# Enter toggles a box here: the bottom line says so
	[[ "${lines[-1]}" == "Enter toggle "* ]]
	term_keys q
	term_wait_for "failed only, user bob"
	local want
	want=$(sp-group --rollup "$DEMO" 2>/dev/null |
		awk -F '\t' '$1 == "bob" && $9 > 0' | wc -l)
	[[ "${lines[0]}" == "slurmpast · $want workloads of 470 · "* ]]
	# Every row bob's, each with a failure.
	[ "$(rows | wc -l)" -gt 0 ]
	rows | awk '$2 != "bob" || $5 == 0 { bad = 1 } END { exit bad }'
}

@test "sp-browse: a resize redraws at the new size" {
	open_demo
	term_keys Down Enter
	term_wait_for "1 [runs]"
	tmux -S "$TERM_SOCK" resize-window -t t -x 120 -y 30
	term_wait_for "next: #SBATCH --time=01:45:00"
	local i
	for i in $(seq 1 300); do
		term_screen
		[ "${#lines[@]}" -eq 30 ] && [[ "${lines[29]}" == *"1/1098" ]] && break
		sleep 0.1
	done
	[[ "${lines[29]}" == "Enter open"*"1/1098" ]]
	[ "${#lines[29]}" -eq 120 ]
	tmux -S "$TERM_SOCK" resize-window -t t -x 60 -y 15
	for i in $(seq 1 300); do
		term_screen
		[ "${#lines[@]}" -eq 15 ] && break
		sleep 0.1
	done
	[[ "${lines[14]}" == "Enter open"* ]]
	term_keys q
	term_wait_for "470 workloads"
}

# Ends the dashboard opened on the demo with the keys given, from the
# first screen, a workload's or a job's (depth 0, 1, 2); the program's
# exit status must be want, and the main screen given back.
ends_with() {
	local depth=$1 want=$2
	shift 2
	open_demo
	if [ "$depth" -ge 1 ]; then
		term_keys Enter
		term_wait_for "1 [runs]"
	fi
	if [ "$depth" -ge 2 ]; then
		term_keys Enter
		term_wait_for "job "
	fi
	term_keys "$@"
	term_dead
	[ "$output" = "$want" ] || { echo "$*: status $output"; return 1; }
	[ "$(term_alt)" = 0 ] || { echo "$*: still on the alternate screen"; return 1; }
	term_stop
}

@test "sp-browse: every way out gives the terminal back" {
	ends_with 0 0 q
	ends_with 2 0 Q
	# Escape, level by level.
	ends_with 2 0 Escape Escape Escape
	# Ctrl-C: restored, then dead of SIGINT as a caller expects.
	ends_with 1 $((128 + 2)) C-c
	# SIGTERM and SIGHUP from outside: the same.
	local sig
	for sig in TERM HUP; do
		open_demo
		kill -"$sig" "$(term_pid)"
		term_dead
		[ "$output" = $((128 + $(kill -l "$sig"))) ] ||
			{ echo "$sig: $output"; return 1; }
		[ "$(term_alt)" = 0 ]
		term_stop
	done
}

# Until process $1 has ended (30 s at most: a bound, not a measure).
gone() {
	local i
	for i in $(seq 1 300); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "process $1 still runs: $(ps -o stat=,pcpu=,args= -p "$1")"
	kill -KILL "$1" 2>/dev/null
	return 1
}

@test "sp-browse: a window killed under it ends it, whoever gets the SIGHUP" {
	local err=$BATS_TEST_TMPDIR/err pid shell
	# The shell of term_exec shrugs off the hangup, so none reaches
	# sp-browse: only its terminal is gone, and reads end at once.
	term_exec 80 24 "sp-browse '$DEMO' 2>'$err'"
	term_wait_for "? keys"
	pid=$(term_pid)
	shell=$(term_format '#{pane_pid}')
	[ -n "$pid" ]
	tmux -S "$TERM_SOCK" kill-session -t t
	gone "$pid"
	term_dead
	# The shell outlived the hangup too: its sleep is ours to end.
	kill -KILL "$shell" 2>/dev/null || :
	[ "$output" = 2 ]
	[ "$(cat "$err")" = "sp-browse: /dev/tty: the terminal went away" ]
	# Deep in a workload and in the search prompt, the same.
	term_exec 80 24 "sp-browse '$DEMO' 2>'$err'"
	term_wait_for "? keys"
	term_keys Enter
	term_wait_for "1 [runs]"
	term_keys /
	term_wait_for "/"
	pid=$(term_pid)
	shell=$(term_format '#{pane_pid}')
	tmux -S "$TERM_SOCK" kill-server
	gone "$pid"
	term_dead
	kill -KILL "$shell" 2>/dev/null || :
	[ "$output" = 2 ]
	# Run by a plain shell, as slurmpast runs it: the hangup reaches it.
	term_start 80 24 "sp-browse '$DEMO'"
	term_wait_for "? keys"
	pid=$(pgrep -n -f "^sp-browse $DEMO\$")
	[ -n "$pid" ]
	tmux -S "$TERM_SOCK" kill-server
	gone "$pid"
}

@test "sp-browse: y prints the #SBATCH lines on exit, and sets the clipboard" {
	open_demo 80 24 \; set-option -g set-clipboard on
	term_keys Down y
	term_wait_for "copied 3 #SBATCH lines of rollout-gen"
	# whole in 80 columns: the status line, and y's line on ?
	[ "${lines[-1]}" = "copied 3 #SBATCH lines of rollout-gen: sent to the clipboard, printed on quit" ]
	term_keys '?'
	term_wait_for "slurmpast · keys"
	[[ "$(line_with "copy the #SBATCH")" =~ ^y\ +copy\ the\ \#SBATCH\ lines\ \(clipboard\;\ printed\ on\ exit\)$ ]]
	term_keys q
	# tmux took the OSC 52 into a paste buffer.
	[ "$(tmux -S "$TERM_SOCK" show-buffer)" = "$(printf '#SBATCH --time=01:45:00\n#SBATCH --mem=72G\n#SBATCH --exclude=g[003,011,017]')" ]
	term_keys q
	term_dead
	term_left
	[ "${lines[0]}" = "#SBATCH --time=01:45:00" ]
	[ "${lines[1]}" = "#SBATCH --mem=72G" ]
	[ "${lines[2]}" = "#SBATCH --exclude=g[003,011,017]" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "sp-browse: a failed write on the way out: restored, one line, exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	term_exec 80 24 "sp-browse '$DEMO' >/dev/full"
	term_wait_for "? keys"
	term_keys Down y
	term_wait_for "copied 3"
	term_keys q
	# The family's status for a failed write, whatever it is.
	local want
	want=$(sh -c 'sp-group "$1" >/dev/full 2>/dev/null; echo $?' _ "$DEMO")
	[ "$want" -ne 0 ]
	term_dead
	[ "$output" = "$want" ]
	[ "$(term_alt)" = 0 ]
	term_left
	[ "$output" = "sp-browse: <stdout>: No space left on device" ]
}

@test "sp-browse: names with escapes are shown, never obeyed; wide names line up" {
	local f=$BATS_TEST_TMPDIR/names.tsv
	# In record form: \t is the escape of a TAB, the rest raw bytes.
	EVIL=$(printf '\033]0;pwned\007\033[31mred\\tjob') \
	WIDE=$(printf '\350\256\255\347\273\203-\346\250\241\345\236\213') \
	COMB=$(printf 'e\314\201clair') \
	awk -F '\t' -v OFS='\t' '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		NR > 5 { exit }
		NR == 2 { $c["name"] = ENVIRON["EVIL"] }
		NR == 3 { $c["name"] = ENVIRON["WIDE"]; $c["user"] = "alice" }
		NR == 4 { $c["name"] = ENVIRON["COMB"]; $c["user"] = "alice" }
		{ print }' "$DEMO" | sp-group >"$f"
	term_exec 80 24 "sp-browse '$f'"
	term_wait_for "? keys"
	[[ "$output" == *'\x1b]0;pwned\x07'* ]]
	# The title tmux keeps is not what the name tried to set.
	[ "$(term_format '#{pane_title}')" != pwned ]
	# The user column starts at one display column on every row.
	local a b
	a=$(line_with "$(printf '\350\256\255\347\273\203')" |
		sed 's/ alice .*//' | LC_ALL=C.UTF-8 wc -L)
	b=$(line_with "clair" | sed 's/ alice .*//' | LC_ALL=C.UTF-8 wc -L)
	[ "$a" -eq "$b" ]
	# Whole, and as harmless, in the job's post-mortem.
	term_keys /
	term_keys -l 'pwned'
	term_keys Enter Enter
	term_wait_for "1 [runs]"
	term_keys Enter
	term_wait_for "job "
	[[ "$output" == *'\x1b]0;pwned\x07\x1b[31mred job'* ]]
	[ "$(term_format '#{pane_title}')" != pwned ]
	term_keys Q
	term_dead
}

@test "sp-browse: NO_COLOR draws no colour; TERM=dumb gets the text" {
	# The same screen with colour and without: a warning is yellow.
	open_demo
	output=$(tmux -S "$TERM_SOCK" capture-pane -p -e -t t)
	grep -q $'\033\\[[0-9;]*33m' <<<"$output"
	term_stop
	term_exec 80 24 "env NO_COLOR=1 sp-browse '$DEMO'"
	term_wait_for "? keys"
	output=$(tmux -S "$TERM_SOCK" capture-pane -p -e -t t)
	[[ "$output" == *"rollout-gen"* ]]
	! grep -q $'\033\\[[0-9;]*3[1-7]m' <<<"$output"
	term_stop
	term_exec 80 24 "env TERM=dumb sp-browse '$DEMO'"
	term_dead
	[ "$output" = 0 ]
	[ "$(term_alt)" = 0 ]
	term_left
	[ "${lines[0]}" = "26033 GPU-hours, 1568 of them in allocations that never computed" ]
	# Fitted to the terminal, as every --plain table.
	printf '%s\n' "${lines[@]}" | grep -Eq '^rollout[^ ]* +alice +gpu +1098 +85 +105 +2948\.2'
}

@test "sp-browse: records on a pipe, keys from the terminal (a shared fixture)" {
	need_fixtures
	local f=$FIXTURES/xdmod/pozidriv.log want
	local fields=JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName
	want=$(sp-fetch --input "$f" --fields "$fields" 2>/dev/null |
		sp-group --rollup 2>/dev/null | tail -n +2 | wc -l)
	[ "$want" -gt 1000 ]
	term_exec 80 24 "sh -c 'sp-fetch --input \"\$1\" --fields \"\$2\" 2>/dev/null | sp-group | sp-browse' _ '$f' '$fields'"
	term_wait_for "? keys"
	[[ "${lines[0]}" == "slurmpast · $want workload"* ]]
	term_keys Enter
	term_wait_for "1 [runs]"
	term_keys Enter
	term_wait_for "job "
	term_keys Q
	term_dead
	[ "$output" = 0 ]
}

@test "sp-browse: a 100,000-job history opens and answers" {
	local f=$BATS_TEST_TMPDIR/big.tsv
	SLURMPAST_NO_SITE=1 sp-fetch --demo --demo-jobs 100000 2>/dev/null |
		sp-group >"$f"
	local n
	n=$(sp-group --rollup "$f" 2>/dev/null | tail -n +2 | wc -l)
	[ "$n" -gt 10000 ]
	term_exec 80 24 "sp-browse '$f'"
	term_wait_for "? keys"
	[[ "${lines[0]}" == "slurmpast · $n workloads · by share of compute" ]]
	term_keys G
	term_wait_for "$n/$n"
	term_keys s
	term_wait_for "by severity"
	term_keys g Enter
	term_wait_for "1 [runs]"
	term_keys G
	term_wait_for "$(line_with "runs ·" | cut -d' ' -f1)/$(line_with "runs ·" | cut -d' ' -f1)"
	term_keys Tab
	term_wait_for "2 [advice]"
	term_keys q q
	term_dead
	[ "$output" = 0 ]
}

@test "sp-browse: the README's screen is the demo's first screen" {
	open_demo
	awk '/^<!-- sp-browse screen:/ { f = 1; next }
		f && /^```$/ { if (n++) exit; next } f' "$SP_TOP/README.md" \
		>"$BATS_TEST_TMPDIR/readme"
	printf '%s\n' "$output" | diff "$BATS_TEST_TMPDIR/readme" -
}

# A list of keys and their words, one a line, folded alike: the man
# page's KEYS (mandoc's text) or the keys of --help.
fold_keys() {
	sed "s/[\`']//g" | awk '
		/^ *$/ { next }
		/^     [^ ]/ || /^  [^ ]/ { if (l != "") print l; l = $0; next }
		{ sub(/^ +/, " "); l = l $0 }
		END { if (l != "") print l }' |
		sed 's/^ *//; s/, / /g' | tr -s ' '
}

@test "sp-browse: every key is in --help and the man page, and on ?" {
	local help man
	help=$(sp-browse --help | awk '/^Keys in the dashboard:/ { f = 1; next }
		/^$/ { f = 0 } f' | fold_keys)
	man=$(mandoc -T ascii "$SP_TOP/man1/sp-browse.1" | sed 's/.\x08//g' |
		awk '/^KEYS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' | fold_keys)
	[ "$(wc -l <<<"$help")" -ge 20 ]
	[ "$help" = "$man" ] || { diff <(echo "$man") <(echo "$help"); return 1; }
	# The ? screen is the same list (its lines as wide as the words).
	open_demo 120 40
	term_keys '?'
	term_wait_for "Ctrl-L"
	local shown
	shown=$(printf '%s\n' "${lines[@]:1:$(wc -l <<<"$help")}" |
		sed 's/^/  /' | fold_keys)
	[ "$shown" = "$help" ] || { diff <(echo "$help") <(echo "$shown"); return 1; }
	# F1 too, and Left leaves it.
	term_keys Left
	term_wait_for "470 workloads"
	term_keys F1
	term_wait_for "Ctrl-L"
	term_keys h
	term_wait_for "470 workloads"
}

@test "sp-browse: the moving keys, each of its names" {
	open_demo
	local k
	for k in G End; do
		term_keys g
		term_wait_for "  1/470"
		term_keys "$k"
		term_wait_for "470/470"
	done
	for k in g Home; do
		term_keys G
		term_wait_for "470/470"
		term_keys "$k"
		term_wait_for "  1/470"
	done
	# A page is the rows shown: down and back up by each name.
	local page
	page=$(rows | wc -l)
	for k in NPage Space C-f; do
		term_keys g "$k"
		term_wait_for " $((page + 1))/470"
	done
	for k in PPage b C-b; do
		term_keys G "$k"
		term_wait_for " $((470 - page))/470"
	done
	term_keys g
	term_wait_for "  1/470"
	for k in j:2 j:3 k:2 Down:3 Up:2; do
		term_keys "${k%:*}"
		term_wait_for "  ${k#*:}/470"
	done
	# In and out by every name; > and < turn the sort, r reverses it.
	for k in Enter Right l; do
		term_keys "$k"
		term_wait_for "1 [runs]"
		term_keys 2
		term_wait_for "2 [advice]"
		term_keys 3
		term_wait_for "3 [findings]"
		term_keys 4
		term_wait_for "4 [machines]"
		term_keys 1
		term_wait_for "1 [runs]"
		term_keys BTab
		term_wait_for "4 [machines]"
		term_keys Tab
		term_wait_for "1 [runs]"
		case $k in
		Enter) term_keys Left ;;
		Right) term_keys BSpace ;;
		l) term_keys Escape ;;
		esac
		term_wait_for "470 workloads"
	done
	term_keys '>'
	term_wait_for "by severity"
	term_keys '<'
	term_wait_for "by share of compute"
	term_keys r
	term_wait_for "by share of compute, reversed"
	term_keys C-l
	term_wait_for "by share of compute, reversed"
}

@test "sp-browse --plain: the first screen as text" {
	run --separate-stderr sp-browse --plain "$DEMO"
	[ "$status" -eq 0 ]
	# The report's headline, word for word.
	slurmpast --demo --plain --overview 2>/dev/null |
		sed -n '2,4p' >"$BATS_TEST_TMPDIR/report"
	[ -s "$BATS_TEST_TMPDIR/report" ]
	sed -n 1,3p <<<"$output" | diff "$BATS_TEST_TMPDIR/report" -
	# The advice replayed out of sample, as the report's advice ends.
	[ "${lines[3]}" = "$(slurmpast --demo --plain 2>/dev/null | grep '^Had the advice')" ]
	# An empty line, then the table (bats leaves empty lines out).
	[ "$(sed -n 5p <<<"$output")" = "" ]
	[[ "${lines[4]}" =~ ^workload\ +user\ +partition\ +runs\ +failed\ +noop\ +gpu_h\ +core_h\ +share\ +severity$ ]]
	[[ "${lines[6]}" =~ ^rollout-gen\ +alice\ +gpu\ +1098\ +85\ +105\ +2948\.2\ +23585\.5\ +10\.1%\ +warning$ ]]
	# One row a workload, as many as the rollup has.
	[ "$(( ${#lines[@]} - 5 ))" -eq "$(sp-group --rollup "$DEMO" 2>/dev/null | tail -n +2 | wc -l)" ]
}

@test "sp-browse: its errors, one line each" {
	run --separate-stderr sp-browse --plain "$SP_TOP/t/sp-browse.bats"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	printf 'jobid\tstate\telapsed_s\n1\tCOMPLETED\t5\n' >"$BATS_TEST_TMPDIR/nokey.tsv"
	run --separate-stderr sp-browse --plain "$BATS_TEST_TMPDIR/nokey.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-browse: $BATS_TEST_TMPDIR/nokey.tsv: no column 'workload_key' (pipe through sp-group first)" ]
	run --separate-stderr sp-browse --plain </dev/null
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-browse: <stdin>: no header line (empty input)" ]
	run --separate-stderr sp-browse --log-dir
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-browse: option '--log-dir' needs a value" ]
	local want
	want=$(sh -c 'sp-group --plain "$1" >/dev/full 2>/dev/null; echo $?' _ "$DEMO")
	run --separate-stderr sh -c 'sp-browse --plain "$1" >/dev/full' _ "$DEMO"
	[ "$status" -eq "$want" ]
	[[ "${stderr_lines[-1]}" == "sp-browse: <stdout>: "* ]]
}

#!/usr/bin/env bats
# sp-plot: every figure well-formed SVG (parsed by xmllint), its numbers
# checked against the records of the stage it reads on the demo, wrong
# input refused naming the stage, hostile names escaped, and the page
# (slurmpast --html) rendered by a real browser (headless chromium) and
# its screenshot looked at.

load lib/common

# The demo through every stage once, for every test of the file.
setup_file() {
	local d=$BATS_FILE_TMPDIR
	export JOBS=$d/jobs.tsv GROUPED=$d/grouped.tsv ROLLUP=$d/rollup.tsv \
	    ADVICE=$d/advice.tsv FINDINGS=$d/findings.tsv COST=$d/cost.tsv \
	    HANGSUM=$d/hangsum.tsv NODES=$d/nodes.tsv
	export SLURMPAST_NO_SITE=1
	sp-fetch --demo >"$JOBS" 2>/dev/null
	sp-group "$JOBS" >"$GROUPED" 2>/dev/null
	sp-group --rollup "$GROUPED" >"$ROLLUP" 2>/dev/null
	sp-size "$GROUPED" >"$ADVICE" 2>/dev/null
	# 1: a critical finding among them, as the demo holds
	sp-size --findings "$GROUPED" >"$FINDINGS" 2>/dev/null || [ $? -eq 1 ]
	sp-size --cost "$GROUPED" >"$COST" 2>/dev/null
	sp-hang --summary "$GROUPED" >"$HANGSUM" 2>/dev/null || [ $? -eq 1 ]
	sp-nodes "$GROUPED" >"$NODES" 2>/dev/null
}

need_xmllint() {
	command -v xmllint >/dev/null || skip "xmllint is not installed (Debian libxml2-utils)"
}

# xpath FILE EXPR: an XPath over an SVG, its namespace ignored by
# local-name(): one result a line.
xpath() {
	xmllint --xpath "$2" "$1" 2>/dev/null
}

# The text of every <text> of a class of group, one a line.
texts_of() {
	xmllint --xpath "//*[local-name()='g'][contains(concat(' ', @class, ' '), ' $2 ')]/*[local-name()='text'][1]/text()" "$1" 2>/dev/null
}

# draw KIND FILE [OPTION ...]: the figure into $BATS_TEST_TMPDIR/KIND.svg,
# checked well-formed, with an <svg> root, a title and a caption.
draw() {
	local kind=$1 file=$2 out=$BATS_TEST_TMPDIR/$1.svg
	shift 2
	run --separate-stderr sp-plot "$kind" "$@" "$file"
	[ "$status" -eq 0 ] || { echo "$kind: status $status: $stderr"; return 1; }
	printf '%s\n' "$output" >"$out"
	xmllint --noout "$out" || { echo "$kind: not well-formed"; return 1; }
	[ "$(xpath "$out" "name(/*)")" = svg ]
	[ -n "$(xpath "$out" "string(/*/*[local-name()='title'])")" ]
	[ -n "$(xpath "$out" "string(/*/*[local-name()='desc'])")" ]
	SVG=$out
}

title_of() {
	xpath "$1" "string(/*/*[local-name()='title'])"
}

caption_of() {
	xpath "$1" "string(/*/*[local-name()='desc'])"
}

# col FILE NAME: the values of one column of a TSV file, by its name.
col() {
	awk -F '\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"
}

@test "every kind draws the demo: well-formed SVG, a title and a caption" {
	need_xmllint
	draw runtime "$JOBS"
	draw share "$ROLLUP"
	draw job "$JOBS" --job 53449206
	draw memory-walk "$GROUPED" --findings "$FINDINGS"
	draw array "$GROUPED" --findings "$FINDINGS"
	draw failures "$ROLLUP"
	draw verdicts "$ADVICE"
	draw advice "$ADVICE"
	draw cost "$COST"
	draw idle "$HANGSUM"
	draw nodes "$NODES"
}

@test "runtime: every closed allocation counted, the open ones said" {
	need_xmllint
	draw runtime "$JOBS"
	closed=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["open"] != 1 && $c["elapsed_s"] != ""' "$JOBS" | wc -l)
	open=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["open"] == 1' "$JOBS" | wc -l)
	[ "$(title_of "$SVG")" = "How long each run lasted: $closed runs" ]
	[[ "$(caption_of "$SVG")" == *"Left out: $open records never ended."* ]]
}

@test "share: the curve ends at 100%, the top workload named with its share" {
	need_xmllint
	draw share "$ROLLUP"
	n=$(($(wc -l <"$ROLLUP") - 1))
	[ "$(title_of "$SVG")" = "Cumulative share of compute across $n workloads" ]
	[ "$(col "$ROLLUP" cum_share | tail -1)" = 1 ]
	# The last point of the curve sits on the 100% grid line.
	last=$(xpath "$SVG" "string(//*[local-name()='polyline']/@points)" | tr ' ' '\n' | tail -1)
	hundred=$(xpath "$SVG" "string(//*[local-name()='text'][.='100%']/@y)")
	[ "${last#*,}" = "$((hundred - 4))" ]
	top=$(head -2 "$ROLLUP" | tail -1 | cut -f4)
	share=$(awk -v s="$(col "$ROLLUP" share | head -1)" 'BEGIN { printf "%.1f", s * 100 }')
	[[ "$(caption_of "$SVG")" == *"The most expensive, $top, is $share% on its own."* ]]
}

@test "job: figure 3's evaluation, its memory not a footprint" {
	need_xmllint
	draw job "$JOBS" --job 53449206
	[ "$(title_of "$SVG")" = "Job 53449206 (eval-ckpt-4000): request against use" ]
	grep -q '>MaxRSS 46.3 GiB, above the 32.0 GiB limit: not a footprint, no share drawn<' "$SVG"
	grep -q '>00:41:37 of 1-00:00:00 (2.9%)<' "$SVG"
	[[ "$(caption_of "$SVG")" == *"the job was not killed, so the figure cannot be its footprint"* ]]
	# One job or a name for it; an unknown name is an error.
	run --separate-stderr sp-plot job "$JOBS"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: $(($(wc -l <"$JOBS") - 1)) jobs in the records: name one with --job ID" ]
	run --separate-stderr sp-plot job --job 1 "$JOBS"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: no job '1' in the records" ]
	# A pending job has no use to draw yet.
	run --separate-stderr sp-plot job --job 54039900 "$JOBS"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-plot: nothing to draw: the job has not ended: its use is not yet known" ]
}

@test "memory-walk: the memory search the finding names, the kills marked" {
	need_xmllint
	draw memory-walk "$GROUPED" --findings "$FINDINGS"
	key=$(awk -F '\t' '$5 == "memory-search" { print $3; exit }' "$FINDINGS")
	[ "$key" = alice/cpu/cpu/rc-tok-github_code ]
	[ "$(title_of "$SVG")" = "Memory, submission by submission: rc-tok-github_code" ]
	# Every run of the workload, in the order they started, the killed
	# ones (OUT_OF_MEMORY in the records) marked as killed.
	want=$(awk -F '\t' -v k="$key" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["workload_key"] == k { print $c["start"], $c["jobid"], ($c["state"] == "OUT_OF_MEMORY" ? "killed" : "ran") }' "$GROUPED" | sort | awk '{ print NR "  " $2, $3 }')
	rows=$(xpath "$SVG" "//*[local-name()='g'][starts-with(@class,'submission')]/*[local-name()='text'][1]/text()")
	ends=$(xpath "$SVG" "//*[local-name()='g'][starts-with(@class,'submission')]/@class" | sed 's/.*"submission killed"/killed/; s/.*"submission"/ran/')
	[ "$(paste -d ' ' <(printf '%s\n' "$rows") <(printf '%s\n' "$ends"))" = "$want" ]
	[ "$(texts_of "$SVG" killed | wc -l)" -eq 8 ]
	[[ "$(caption_of "$SVG")" == "10 submissions of one workload"*"8 were killed for memory."*"Not drawn: 2 peaks (none sampled)."* ]]
	# The same workload by name; several without one is a question.
	run sp-plot memory-walk --workload "$key" "$GROUPED"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$SVG")" ]
	run --separate-stderr sp-plot memory-walk "$GROUPED"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: the records hold more than one workload: name one with --workload KEY or --findings FILE" ]
}

@test "array: the population and the probes of the array-probes finding" {
	need_xmllint
	draw array "$GROUPED" --findings "$FINDINGS"
	evidence=$(awk -F '\t' '$5 == "array-probes" { print $7; exit }' "$FINDINGS")
	ids=$(awk -F '\t' '$5 == "array-probes" { print $4; exit }' "$FINDINGS")
	# The finding: "Across the workload's 284 array tasks ... the highest
	# probe is at or above only 46 (16%)"; the figure counts the same.
	tasks=$(sed 's/.*workload.s \([0-9]*\) array tasks.*/\1/' <<<"$evidence")
	below=$(sed 's/.*at or above only \([0-9]*\) (\([0-9]*%\)).*/\1 \2/' <<<"$evidence")
	[[ "$(caption_of "$SVG")" == *"The $tasks array tasks of one workload"* ]]
	[[ "$(caption_of "$SVG")" == *"the highest is at or above ${below% *} of the $tasks tasks (${below#* })."* ]]
	# Each probe of the finding (its ids after the array's own) marked.
	probes=$(cut -d' ' -f2- <<<"$ids" | tr ' ' '\n' | sort)
	got=$(texts_of "$SVG" probe | sed 's/^probe \([0-9]*\):.*/\1/' | sort)
	[ "$got" = "$probes" ]
	grep -q ">array ${ids%% *} requested 6.0 GiB<" "$SVG"
}

@test "failures: the workloads with most failed runs, as the rollup counts them" {
	need_xmllint
	draw failures "$ROLLUP"
	want=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["failed"] > 0 { print $c["failed"] " of " $c["runs"] }' "$ROLLUP" | sort -s -t' ' -k1,1nr -k3,3nr | head -12)
	got=$(grep -o '>[0-9]* of [0-9]*<' "$SVG" | tr -d '<>')
	[ "$got" = "$want" ]
	[ "$(title_of "$SVG")" = "The 12 workloads with the most failures" ]
}

@test "verdicts: the counts of sp-size's advice, the refusals beside" {
	need_xmllint
	draw verdicts "$ADVICE"
	judged=$(col "$ADVICE" verdict | grep -vc refuse)
	refused=$(col "$ADVICE" verdict | grep -c refuse)
	[ "$(title_of "$SVG")" = "Verdicts by flag: $judged, and $refused refusals" ]
	mem_refused=$(awk -F '\t' '$4 == "--mem" && $6 == "refuse"' "$ADVICE" | wc -l)
	grep -q ">$mem_refused refused<" "$SVG"
	lower=$(awk -F '\t' '$4 == "--time" && $6 == "lower"' "$ADVICE" | wc -l)
	grep -q ">$lower lower<" "$SVG"
}

@test "advice: asked, peak and advice in GiB, from the number columns" {
	need_xmllint
	draw advice "$ADVICE"
	# The first --mem verdict: train-web, 800G asked, 633.9 GiB peak.
	row=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["flag"] == "--mem" && $c["verdict"] != "refuse" { printf "%.0f %.0f %.0f\n", $c["requested"] / 2^30, $c["observed"] / 2^30, $c["target"] / 2^30; exit }' "$ADVICE")
	[ "$row" = "800 634 724" ]
	grep -q '>800<' "$SVG"
	grep -q '>634<' "$SVG"
	grep -q '>724<' "$SVG"
	# sp-size before the number columns: the one line naming them.
	cut -f1-12 "$ADVICE" >"$BATS_TEST_TMPDIR/old.tsv"
	run --separate-stderr sp-plot advice "$BATS_TEST_TMPDIR/old.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: $BATS_TEST_TMPDIR/old.tsv: no column 'requested' (pipe through sp-size first)" ]
	# A record of the days requested was the flag's words ("800G"):
	# refused, never drawn.
	cut -f1-12 "$ADVICE" | awk -F '\t' -v OFS='\t' \
		'NR == 1 { $7 = "requested"; $10 = "observed" } 1' >"$BATS_TEST_TMPDIR/old.tsv"
	run --separate-stderr sp-plot advice "$BATS_TEST_TMPDIR/old.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: $BATS_TEST_TMPDIR/old.tsv: no column 'target' (pipe through sp-size first)" ]
}

@test "cost: each way as its share of the request" {
	need_xmllint
	draw cost "$COST"
	share=$(awk -F '\t' '$1 == "memory" { printf "%.0f", $5 / $4 * 100 }' "$COST")
	grep -q " ($share%)<" "$SVG"
	[ "$(grep -c '(100%)<' "$SVG")" -eq 3 ]
}

@test "idle: the share that computed nothing, as sp-hang --summary counts it" {
	need_xmllint
	draw idle "$HANGSUM"
	runs=$(awk -F '\t' '$1 == "record" { print $6 }' "$HANGSUM")
	hangs=$(awk -F '\t' '$1 == "hangs" { print $7 }' "$HANGSUM")
	grep -q ">$hangs of $runs allocations (" "$SVG"
	first=$(awk -F '\t' '$1 == "workload" { print $7 " of " $6 " runs"; exit }' "$HANGSUM")
	grep -q ">$first<" "$SVG"
}

@test "nodes: the machines sp-nodes flags for rollout-gen are marked worse" {
	need_xmllint
	draw nodes "$NODES"
	[ "$(title_of "$SVG")" = "Bad placements by machine: rollout-gen (alice)" ]
	worse=$(awk -F '\t' '$12 == "worse" { print $4 }' "$NODES" | sort)
	[ "$worse" = "$(printf 'g003\ng011\ng017')" ]
	[ "$(texts_of "$SVG" worse | sort)" = "$worse" ]
	[ "$(texts_of "$SVG" better)" = g041 ]
	tested=$(awk -F '\t' 'NR > 1 && $12 != "untested"' "$NODES" | wc -l)
	[ "$(xpath "$SVG" "count(//*[local-name()='g'][starts-with(@class,'node ')])")" -eq "$tested" ]
	untested=$(awk -F '\t' '$12 == "untested"' "$NODES" | wc -l)
	[[ "$(caption_of "$SVG")" == *" $untested machines with too few placements to test are left out."* ]]
}

@test "wrong input: the missing column and the stage that writes it, exit 2" {
	run --separate-stderr sp-plot share "$JOBS"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-plot: $JOBS: no column 'cum_share' (pipe through sp-group --rollup first)" ]
	run --separate-stderr sp-plot nodes <"$ROLLUP"
	[ "$stderr" = "sp-plot: no column 'node' (pipe through sp-nodes first)" ]
	run --separate-stderr sp-plot cost <"$ADVICE"
	[ "$stderr" = "sp-plot: no column 'resource' (pipe through sp-size --cost first)" ]
	run --separate-stderr sp-plot idle <"$ROLLUP"
	[ "$stderr" = "sp-plot: no column 'section' (pipe through sp-hang --summary first)" ]
	run --separate-stderr sp-plot verdicts <"$ROLLUP"
	[ "$stderr" = "sp-plot: no column 'flag' (pipe through sp-size first)" ]
	run --separate-stderr sp-plot memory-walk --workload x <"$JOBS"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: no column 'workload_key' (pipe through sp-group first)" ]
	run --separate-stderr sp-plot runtime <"$ROLLUP"
	[ "$stderr" = "sp-plot: no column 'elapsed_s' (pipe through sp-fetch first)" ]
	# A number column that holds words: file and line.
	printf 'node\ttrials\tbad\trate\tci_low\tci_high\tcomparison\tverdict\n' >"$BATS_TEST_TMPDIR/n.tsv"
	printf 'g1\t10\t1\tlots\t0\t1\t0.1\tworse\n' >>"$BATS_TEST_TMPDIR/n.tsv"
	run --separate-stderr sp-plot nodes "$BATS_TEST_TMPDIR/n.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: $BATS_TEST_TMPDIR/n.tsv:2: field 'rate' is not a number: \"lots\"" ]
}

@test "usage errors are one line and exit 2" {
	for args in "" "bogus" "share --job 1" "runtime --probes 1" \
	    "share --workload x" "page" "page --text" "page --figure x" \
	    "page --figure share" "page --job 1 --text x" \
	    "memory-walk --workload a --findings b" "share --title x"; do
		# shellcheck disable=SC2086
		run --separate-stderr sp-plot $args
		[ "$status" -eq 2 ] || { echo "$args: $status"; return 1; }
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$args: $stderr"; return 1; }
		[[ "$stderr" == "sp-plot: "* ]]
	done
}

@test "nothing to draw: one line, exit 1, nothing on standard output" {
	printf 'user\tworkload\tworkload_key\tlabel\truns\tfailed\tshare\tcum_share\n' >"$BATS_TEST_TMPDIR/r.tsv"
	printf 'a\tw\ta/c/cpu/w\tw\t3\t0\t1\t1\n' >>"$BATS_TEST_TMPDIR/r.tsv"
	run --separate-stderr sp-plot failures "$BATS_TEST_TMPDIR/r.tsv"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-plot: nothing to draw: no workload with a failed run in the rollup" ]
	head -1 "$NODES" >"$BATS_TEST_TMPDIR/none.tsv"
	run --separate-stderr sp-plot nodes "$BATS_TEST_TMPDIR/none.tsv"
	[ "$status" -eq 1 ]
	[ "$stderr" = "sp-plot: nothing to draw: no node record to draw" ]
	grep -v array-probes "$FINDINGS" >"$BATS_TEST_TMPDIR/f.tsv"
	run --separate-stderr sp-plot array --findings "$BATS_TEST_TMPDIR/f.tsv" "$GROUPED"
	[ "$status" -eq 1 ]
	[ "$stderr" = "sp-plot: nothing to draw: no array-probes finding among sp-size's findings" ]
}

@test "hostile names are text: markup, control characters, invalid UTF-8" {
	need_xmllint
	name=$'<s>&amp;"\'\x1b[1m\xff\xc2\x9b'
	{
		printf 'user\tworkload\tworkload_key\tlabel\truns\tfailed\tshare\tcum_share\n'
		printf 'u\tw\tu/c/cpu/w\t%s\t5\t2\t0.6\t0.6\n' "$name"
		printf 'u\tv\tu/c/cpu/v\tplain\t5\t1\t0.4\t1\n'
	} >"$BATS_TEST_TMPDIR/r.tsv"
	draw failures "$BATS_TEST_TMPDIR/r.tsv"
	draw share "$BATS_TEST_TMPDIR/r.tsv"
	for f in failures share; do
		s=$BATS_TEST_TMPDIR/$f.svg
		[ "$(xpath "$s" "count(//*[local-name()='script'])")" -eq 0 ]
		! grep -q $'\x1b' "$s"
		! grep -q '<script' "$s"
		# The name reads as it was, its controls shown, never obeyed.
		[[ "$(xpath "$s" "string(//*[local-name()='text'][contains(., '<s>')])")$(caption_of "$s")" == *'<s>&amp;"'\''\x1b[1m\xff\u009b'* ]]
	done
	# A job's name in a title, a node's name in a row; a TAB escaped in
	# the record form decodes to a character shown.
	{
		printf 'node\ttrials\tbad\trate\tci_low\tci_high\tcomparison\tverdict\tuser\tworkload\n'
		printf '<g onload="x">\\t\t20\t9\t0.45\t0.25\t0.66\t0.1\tworse\t</svg>\t<b>\n'
	} >"$BATS_TEST_TMPDIR/n.tsv"
	draw nodes "$BATS_TEST_TMPDIR/n.tsv"
	[ "$(xpath "$SVG" "string(//*[local-name()='g'][contains(@class,'worse')]/*[local-name()='text'][1])")" = '<g onload="x">\x09' ]
	[ "$(title_of "$SVG")" = 'Bad placements by machine: <b> (</svg>)' ]
	[ "$(xpath "$SVG" "count(//*[@onload])")" -eq 0 ]
}

@test "a long name in a figure is cut by its width, a wide character counting two" {
	need_xmllint
	# 40 CJK characters, 80 cells: the share figure names the top
	# workload in at most 28 cells, so 13 of them and the ellipsis.
	wide=$(printf '\xe8\xae\xad%.0s' $(seq 40))
	{
		printf 'user\tworkload\tworkload_key\tlabel\truns\tfailed\tshare\tcum_share\n'
		printf 'u\tw\tu/c/cpu/w\t%s\t5\t2\t0.6\t0.6\n' "$wide"
		printf 'u\tv\tu/c/cpu/v\tplain\t5\t1\t0.4\t1\n'
	} >"$BATS_TEST_TMPDIR/r.tsv"
	draw share "$BATS_TEST_TMPDIR/r.tsv"
	cut=$(printf '\xe8\xae\xad%.0s' $(seq 13))$'\xe2\x80\xa6'
	[[ "$(caption_of "$SVG")" == *"The most expensive, $cut, is "* ]]
}

@test "the same figure from the same records, byte for byte" {
	run sp-plot nodes "$NODES"
	first=$output
	run sp-plot nodes <"$NODES"
	[ "$output" = "$first" ]
}

@test "sp-plot: writing to /dev/full fails with exit 2" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run --separate-stderr sh -c 'sp-plot share "$1" >/dev/full' sh "$ROLLUP"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: <stdout>: No space left on device" ]
}

# ---------------------------------------------------------------- page

# page_ok FILE: well-formed, self-contained: nothing fetched from elsewhere.
page_ok() {
	xmllint --noout "$1" || { echo "not well-formed: $1"; return 1; }
	! grep -qi '<script\|<link\|<img\|<iframe\|<object\|@import\|@font-face\|url(http\|src=' "$1"
	# The only address is SVG's namespace, which nothing fetches.
	[ -z "$(grep -o 'https\?://[^"]*' "$1" | grep -vx 'http://www.w3.org/2000/svg')" ]
}

# demo_page FILE: a page of the demo's stages, by sp-plot page itself.
demo_page() {
	local d=$BATS_TEST_TMPDIR
	{
		printf '\036Workloads by compute\n'
		sp-group --rollup --plain "$GROUPED" 2>/dev/null | head -12 |
		    cut -c1-90
	} >"$d/t1"
	{
		printf '\036Machines\n'
		sp-nodes --plain "$GROUPED" 2>/dev/null
		sp-nodes --exclude "$GROUPED" 2>/dev/null
	} >"$d/t2"
	sp-plot page --title "The demo" --findings "$FINDINGS" \
		--text "$d/t1" --figure share="$ROLLUP" \
		--figure runtime="$JOBS" --figure failures="$ROLLUP" \
		--figure memory-walk="$GROUPED" --figure array="$GROUPED" \
		--text "$d/t2" --figure nodes="$NODES" --figure idle="$HANGSUM" \
		--figure verdicts="$ADVICE" --figure advice="$ADVICE" \
		--figure cost="$COST" >"$1"
}

@test "sp-plot page: one self-contained page, the figures beside the text" {
	need_xmllint
	demo_page "$BATS_TEST_TMPDIR/page.html"
	page_ok "$BATS_TEST_TMPDIR/page.html"
	p=$BATS_TEST_TMPDIR/page.html
	[ "$(grep -c '^<svg ' "$p")" -eq 10 ]
	grep -q '^<title>The demo</title>$' "$p"
	grep -q '<section class="lead">' "$p"
	grep -q '^<h2>Workloads by compute</h2>$' "$p"
	grep -q '^<h2>Machines</h2>$' "$p"
	grep -q '@media print' "$p"
	# Each figure's ids its own: the page holds no id twice.
	[ -z "$(grep -o 'id="[^"]*"' "$p" | sort | uniq -d)" ]
	# The #SBATCH line bold where it stands, and gathered at the end.
	grep -q '^<b>#SBATCH --exclude=g\[003,011,017\]</b>$' "$p"
	[ "$(sed -n '/<h2>The lines to paste<\/h2>/,/<\/pre>/p' "$p" | grep -c '^#SBATCH')" -eq 1 ]
	# The node table, as narrow as the rollup's, sits beside its figure.
	[ "$(grep -c '^<pre class="wide">$' "$p")" -eq 0 ]
}

@test "sp-plot page: a figure without data said in its place; text escaped" {
	need_xmllint
	d=$BATS_TEST_TMPDIR
	printf '\036<b>Heading & more</b>\nline <script>x</script> \x1b[2J\xff\n#SBATCH --mem=4G\n' >"$d/t"
	# a table wider than 100 characters takes the page's whole width
	printf '\036Wide\nname  %s\nx     %s\n' "$(printf '%0100d' 0)" "$(printf '%0100d' 1)" >>"$d/t"
	head -1 "$NODES" >"$d/none.tsv"
	run --separate-stderr sp-plot page --text "$d/t" --figure nodes="$d/none.tsv" --figure share="$ROLLUP"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$d/p.html"
	page_ok "$d/p.html"
	grep -q '^<h2>&lt;b&gt;Heading &amp; more&lt;/b&gt;</h2>$' "$d/p.html"
	grep -q '^line &lt;script&gt;x&lt;/script&gt; \\x1b\[2J\\xff$' "$d/p.html"
	grep -q '^<p class="nofig">No figure of bad placements by machine: no node record to draw.</p>$' "$d/p.html"
	[ "$(grep -c '^<svg ' "$d/p.html")" -eq 1 ]
	! grep -q $'\x1b' "$d/p.html"
	[ "$(grep -c '^<pre class="wide">$' "$d/p.html")" -eq 1 ]
	# A figure's bad input stops the page: no half a page.
	run --separate-stderr sp-plot page --text "$d/t" --figure nodes="$ROLLUP"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "sp-plot: $ROLLUP: no column 'node' (pipe through sp-nodes first)" ]
	run --separate-stderr sp-plot page --text "$d/nope"
	[ "$status" -eq 2 ]
	[ "$stderr" = "sp-plot: $d/nope: No such file or directory" ]
}

# shot HTML PNG WIDTH HEIGHT: the page as headless chromium draws it.
shot() {
	local profile
	profile=$(mktemp -d "$BATS_TEST_TMPDIR/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile" --hide-scrollbars \
		--screenshot="$2" --window-size="$3,$4" "file://$1" \
		>/dev/null 2>&1
	[ -s "$2" ]
}

# pixels PNG R G B: how many pixels of the screenshot have this colour.
pixels() {
	pngtopnm "$1" | ppmhist -noheader | awk -v r="$2" -v g="$3" -v b="$4" '$1 == r && $2 == g && $3 == b { n = $5 } END { print n + 0 }'
}

@test "the page in headless chromium: the figures drawn, wide and narrow" {
	command -v chromium >/dev/null || skip "chromium is not installed"
	command -v pngtopnm >/dev/null || skip "netpbm is not installed"
	demo_page "$BATS_TEST_TMPDIR/page.html"
	shot "$BATS_TEST_TMPDIR/page.html" "$BATS_TEST_TMPDIR/wide.png" 1400 3000
	[ "$(pngtopnm "$BATS_TEST_TMPDIR/wide.png" | pnmfile)" = "stdin:	PPM raw, 1400 by 3000  maxval 255" ]
	# Not blank: many colours, a fair share of the page not white, and
	# the figures' own inks (the blue of the bars and curves, the
	# vermillion of the failures) in thousands of pixels.
	colours=$(pngtopnm "$BATS_TEST_TMPDIR/wide.png" | ppmhist -noheader | wc -l)
	[ "$colours" -gt 200 ]
	white=$(pixels "$BATS_TEST_TMPDIR/wide.png" 255 255 255)
	[ "$white" -lt $((1400 * 3000 * 9 / 10)) ]
	[ "$(pixels "$BATS_TEST_TMPDIR/wide.png" 0 114 178)" -gt 10000 ]
	[ "$(pixels "$BATS_TEST_TMPDIR/wide.png" 213 94 0)" -gt 1000 ]
	# A phone's width: the figures shrink to fit and are still drawn.
	shot "$BATS_TEST_TMPDIR/page.html" "$BATS_TEST_TMPDIR/narrow.png" 400 3000
	[ "$(pixels "$BATS_TEST_TMPDIR/narrow.png" 0 114 178)" -gt 2000 ]
}

@test "slurmpast --demo --html: one self-contained page with every figure" {
	need_xmllint
	run --separate-stderr slurmpast --demo --html
	[ "$status" -eq 1 ]	# the demo holds critical findings
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/page.html"
	page_ok "$BATS_TEST_TMPDIR/page.html"
	# Every figure of the window has data in the demo.
	[ "$(grep -c '^<svg ' "$BATS_TEST_TMPDIR/page.html")" -eq 10 ]
	! grep -q 'class="nofig"' "$BATS_TEST_TMPDIR/page.html"
	# The headline, the tables, the lines to paste.
	grep -q '<section class="lead">' "$BATS_TEST_TMPDIR/page.html"
	grep -q '<h2>Workloads by compute</h2>' "$BATS_TEST_TMPDIR/page.html"
	grep -q '<h2>What the next submission should ask for</h2>' "$BATS_TEST_TMPDIR/page.html"
	grep -q '^#SBATCH --exclude=g\[003,011,017\]$' "$BATS_TEST_TMPDIR/page.html"
	grep -q '@media print' "$BATS_TEST_TMPDIR/page.html"
	# The text report's lines, each in the page as it is on screen.
	slurmpast --demo --plain >"$BATS_TEST_TMPDIR/text" 2>/dev/null || true
	headline=$(sed -n 2p "$BATS_TEST_TMPDIR/text")
	grep -qF "<h2>$headline</h2>" "$BATS_TEST_TMPDIR/page.html"
}

# rows HTML WIDTH: each table of the page that starts with a header
# (workload, node, jobid, user), as "lines/rows" once headless chromium
# has laid it out WIDTH pixels wide: a row wrapped is a row more.  The
# probe is appended to a copy: the page itself holds no script.
rows() {
	local profile
	profile=$(mktemp -d "$BATS_TEST_TMPDIR/chromium.XXXXXX")
	cat "$1" - >"$1.probe.html" <<'PROBE'
<script>
var out = [];
document.querySelectorAll('pre').forEach(function (p) {
	if (!/^(workload|node|jobid|user) /.test(p.textContent)) return;
	var s = getComputedStyle(p);
	var h = p.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
	var n = p.textContent.replace(/\n$/, '').split('\n').length;
	out.push(n + '/' + Math.round(h / parseFloat(s.lineHeight)));
});
document.body.setAttribute('data-rows', out.join(' '));
</script>
PROBE
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile" --window-size="$2,800" \
		--dump-dom "file://$1.probe.html" 2>/dev/null |
		sed -n 's/.*data-rows="\([^"]*\)".*/\1/p'
}

@test "slurmpast --demo --html FILE: the page in the file; at 1280 px a table's rows unwrapped" {
	need_xmllint
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr slurmpast --demo --html page.html
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	page_ok page.html
	slurmpast --demo --html >stdout.html 2>/dev/null || true
	cmp page.html stdout.html
	run --separate-stderr slurmpast --demo --html=report
	[ "$status" -eq 1 ]
	cmp report page.html
	# a job id after --html is still a job id
	run --separate-stderr slurmpast --demo --html 51031108
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --html is one page of every section: leave out job ids and section options" ]
	run --separate-stderr slurmpast --demo --html "$BATS_TEST_TMPDIR/no/such.html"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[-1]}" = "slurmpast: cannot create $BATS_TEST_TMPDIR/no/such.html: No such file or directory" ]
	# the overview's table no narrower than its rows, the figures below
	grep -q '^<pre style="min-width:min(100%,calc(87ch + 1.6rem))">$' page.html
	command -v chromium >/dev/null || skip "chromium is not installed"
	overview=$(rows "$BATS_TEST_TMPDIR/page.html" 1280 | cut -d' ' -f1)
	[ "$overview" = 12/12 ]
}

@test "slurmpast --html: the view chooses the workloads, as on screen" {
	need_xmllint
	run --separate-stderr slurmpast --demo -u bob --failed --html
	[ "$status" -le 1 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/page.html"
	page_ok "$BATS_TEST_TMPDIR/page.html"
	! grep -q 'rollout-gen' "$BATS_TEST_TMPDIR/page.html"
	grep -q 'label-arxiv' "$BATS_TEST_TMPDIR/page.html"
}

@test "the demo's page in headless chromium: its figures drawn" {
	command -v chromium >/dev/null || skip "chromium is not installed"
	command -v pngtopnm >/dev/null || skip "netpbm is not installed"
	shot "$SP_TOP/examples/demo-report.html" "$BATS_TEST_TMPDIR/demo.png" 1400 3000
	[ "$(pixels "$BATS_TEST_TMPDIR/demo.png" 0 114 178)" -gt 10000 ]
	[ "$(pngtopnm "$BATS_TEST_TMPDIR/demo.png" | ppmhist -noheader | wc -l)" -gt 200 ]
}

@test "--html refuses what it cannot draw" {
	run --separate-stderr slurmpast --demo --html --json
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --html is an output of its own: leave out --plain and --json" ]
	run --separate-stderr slurmpast --demo --html --nodes
	[ "$status" -eq 2 ]
	[ "$stderr" = "slurmpast: --html is one page of every section: leave out job ids and section options" ]
}

@test "examples/demo-report.html is the page slurmpast --demo --html makes" {
	run --separate-stderr slurmpast --demo --html
	[ "$output" = "$(cat "$SP_TOP/examples/demo-report.html")" ] ||
		{ echo "stale: make demo-page"; return 1; }
}

@test "the page from each shared fixture: figures without data said" {
	need_fixtures
	need_xmllint
	xdmod=JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,NodeList,JobName
	hpc=State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End,ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU,SystemCPU,TotalCPU,Partition
	for spec in "xdmod/pozidriv.log:$xdmod:5" \
	    "xdmod/accounting-logs.log:$xdmod:3" \
	    "xdmod/utf8-multibyte-chars.log:$xdmod:3" \
	    "hpc-cost-simulator/sacct-output-v2.txt:$hpc:3" \
	    "slurm2sql/test-data1.txt::2"; do
		file=${spec%%:*} rest=${spec#*:}
		fields=${rest%:*} figures=${rest##*:}
		set -- --input "$FIXTURES/$file"
		[ -n "$fields" ] && set -- "$@" --fields "$fields"
		run --separate-stderr slurmpast "$@" --html
		[ "$status" -le 1 ] || { echo "$file: $status $stderr"; return 1; }
		printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/page.html"
		page_ok "$BATS_TEST_TMPDIR/page.html"
		n=$(grep -c '^<svg ' "$BATS_TEST_TMPDIR/page.html" || true)
		said=$(grep -c 'class="nofig"' "$BATS_TEST_TMPDIR/page.html" || true)
		[ "$n" -eq "$figures" ] || { echo "$file: $n figures"; return 1; }
		# Every figure is drawn or said: ten in the window's page.
		[ $((n + said)) -eq 10 ] || { echo "$file: $n + $said"; return 1; }
		case $file in
		*utf8*) grep -q 'aàb' "$BATS_TEST_TMPDIR/page.html" ||
			{ echo "$file: the UTF-8 name lost"; return 1; } ;;
		esac
	done
	# a dump in which no job ended is an empty window: no page
	run --separate-stderr slurmpast --input "$FIXTURES/slurm2sql/test-data3.txt" --html
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "slurmpast: no job in $FIXTURES/slurm2sql/test-data3.txt ended" ]
}

@test "examples/fig-nodes.svg (the README's figure) is current: make demo-page" {
	run --separate-stderr sh -c 'sp-nodes "$1" | sp-plot nodes' sh "$GROUPED"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$SP_TOP/examples/fig-nodes.svg")" ] ||
		{ echo "stale: make demo-page"; return 1; }
}

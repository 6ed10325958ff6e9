#!/usr/bin/env bats
# The house (issue 34): lib/ in layers whose arrows only run down, no
# circle among a program's files or the library's, and no file too long
# to read.  The arrows are the code's own: #include lines, and the
# symbols each built object uses (t/house/imports, over nm).

load lib/common

setup() {
	command -v nm >/dev/null || skip "nm (binutils) is not installed"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# The layers bottom up, as the Makefile builds them.
layers() {
	sed -n 's/^LIB_LAYERS := //p' "$SP_TOP/Makefile"
}

# "module layer-rank" for every file of lib/, by its folder.
ranks() {
	local rank=0 l f
	for l in $(layers); do
		rank=$((rank + 1))
		for f in "$SP_TOP/lib/$l"/*.[ch]; do
			f=${f##*/}
			echo "${f%.[ch]} $rank $l"
		done
	done | sort -u
}

@test "every file of lib/ is in a layer, and the layers are the Makefile's" {
	[ -n "$(layers)" ]
	local stray
	stray=$(cd "$SP_TOP/lib" && ls | grep -v -x -e sp.h -e README $(layers | sed 's/[^ ]*/-e &/g') || :)
	[ -z "$stray" ] || { echo "not in a layer: $stray"; return 1; }
	for l in $(layers); do
		grep -q "^$l/" "$SP_TOP/lib/README" || { echo "lib/README says nothing of $l/"; return 1; }
	done
}

@test "lib/: an #include names its own layer or one below, never sp.h" {
	ranks >ranks
	( cd "$SP_TOP/lib" && grep -H '^#include "' */*.[ch] ) |
		awk 'NR == FNR { rank[$1] = $2; layer[$1] = $3; next }
		     { from = $0; sub(/:.*/, "", from); sub(/.*\//, "", from)
		       sub(/\.[ch]$/, "", from)
		       to = $0; sub(/.*#include "/, "", to); sub(/\.h".*/, "", to)
		       if (!(to in rank))
			       print from " includes " to ", no file of lib/"
		       else if (rank[to] > rank[from])
			       print from " (" layer[from] ") includes " to " (" layer[to] ")" }' \
		ranks - >up
	[ ! -s up ] || { cat up; return 1; }
}

@test "lib/: every symbol an object uses is defined in its layer or one below" {
	ranks >ranks
	"$SP_TOP/t/house/imports" "$SP_BUILD"/lib/*/*.o >arrows
	[ -s arrows ]
	awk 'NR == FNR { rank[$1] = $2; next }
	     { a = $1; b = $2; sub(/.*\//, "", a); sub(/.*\//, "", b)
	       if (rank[b] > rank[a]) print $1 " uses " $2 }' ranks arrows >up
	[ ! -s up ] || { cat up; return 1; }
	awk -f "$SP_TOP/t/house/circles.awk" arrows
}

@test "no circle among a program's own files" {
	local p name objs
	for p in "$SP_TOP"/src/sp-*.c "$SP_TOP/src/slurmpast.c"; do
		name=${p##*/}
		name=${name%.c}
		objs=$(ls "$SP_BUILD/src/$name.o" "$SP_BUILD/src/$name"/*.o 2>/dev/null || :)
		"$SP_TOP/t/house/imports" $objs | grep -v ' lib/' >arrows || :
		awk -f "$SP_TOP/t/house/circles.awk" arrows ||
			{ echo "in $name"; return 1; }
	done
}

@test "the checker finds a circle when there is one, and only then" {
	printf 'a b\nb c\nc a\nc d\n' >arrows
	run awk -f "$SP_TOP/t/house/circles.awk" arrows
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | tr ' ' '\n' | sort | tr '\n' ' ')" = "a b c circle: " ]
	printf 'a b\nb c\n' >arrows
	run awk -f "$SP_TOP/t/house/circles.awk" arrows
	[ "$status" -eq 0 ] && [ -z "$output" ]
}

@test "no source, script or page is over 1,500 lines" {
	local long
	long=$(cd "$SP_TOP" && git ls-files 2>/dev/null | grep -E '\.(c|h|sh|bats|awk|1|7|md)$|^bin/' |
		while read -r f; do
			if [ -f "$f" ] && [ "$(wc -l <"$f")" -gt 1500 ]; then echo "$f"; fi
		done)
	[ -z "$long" ] || { echo "over 1,500 lines: $long"; return 1; }
}

@test "the front door composes only: no rule, threshold or state of its own" {
	local objs
	objs=$(ls "$SP_BUILD/src/slurmpast.o" "$SP_BUILD"/src/slurmpast/*.o)
	# The rules and what is drawn from them are the stages' to use.
	"$SP_TOP/t/house/imports" $objs "$SP_BUILD"/lib/*/*.o |
		grep -E '^src/slurmpast[/ ]' | grep -E ' lib/(rules|draw)/' >up || :
	[ ! -s up ] || { cat up; return 1; }
	# Nor does it name a threshold or a state: each is a stage's word.
	! grep -nE '#include "sp_const\.h"|"(COMPLETED|FAILED|TIMEOUT|OUT_OF_MEMORY|CANCELLED|NODE_FAIL|PREEMPTED)' \
		"$SP_TOP/src/slurmpast.c" "$SP_TOP"/src/slurmpast/*.[ch]
}

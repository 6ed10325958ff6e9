# setup.bash - what every bats file of t/cluster does first and last:
# take the cluster's lock (one run at a time on a machine), bring the
# cluster up, run the job mix once, and fetch every job of it; then take
# the cluster down again if this file started it (SP_CLUSTER_KEEP=1
# leaves it up).  Loaded by the files, after ../lib/common.
#
# setup_file sets MANIFEST, RECORDS (sp-fetch of the whole mix), and
# writes the fetch's status and stderr to $BATS_FILE_TMPDIR/fetch.rc and
# fetch.err, for the first test to judge.

CLUSTER=${CLUSTER:-$BATS_TEST_DIRNAME}

# The manifest's job ids, array tasks asked for by their array job.
mix_ids() {
	awk -F'\t' 'NR > 1 { sub(/_.*/, "", $2); print $2 }' "$MANIFEST" |
		sort -un | paste -sd, -
}

# expect KEY COLUMN: the manifest's COLUMN for the job KEY.
expect() {
	awk -F'\t' -v key="$1" -v col="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["key"] == key { print $h[col]; found = 1 }
		END { if (!found) { print "no job " key " in the manifest" > "/dev/stderr"; exit 1 } }' "$MANIFEST"
}

cluster_setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	. "$CLUSTER/lib.sh"
	export SLURM_CONF SPC
	spc_tests_begin "$CLUSTER" || return 1
	"$CLUSTER/mix.sh" || {
		echo "# mix.sh failed: the job mix did not reach accounting" >&3
		return 1
	}
	MANIFEST=$SPC/manifest.tsv
	export MANIFEST
	RECORDS=$BATS_FILE_TMPDIR/records.tsv
	export RECORDS
	# One fetch of every job of the mix; each test reads its part.
	# A failure here is the first test's to report, not setup's.
	local rc=0
	sp-fetch --all-users -j "$(mix_ids)" >"$RECORDS" 2>"$BATS_FILE_TMPDIR/fetch.err" || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/fetch.rc"
}

cluster_teardown_file() {
	[ "$(id -u)" = 0 ] || return 0
	spc_tests_end "$CLUSTER"
}

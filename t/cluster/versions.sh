#!/bin/bash
# versions.sh - the real-Slurm tests (t/cluster) against the Slurm of
# other Debian releases, each in a chroot made with debootstrap: trixie
# (Debian 13, Slurm 24.11) and sid (unstable, Slurm 26.05) by default.
#
#   t/cluster/versions.sh [suite ...]      (make check-slurm-versions)
#
# For each suite: the chroot $SP_CHROOT_DIR/SUITE is made once and kept
# (about a minute, and the packages up.sh installs); this tree is copied
# into it and built there; its cluster comes up on ports of its own
# (SP_CLUSTER_PORT, a hundred apart from the distribution's 16800) and
# `make check-slurm` runs in it; then record.sh writes what that Slurm
# answers (helpformat, version, the job mix's dumps, the manifest) into
# t/fixtures/slurm-VERSION/, which `make check` reads (t/versions.bats).
# One line per suite says how it went; the status is 1 when one failed.
#
# The cluster daemons of a chroot share this machine's kernel, cgroups
# and network with the distribution's own test cluster: the cluster lock
# of lib.sh is held for the whole run, so the two never run at once.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

ROOT=${SP_CHROOT_DIR:-/var/tmp/slurmpast-chroot}
MIRROR=${SP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What the build and the tests need inside (up.sh installs Slurm itself).
CHROOT_PKGS=make,gcc,libc6-dev,libcsv-dev,libncurses-dev,bats,perl,procps,ca-certificates,git,util-linux,passwd,mandoc,jq,tmux,less,python3

[ "$(id -u)" = 0 ] || spc_die "versions.sh needs root (debootstrap, chroot, the daemons)"
command -v debootstrap >/dev/null ||
	spc_die "no debootstrap: apt-get install debootstrap (./bootstrap test)"

port_of() {
	case $1 in
	trixie) echo 16900 ;;
	sid) echo 17000 ;;
	*) echo 17100 ;;
	esac
}

mounted=
unmount_all() {
	local m
	for m in $mounted; do
		umount -l "$m" 2>/dev/null || :
	done
	mounted=
}
trap unmount_all EXIT

# /sys with what is mounted under it (cgroup v1's controllers: without
# them up.sh falls back to OverMemoryKill), its unmounts kept in here.
mount_in() {
	local dir=$1 what
	for what in proc sys dev dev/pts; do
		mkdir -p "$dir/$what"
		mountpoint -q "$dir/$what" && continue
		if [ "$what" = sys ]; then
			mount --rbind /sys "$dir/sys" &&
				mount --make-rslave "$dir/sys" || return 1
		else
			mount --bind "/$what" "$dir/$what" || return 1
		fi
		mounted="$dir/$what $mounted"
	done
}

# Runs "$@" as root inside the chroot $1, in the tree's copy.
in_chroot() {
	local dir=$1
	shift
	chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 TERM=dumb \
		SP_CLUSTER_PORT="$port" SP_CLUSTER_KEEP=1 \
		/bin/bash -c 'cd /root/slurmpast && "$@"' sh "$@"
}

make_chroot() {
	local suite=$1 dir=$2
	[ -f "$dir/.slurmpast-ready" ] && return 0
	spc_log "$suite: debootstrap into $dir"
	mkdir -p "$ROOT"
	debootstrap --variant=minbase --include="$CHROOT_PKGS" "$suite" \
		"$dir" "$MIRROR" >"$ROOT/$suite.debootstrap.log" 2>&1 ||
		{ spc_log "$suite: debootstrap failed; see $ROOT/$suite.debootstrap.log"; return 1; }
	# The tests look up this machine's name as a node's host.
	cp /etc/hosts "$dir/etc/hosts"
	# A mirror serving a frozen snapshot: its sid Release file has
	# expired, and up.sh's apt-get would refuse it (SP_DEBIAN_SNAPSHOT=1).
	[ "${SP_DEBIAN_SNAPSHOT:-0}" = 1 ] &&
		echo 'Acquire::Check-Valid-Until "false";' \
			>"$dir/etc/apt/apt.conf.d/99slurmpast-snapshot"
	touch "$dir/.slurmpast-ready"
}

# This tree as it is (tracked files and new ones, not the ignored),
# copied in afresh.
copy_tree() {
	local dir=$1
	rm -rf "$dir/root/slurmpast"
	mkdir -p "$dir/root/slurmpast"
	(cd "$top" && git ls-files -co --exclude-standard -z |
		tar --null -T - -cf -) | tar -xf - -C "$dir/root/slurmpast"
}

# This machine's own Slurm: its tests take the lock file by file.
here_suite() {
	local log=$ROOT/here.log version status=ok
	mkdir -p "$ROOT"
	spc_log "here: make check-slurm (log: $log)"
	(cd "$top" && make -s -j2 all && SP_BIN=$PWD/bin SP_BUILD=$PWD/build \
		SP_TOP=$PWD SP_CLUSTER_KEEP=1 prove -v --timer -e t/run t/cluster/*.bats) \
		>"$log" 2>&1 || status="check-slurm failed"
	version=$(dpkg-query -W -f '${Version}' slurm-client 2>/dev/null || echo unknown)
	echo "here: Slurm $version: $status ($(summary "$log"))"
	[ "$status" = ok ]
}

# What the log's test files came to: passed, skipped, failed.
summary() {
	awk '/^ok [0-9]+ / { ok++; if (/# skip/) sk++ } /^not ok [0-9]+ / { bad++ }
		END { printf "%d ok, %d of them skipped, %d failed", ok, sk, bad }' "$1"
}

failed=0
for suite in ${*:-trixie sid here}; do
	if [ "$suite" = here ]; then
		here_suite || failed=1
		continue
	fi
	# Held for one suite at a time, so the distribution's own cluster
	# tests (which wait 20 minutes for it) are never kept out longer.
	exec 8>>"$SPC.lock"
	flock -w 1200 8 || spc_die "another run of the cluster tests held $SPC.lock for 20 minutes"
	dir=$ROOT/$suite
	port=$(port_of "$suite")
	log=$ROOT/$suite.log
	if ! make_chroot "$suite" "$dir" || ! mount_in "$dir"; then
		echo "$suite: no chroot"
		failed=1
		unmount_all
		exec 8>&-
		continue
	fi
	copy_tree "$dir"
	spc_log "$suite: building, then make check-slurm (log: $log)"
	status=ok
	in_chroot "$dir" make -s -j2 all >"$log" 2>&1 || status="build failed"
	if [ "$status" = ok ]; then
		# make check-slurm's files, each test's line in the log.
		in_chroot "$dir" sh -c 'SP_BIN=$PWD/bin SP_BUILD=$PWD/build SP_TOP=$PWD \
			prove -v --timer -e t/run t/cluster/*.bats' >>"$log" 2>&1 ||
			status="check-slurm failed"
	fi
	version=$(in_chroot "$dir" sh -c 'dpkg-query -W -f "\${Version}" slurm-client 2>/dev/null' ||
		echo unknown)
	# Recorded whether or not every test passed: the mix is there.
	out=$dir/root/record
	rm -rf "$out"
	if in_chroot "$dir" t/cluster/record.sh /root/record >>"$log" 2>&1; then
		v=$(cat "$out/slurm-version" 2>/dev/null)
		rm -f "$out/slurm-version"
		if [ -n "$v" ]; then
			# Its README (written by hand) stays.
			mkdir -p "$top/t/fixtures/slurm-$v"
			find "$top/t/fixtures/slurm-$v" -type f ! -name README -delete
			cp -r "$out"/. "$top/t/fixtures/slurm-$v"
			spc_log "$suite: recorded t/fixtures/slurm-$v"
		fi
	else
		status="$status; record failed"
	fi
	in_chroot "$dir" t/cluster/down.sh >>"$log" 2>&1 || :
	unmount_all
	exec 8>&-
	echo "$suite: Slurm $version: $status ($(summary "$log"))"
	[ "$status" = ok ] || failed=1
done
exit "$failed"

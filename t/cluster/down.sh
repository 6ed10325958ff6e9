#!/bin/bash
# down.sh - stop the private cluster that up.sh started, by the pids in its
# own pid files (never by process name: a site's Slurm may run beside it).
# Jobs still running are cancelled first, so no slurmstepd outlives it.
# Keeps $SP_CLUSTER_DIR (the database and the job mix's manifest live
# there); `down.sh --purge` removes it too.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

[ "$(id -u)" = 0 ] || spc_die "down.sh needs root"

if [ -f "$SLURM_CONF" ] && spc_daemon_pid slurmctld >/dev/null; then
	jobs=$(timeout 10 squeue -h -o %i 2>/dev/null | tr '\n' ' ')
	if [ -n "${jobs// }" ]; then
		timeout 10 scancel $jobs 2>/dev/null || :
		for i in $(seq 1 30); do
			[ -z "$(timeout 10 squeue -h -o %i 2>/dev/null)" ] && break
			sleep 0.5
		done
	fi
	# A controller restarted while it still remembers ended jobs ends them
	# again and rewrites their accounting (exit codes, who cancelled):
	# wait until it has forgotten them (MinJobAge=2, purged once a minute).
	for i in $(seq 1 90); do
		[ "${1:-}" = --purge ] && break
		[ -z "$(timeout 10 squeue -h -t all -o %i 2>/dev/null)" ] && break
		sleep 1
	done
fi

for n in $SPC_NODES; do
	spc_stop_daemon "slurmd-$n" 15
done
spc_stop_daemon slurmctld 15
spc_stop_daemon slurmdbd 15
spc_stop_daemon mysqld 60
spc_stop_daemon munged 10

if [ "${1:-}" = --purge ]; then
	case $SPC in
	/|'') spc_die "refusing to remove '$SPC'" ;;
	esac
	rm -rf "$SPC"
fi
exit 0

# Shared by up.sh, down.sh, mix.sh and fetch.bats: where the private
# cluster lives and how to tell whether one of its daemons is alive.
# Sourced, never run.  Everything the cluster writes sits under $SPC, in
# one directory per daemon owner (munge, mysql and slurm each write only
# their own).

SPC=${SP_CLUSTER_DIR:-/var/tmp/slurmpast-cluster}
# Ports away from Slurm's defaults, so a site install on a contributor's
# machine never answers in our place.
SPC_PORT=${SP_CLUSTER_PORT:-16800}
SPC_CLUSTER=spcluster
SPC_NODES="n1 n2 n3 n4"
SPC_USERS="spalice spbob"
SPC_ACCOUNTS="physics chemistry"
# slurmdbd's MySQL client finds the server through the default socket when
# StorageHost=localhost; slurmdbd.conf has no option for another path.
SPC_MYSQL_SOCK=/run/mysqld/mysqld.sock
SPC_MUNGE_SOCK=$SPC/munge/munge.socket

SLURM_CONF=$SPC/etc/slurm.conf
export SLURM_CONF SPC

spc_log() { printf '%s\n' "cluster: $*" >&2; }
spc_die() { printf '%s\n' "cluster: $*" >&2; exit 1; }

# The machine's init reaps orphans slowly, so a dead daemon lingers as a
# zombie that `kill -0` still finds: read its state instead.
spc_pid_alive() {
	local pid=$1 stat
	case $pid in ''|*[!0-9]*) return 1 ;; esac
	stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	case ${stat%% *} in Z|X|x) return 1 ;; esac
	return 0
}

# Prints the pid of daemon $1 (a name from spc_daemons) and succeeds when
# its pid file names a live process running that program: a pid file left
# from an earlier boot or session may name some unrelated process now.
spc_daemon_pid() {
	local file pid comm
	file=$(spc_pidfile "$1")
	[ -s "$file" ] || return 1
	pid=$(head -n 1 "$file" 2>/dev/null | tr -dc 0-9)
	spc_pid_alive "$pid" || return 1
	comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
	[ "$comm" = "$(spc_program "$1")" ] || return 1
	printf '%s\n' "$pid"
}

spc_program() {
	case $1 in
	mysqld) echo mariadbd ;;
	slurmd-*) echo slurmd ;;
	*) echo "$1" ;;
	esac
}

spc_pidfile() {
	case $1 in
	munged) echo "$SPC/munge/munged.pid" ;;
	mysqld) echo "$SPC/mysql/mysqld.pid" ;;
	slurmdbd|slurmctld) echo "$SPC/slurm/$1.pid" ;;
	slurmd-*) echo "$SPC/slurmd/${1#slurmd-}.pid" ;;
	esac
}

# Every daemon of ours, in start order.
spc_daemons() {
	local n
	echo munged mysqld slurmdbd slurmctld
	for n in $SPC_NODES; do
		echo "slurmd-$n"
	done
}

# Polls "$@" every 0.2 s for up to $1 seconds; false on time-out.
spc_wait_for() {
	local limit=$(($1 * 5)) i=0
	shift
	while ! "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -lt "$limit" ] || return 1
		sleep 0.2
	done
}

# Sends TERM, waits up to $2 seconds, then KILL.
spc_stop_pid() {
	local pid=$1 wait=$2 i
	spc_pid_alive "$pid" || return 0
	kill -TERM "$pid" 2>/dev/null || :
	for i in $(seq 1 $((wait * 5))); do
		spc_pid_alive "$pid" || return 0
		sleep 0.2
	done
	spc_log "pid $pid ignored TERM for ${wait} s; killing it"
	kill -KILL "$pid" 2>/dev/null || :
}

# Stops daemon $1 (a name from spc_daemons) by its pid file.
spc_stop_daemon() {
	local pid
	pid=$(spc_daemon_pid "$1") || return 0
	spc_stop_pid "$pid" "$2"
	rm -f "$(spc_pidfile "$1")"
}

# A bats file of tests against the cluster calls this first in its
# setup_file, with the directory of up.sh: one run at a time (a second
# `make check` would stop daemons under this one; bats keeps fd 9 open
# until the file is done, and up.sh's daemons never inherit it), whether
# the cluster was already up noted in SPC_WAS_UP, then the cluster up.
# One that cannot come up is a failure, never a skip: in CI a silent
# skip would hide that nothing was tested.
spc_tests_begin() {
	local d was_up=1
	exec 9>>"$SPC.lock"
	flock -w 1200 9 || {
		echo "# another run of the cluster tests held $SPC.lock for 20 minutes" >&3
		return 1
	}
	for d in $(spc_daemons); do
		spc_daemon_pid "$d" >/dev/null || was_up=0
	done
	export SPC_WAS_UP=$was_up
	"$1/up.sh" || {
		echo "# up.sh failed: the real-Slurm tests cannot run" >&3
		return 1
	}
}

# ... and this in its teardown_file: the cluster down again if it was not
# up before (SP_CLUSTER_KEEP=1 leaves it up).
spc_tests_end() {
	if [ "${SPC_WAS_UP:-1}" = 0 ] && [ -z "${SP_CLUSTER_KEEP:-}" ]; then
		"$1/down.sh"
	fi
}

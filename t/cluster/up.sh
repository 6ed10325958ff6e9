#!/bin/bash
# up.sh - bring up a private Slurm cluster on this one machine: munged,
# MariaDB, slurmdbd, slurmctld and four slurmd "nodes", all under
# $SP_CLUSTER_DIR (default /var/tmp/slurmpast-cluster).  Installs Debian's
# packages when they are missing.  A healthy cluster with the same
# configuration is left alone, so running it twice costs nothing.
#
# Needs root.  Exit 0 when every node is idle; 1 with one line saying what
# did not come up (and where its log is) otherwise.
set -eu -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

[ "$(id -u)" = 0 ] || spc_die "up.sh needs root (it starts daemons and adds users)"

host=$(hostname -s)
PACKAGES="slurm-wlm slurmdbd slurm-client munge mariadb-server"
NEEDED_BINARIES="munged mungekey mariadbd mariadb-install-db mariadb-admin mariadb
	slurmdbd slurmctld slurmd sacct sacctmgr sbatch scontrol sinfo"

missing_binaries() {
	local b
	for b in $NEEDED_BINARIES; do
		PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$b" >/dev/null || echo "$b"
	done
}

# Package postinst scripts would start the system's own daemons (and bind
# the default ports and sockets): a policy-rc.d that exits 101 forbids it.
# A policy file already in place is kept and put back afterwards.
install_packages() {
	local policy=/usr/sbin/policy-rc.d saved=
	spc_log "installing $PACKAGES"
	if [ -e "$policy" ]; then
		saved=$(mktemp)
		cp -p "$policy" "$saved"
	fi
	printf '#!/bin/sh\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	local rc=0
	{ apt-get update -qq &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $PACKAGES; } >"${TMPDIR:-/tmp}/sp-cluster-apt.log" 2>&1 || rc=$?
	if [ -n "$saved" ]; then
		cp -p "$saved" "$policy"
		rm -f "$saved"
	else
		rm -f "$policy"
	fi
	[ "$rc" = 0 ] || spc_die "apt-get failed (exit $rc); see ${TMPDIR:-/tmp}/sp-cluster-apt.log"
}

# cgroup v1's memory controller gives the real OUT_OF_MEMORY; without it the
# linux gatherer's OverMemoryKill is the only memory enforcement there is.
memory_mode() {
	case ${SP_CLUSTER_MEMORY:-} in
	cgroup|overmemorykill) echo "$SP_CLUSTER_MEMORY"; return ;;
	'') ;;
	*) spc_die "SP_CLUSTER_MEMORY is cgroup or overmemorykill, not '$SP_CLUSTER_MEMORY'" ;;
	esac
	if grep -qs '^cgroup /sys/fs/cgroup/memory cgroup .*rw' /proc/mounts &&
	   mkdir "/sys/fs/cgroup/memory/sp-probe-$$" 2>/dev/null; then
		rmdir "/sys/fs/cgroup/memory/sp-probe-$$"
		echo cgroup
	else
		echo overmemorykill
	fi
}

write_configs() {
	local dir=$1 mode=$2 n port i
	mkdir -p "$dir"
	{
	cat <<EOF
# Written by t/cluster/up.sh; rewritten on every start.
ClusterName=$SPC_CLUSTER
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$((SPC_PORT + 17))
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued job may start again only once its credential expired (120 s
# by default): 30 s keeps the requeue in the mix short.
AuthInfo=cred_expire=30,socket=$SPC_MUNGE_SOCK
StateSaveLocation=$SPC/slurm/state
SlurmctldPidFile=$SPC/slurm/slurmctld.pid
SlurmctldLogFile=$SPC/slurm/slurmctld.log
SlurmdSpoolDir=$SPC/slurmd/%n
SlurmdPidFile=$SPC/slurmd/%n.pid
SlurmdLogFile=$SPC/slurmd/%n.log
SlurmctldDebug=info
SlurmdDebug=info
# Each slurmd claims what slurm.conf says, not what this machine has.
SlurmdParameters=config_overrides
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory,CR_LLN
SchedulerType=sched/backfill
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=5
# Ended jobs leave the controller's memory at once: a controller that is
# killed and restarted while it still holds them ends them again and
# rewrites their accounting (exit codes, who cancelled).
MinJobAge=2
# Without a default, a job that gives no --mem holds a whole node's memory
# and the mix would run one job per node at a time.
DefMemPerCPU=100
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$((SPC_PORT + 19))
# The slurmdbd connection authenticates through this munge socket.
AccountingStoragePass=$SPC_MUNGE_SOCK
AccountingStorageEnforce=associations
AccountingStorageTRES=gres/gpu
# Without it the Comment field stays empty in accounting.
AccountingStoreFlags=job_comment
GresTypes=gpu
EOF
	if [ "$mode" = cgroup ]; then
		cat <<EOF
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
PrologFlags=Contain
EOF
	else
		cat <<EOF
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherParams=OverMemoryKill
EOF
	fi
	i=0
	for n in $SPC_NODES; do
		i=$((i + 1))
		port=$((SPC_PORT + 20 + i))
		echo "NodeName=$n NodeHostname=$host NodeAddr=127.0.0.1 Port=$port CPUs=8 RealMemory=4000 Gres=gpu:4 State=UNKNOWN"
	done
	echo "PartitionName=main Nodes=$(echo $SPC_NODES | tr ' ' ,) Default=YES MaxTime=INFINITE State=UP"
	} >"$dir/slurm.conf"

	cat >"$dir/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
ConstrainCores=no
ConstrainRAMSpace=yes
ConstrainSwapSpace=no
EOF

	# Fake GPUs: a node whose gpu gres has no File= registers INVAL; any
	# character device will do as the file.
	: >"$dir/gres.conf"
	for n in $SPC_NODES; do
		echo "NodeName=$n Name=gpu File=$SPC/dev/gpu[0-3]" >>"$dir/gres.conf"
	done

	cat >"$dir/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$SPC_MUNGE_SOCK
DbdAddr=127.0.0.1
DbdHost=$host
DbdPort=$((SPC_PORT + 19))
SlurmUser=slurm
DebugLevel=info
PidFile=$SPC/slurm/slurmdbd.pid
LogFile=$SPC/slurm/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=slurmpast
StorageLoc=slurm_acct_db
EOF
}

# The configs differ from the ones the running cluster read.
configs_changed() {
	local f
	for f in slurm.conf cgroup.conf gres.conf slurmdbd.conf; do
		cmp -s "$1/$f" "$SPC/etc/$f" || return 0
	done
	return 1
}

nodes_idle() {
	local states
	states=$(sinfo -h -N -o '%N %T' 2>/dev/null) || return 1
	[ "$(printf '%s\n' "$states" | grep -c ' idle$')" = 4 ]
}

healthy() {
	local d
	for d in $(spc_daemons); do
		spc_daemon_pid "$d" >/dev/null || return 1
	done
	sacctmgr -n -P show cluster format=cluster 2>/dev/null | grep -qx "$SPC_CLUSTER" || return 1
	sinfo -h -N -o '%T' 2>/dev/null | grep -qvE '^(idle|mixed|allocated|completing)$' && return 1
	[ "$(sinfo -h -N -o '%N' 2>/dev/null | sort -u | wc -l)" = 4 ]
}

# Starts "$@" detached from our terminal and from every descriptor we hold
# (bats waits for its fd 3 to close, so a daemon must not keep it).
spawn() {
	setsid "$@" </dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
}

make_dirs() {
	local n i
	mkdir -p "$SPC" "$SPC/etc" "$SPC/dev" "$SPC/munge" "$SPC/mysql/data" \
		"$SPC/slurm/state" "$SPC/slurmd" "$SPC/work" /run/mysqld
	chmod 755 "$SPC"
	chown munge:munge "$SPC/munge"
	chmod 755 "$SPC/munge"
	chown mysql:mysql "$SPC/mysql" "$SPC/mysql/data" /run/mysqld
	chown -R slurm:slurm "$SPC/slurm"
	for n in $SPC_NODES; do
		mkdir -p "$SPC/slurmd/$n"
	done
	for i in 0 1 2 3; do
		ln -sfn /dev/null "$SPC/dev/gpu$i"
	done
}

start_munged() {
	local key=$SPC/munge/munge.key
	[ -s "$key" ] || runuser -u munge -- mungekey --create --keyfile="$key" ||
		spc_die "mungekey could not create $key"
	rm -f "$SPC_MUNGE_SOCK" "$SPC_MUNGE_SOCK.lock"
	spawn runuser -u munge -- munged --socket="$SPC_MUNGE_SOCK" \
		--key-file="$key" --pid-file="$SPC/munge/munged.pid" \
		--log-file="$SPC/munge/munged.log" --seed-file="$SPC/munge/munged.seed"
	spc_wait_for 20 munge_works ||
		spc_die "munged did not answer on $SPC_MUNGE_SOCK; see $SPC/munge/munged.log"
}

munge_works() {
	munge -n -S "$SPC_MUNGE_SOCK" | unmunge -S "$SPC_MUNGE_SOCK"
}

mysql_ping() {
	mariadb-admin --no-defaults -S "$SPC_MYSQL_SOCK" -u root ping
}

start_mysqld() {
	local data=$SPC/mysql/data
	if mysql_ping >/dev/null 2>&1; then
		spc_die "a MariaDB that is not ours already answers on $SPC_MYSQL_SOCK; stop it first"
	fi
	if [ ! -d "$data/mysql" ]; then
		mariadb-install-db --no-defaults --user=mysql --datadir="$data" \
			--auth-root-authentication-method=socket --skip-test-db \
			>"$SPC/mysql/install.log" 2>&1 ||
			spc_die "mariadb-install-db failed; see $SPC/mysql/install.log"
	fi
	spawn mariadbd --no-defaults --user=mysql --datadir="$data" \
		--socket="$SPC_MYSQL_SOCK" --skip-networking \
		--pid-file="$SPC/mysql/mysqld.pid" --log-error="$SPC/mysql/mysqld.log" \
		--innodb-buffer-pool-size=128M --innodb-log-file-size=64M \
		--innodb-lock-wait-timeout=900
	spc_wait_for 60 mysql_ping ||
		spc_die "MariaDB did not answer on $SPC_MYSQL_SOCK; see $SPC/mysql/mysqld.log"
	# Debian unstable's client library (Slurm 26.05's slurmdbd) looks for
	# the server at /run/mariadbd/ instead: the same socket, there too.
	if [ ! -e /run/mariadbd/mysqld.sock ] &&
	   grep -qs /run/mariadbd "$(command -v slurmdbd)" /usr/lib/*/libmariadb.so.3; then
		mkdir -p /run/mariadbd
		ln -sf "$SPC_MYSQL_SOCK" /run/mariadbd/mysqld.sock
	fi
	mariadb --no-defaults -S "$SPC_MYSQL_SOCK" -u root <<'EOF' ||
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'slurmpast';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
FLUSH PRIVILEGES;
EOF
		spc_die "could not create the slurm database user"
}

# A new MariaDB (Debian 13's, in a chroot of versions.sh) can answer its
# socket before it answers queries: slurmdbd 24.11 then dies at once
# ("_check_mysql_concat_is_sane: null result").  Once dead, it is started
# once more.
start_slurmdbd() {
	spawn slurmdbd
	spc_wait_for 60 sacctmgr -n show cluster && return 0
	if ! spc_daemon_pid slurmdbd >/dev/null; then
		spc_log "slurmdbd died starting; starting it once more"
		sleep 2
		spawn slurmdbd
		spc_wait_for 60 sacctmgr -n show cluster && return 0
	fi
	spc_die "slurmdbd did not answer; see $SPC/slurm/slurmdbd.log"
}

register_accounting() {
	local assoc
	sacctmgr -n -P show cluster format=cluster | grep -qx "$SPC_CLUSTER" ||
		sacctmgr -i add cluster "$SPC_CLUSTER" >/dev/null ||
		spc_die "sacctmgr could not add cluster $SPC_CLUSTER"
	local a
	for a in $SPC_ACCOUNTS; do
		sacctmgr -n -P show account "$a" format=account | grep -qx "$a" ||
			sacctmgr -i add account "$a" cluster="$SPC_CLUSTER" \
				description="slurmpast test $a" organization=slurmpast >/dev/null ||
			spc_die "sacctmgr could not add account $a"
	done
	# spalice works in physics, spbob in chemistry; root submits to both.
	assoc=$(sacctmgr -n -P show assoc cluster="$SPC_CLUSTER" format=user,account)
	add_user spalice physics "$assoc"
	add_user spbob chemistry "$assoc"
	add_user root physics "$assoc"
	add_user root chemistry "$assoc"
}

add_user() {
	printf '%s\n' "$3" | grep -qx "$1|$2" && return 0
	sacctmgr -i add user "$1" account="$2" cluster="$SPC_CLUSTER" >/dev/null ||
		spc_die "sacctmgr could not add user $1 to account $2"
}

unix_users() {
	local u
	for u in $SPC_USERS; do
		id -u "$u" >/dev/null 2>&1 ||
			useradd -m -s /bin/bash "$u" || spc_die "useradd $u failed"
		mkdir -p "$SPC/work/$u"
		chown "$u:" "$SPC/work/$u"
	done
	mkdir -p "$SPC/work/root"
}

start_slurmctld() {
	spawn slurmctld
	spc_wait_for 60 scontrol ping ||
		spc_die "slurmctld did not answer; see $SPC/slurm/slurmctld.log"
}

# slurmd writes its pid file only once it has forked: wait for that, not
# for the parent.
start_slurmd() {
	local n
	for n in "$@"; do
		spawn slurmd -N "$n"
	done
	for n in "$@"; do
		spc_wait_for 30 spc_daemon_pid "slurmd-$n" ||
			spc_die "slurmd $n did not start; see $SPC/slurmd/$n.log"
	done
}

# DRAIN, DOWN and INVAL survive a restart of the controller: resume every
# node until all four are idle.
wait_nodes_idle() {
	local i node state
	for i in $(seq 1 60); do
		nodes_idle && return 0
		sinfo -h -N -o '%N %T' 2>/dev/null | while read -r node state; do
			case $state in
			*drain*|*down*|*inval*|*fail*)
				scontrol update nodename="$node" state=resume 2>/dev/null ||
					scontrol update nodename="$node" state=idle 2>/dev/null || :
				;;
			esac
		done
		sleep 1
	done
	spc_die "nodes not idle after 60 s: $(sinfo -h -N -o '%N=%T' | tr '\n' ' '); see $SPC/slurmd/*.log"
}

alive() {
	spc_daemon_pid "$1" >/dev/null
}

restart_missing() {
	local n
	make_dirs
	alive munged || start_munged
	alive mysqld || start_mysqld
	alive slurmdbd || start_slurmdbd
	alive slurmctld || start_slurmctld
	for n in $SPC_NODES; do
		alive "slurmd-$n" || start_slurmd "$n"
	done
}

main() {
	local new mode
	if [ -n "$(missing_binaries)" ]; then
		command -v apt-get >/dev/null ||
			spc_die "missing $(missing_binaries | tr '\n' ' ')and no apt-get to install them"
		install_packages
		[ -z "$(missing_binaries)" ] ||
			spc_die "still missing after install: $(missing_binaries | tr '\n' ' ')"
	fi
	PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

	mkdir -p "$SPC"
	mode=$(memory_mode)
	new=$(mktemp -d "$SPC/etc.new.XXXXXX")
	write_configs "$new" "$mode"
	if ! configs_changed "$new" && [ -d "$SPC/mysql/data/mysql" ]; then
		rm -rf "$new"
		if healthy; then
			# A first start that died half way left them out.
			register_accounting
			spc_log "already up in $SPC"
			return 0
		fi
		# Same configs: start only the daemons that are not running (a
		# test stops one to see how sacct fails, then calls us again).
		restart_missing
		# A first start that died half way left them unregistered;
		# registering is a few look-ups when nothing is missing.
		register_accounting
		wait_nodes_idle
		spc_log "up again in $SPC"
		return 0
	fi

	"$here/down.sh" >/dev/null 2>&1 || :
	make_dirs
	cp "$new"/* "$SPC/etc/"
	rm -rf "$new"
	echo "$mode" >"$SPC/etc/memory-mode"
	chown slurm:slurm "$SPC/etc/slurmdbd.conf"
	chmod 600 "$SPC/etc/slurmdbd.conf"
	unix_users

	start_munged
	start_mysqld
	start_slurmdbd
	register_accounting
	start_slurmctld
	start_slurmd $SPC_NODES
	wait_nodes_idle
	spc_log "up in $SPC (memory: $mode); export SLURM_CONF=$SLURM_CONF"
}

main "$@"

# A one-node Slurm cluster for the tests, in a directory of its own: its own
# slurm.conf, munged with its own key and socket, state and spool under DIR,
# localhost only, ports found free. Sourced by test-slurm.sh.
#   cluster_start DIR   starts munged, slurmctld and slurmd; exports SLURM_CONF
#                       and MUNGE socket settings; returns 77 where slurmd cannot run
#   cluster_stop        ends what cluster_start started (by pid)

# free_port: a TCP port nothing listens on
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cluster_start() {
	cl=$1
	mkdir -p "$cl/munge" "$cl/state" "$cl/spool" "$cl/log" "$cl/run" || return 2
	chmod 700 "$cl/munge"
	for b in munged slurmctld slurmd sbatch squeue scontrol; do
		command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] ||
			{ echo "skip: $b not installed (tools/bootstrap installs slurmctld slurmd slurm-client munge)"; return 77; }
	done
	PATH=$PATH:/usr/sbin
	export PATH
	user=$(id -un)
	host=$(hostname -s)
	dd if=/dev/urandom of="$cl/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$cl/munge/munge.key" || return 2
	munged --key-file="$cl/munge/munge.key" --socket="$cl/munge/socket" --pid-file="$cl/munge/munged.pid" \
		--log-file="$cl/log/munged.log" --seed-file="$cl/munge/seed" --force >/dev/null 2>&1 ||
		{ echo "skip: munged does not start here: $(tail -n 2 "$cl/log/munged.log" 2>/dev/null)"; return 77; }
	ctl_port=$(free_port) && d_port=$(free_port) || return 2
	cores=$(nproc 2>/dev/null || echo 1)
	cat >"$cl/slurm.conf" <<CONF
ClusterName=hipporttest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cl/munge/socket
StateSaveLocation=$cl/state
SlurmdSpoolDir=$cl/spool/%n
SlurmctldPidFile=$cl/run/slurmctld.pid
SlurmdPidFile=$cl/run/slurmd.pid
SlurmctldLogFile=$cl/log/slurmctld.log
SlurmdLogFile=$cl/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=30
SlurmctldTimeout=30
MessageTimeout=10
MinJobAge=600
KillWait=2
InactiveLimit=0
MpiDefault=none
LaunchParameters=use_interactive_step
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cores State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
	SLURM_CONF=$cl/slurm.conf
	export SLURM_CONF
	slurmctld -f "$cl/slurm.conf" -i >"$cl/log/slurmctld.out" 2>&1 ||
		{ echo "skip: slurmctld does not start here: $(tail -n 3 "$cl/log/slurmctld.log" 2>/dev/null)"; return 77; }
	slurmd -f "$cl/slurm.conf" -N "$host" >"$cl/log/slurmd.out" 2>&1 ||
		{ echo "skip: slurmd does not start here: $(tail -n 3 "$cl/log/slurmd.log" 2>/dev/null)"; return 77; }
	# the node up and idle, within 30 s
	i=0
	while [ $i -lt 60 ]; do
		state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1)
		case $state in idle*) return 0 ;; esac
		sleep 0.5
		i=$((i + 1))
	done
	echo "skip: slurmd runs but the node never became idle (state '$state'): $(tail -n 3 "$cl/log/slurmd.log")"
	return 77
}

cluster_stop() {
	[ -n "${cl:-}" ] || return 0
	for f in "$cl/run/slurmd.pid" "$cl/run/slurmctld.pid" "$cl/munge/munged.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 1
	for f in "$cl/run/slurmd.pid" "$cl/run/slurmctld.pid" "$cl/munge/munged.pid"; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	return 0
}

#!/bin/bash
# The slurm engine on a single-node Slurm cluster that this test starts and
# stops itself, as TAP: munged on its own socket and key, slurmctld and
# slurmd as root from a config in a temporary folder (own ports, state,
# spool, pid and log files; ProctrackType=proctrack/linuxproc,
# TaskPlugin=task/none; this machine's CPUs as one partition). It runs a
# 2 x 2 matrix of FAKE-guest cells (LAB_TEST_FAKE_GUEST=1), one made to
# fail, with the local engine and with the slurm engine, and checks that
# the merged results have the same layout, that the failed cell is reported
# by name, and that the daemons are gone afterwards (a trap stops them on
# any exit). It does not start when a slurmctld or slurmd already runs here
# (a cluster of the machine's own is left alone: the test skips).
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"
# shellcheck source=tests/matrix-lib.sh
. "$LAB_ROOT/tests/matrix-lib.sh"

skip_all() {
	skip "slurm engine" "$1"
	echo "1..$n"
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip_all "not root: munged, slurmctld and slurmd run as root here"
for p in slurmctld slurmd; do
	pid=$(pgrep -x "$p" | head -1)
	[ -z "$pid" ] || skip_all "a $p already runs here (pid $pid): this test starts no second cluster"
done
for b in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
	if ! command -v "$b" >/dev/null; then
		tap_result "not ok" "slurm: $b is not installed (make deps installs slurm-wlm)"
		echo "1..$n"
		exit 1
	fi
done

tmp=$(mktemp -d)
sl=$tmp/slurm
mkdir -p "$sl/munge" "$sl/state" "$sl/spool" "$sl/log"
chmod 700 "$sl/munge"
export SLURM_CONF=$sl/slurm.conf
# pgrep -c prints 0 and exits 1 when none runs
stepds() { pgrep -xc slurmstepd || [ $? -eq 1 ]; }
stepds_before=$(stepds)

# stop_cluster: scontrol shutdown, then whatever is left by its pid; munged
stop_cluster() {
	local f pid i
	if [ -f "$SLURM_CONF" ]; then
		timeout 10 scontrol shutdown >/dev/null 2>&1 || echo "# scontrol shutdown failed: the daemons are stopped by their pids"
	fi
	for f in "$sl/slurmctld.pid" "$sl/slurmd.pid" "$sl/munge/pid"; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		if [ "$f" = "$sl/munge/pid" ] && ! munged -s -S "$sl/munge/sock" >/dev/null 2>&1; then
			echo "# munged -s failed: munged is stopped by its pid"
		fi
		for ((i = 0; i < 50; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		if kill -0 "$pid" 2>/dev/null; then
			kill "$pid" 2>/dev/null || echo "# pid $pid ($f) was gone before the kill"
			sleep 1
		fi
	done
	# once is enough (the EXIT trap calls it again)
	rm -f -- "$SLURM_CONF" "$sl/slurmctld.pid" "$sl/slurmd.pid" "$sl/munge/pid"
}
trap 'stop_cluster; rm -rf -- "$tmp"' EXIT
trap 'exit 130' INT TERM

# two free TCP ports for slurmctld and slurmd
ports=()
for ((p = 16817; p < 16917 && ${#ports[@]} < 2; p++)); do
	ss -Hltn "sport = :$p" | grep -q . || ports+=("$p")
done
[ "${#ports[@]}" -eq 2 ] || skip_all "no two free TCP ports in 16817-16916"

mungekey -c -k "$sl/munge/key" >/dev/null 2>&1
munged --force -S "$sl/munge/sock" --key-file="$sl/munge/key" --pid-file="$sl/munge/pid" \
	--log-file="$sl/munge/log" --seed-file="$sl/munge/seed" 2>"$sl/munge/start.err"
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ {printf "%d", $2 / 1024 / 2}' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
# a single-node cluster of tests/slurm.sh
ClusterName=labtest
SlurmctldHost=$host
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
AuthType=auth/munge
AuthInfo=socket=$sl/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$sl/state
SlurmdSpoolDir=$sl/spool
SlurmctldPidFile=$sl/slurmctld.pid
SlurmdPidFile=$sl/slurmd.pid
SlurmctldLogFile=$sl/log/slurmctld.log
SlurmdLogFile=$sl/log/slurmd.log
PlugStackConfig=$sl/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=lab Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
: >"$sl/plugstack.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
state=
for ((i = 0; i < 60; i++)); do
	state=$(sinfo -h -o %T 2>/dev/null | head -1)
	[ "$state" != idle ] || break
	sleep 0.5
done
check "the test's cluster is up: one idle node" idle "$state"
if [ "$state" != idle ]; then
	tail -5 "$sl/log/slurmctld.log" "$sl/log/slurmd.log" "$sl/munge/log" 2>&1 | sed 's/^/# /'
	echo "1..$n"
	exit 1
fi

export LAB_RESULTS=$tmp/results LAB_CACHE=$tmp/cache LAB_TEST_FAKE_GUEST=1 LAB_TEST_FAKE_FAIL=stock-b2
fake_cache "$LAB_CACHE"
good=$tmp/matrix.txt
printf '%s\n' "# 2 x 2: two kernels, two boots" "kernels lab stock" "workloads bpfqs" "boots 2" >"$good"

# the local engine's layout, for the comparison
rc=0
./run-lab.sh matrix "$good" >"$tmp/local.out" 2>&1 || rc=$?
check "local engine: the matrix fails (a cell made to fail)" 1 "$rc"
ldir=$(sed -n 's/^matrix: \(.*\) (\.\/run-lab.sh matrix --status .*/\1/p' "$tmp/local.out" | tail -1)

# the slurm engine: submit, wait for the merge
t0=$(date +%s)
rc=0
timeout 600 ./run-lab.sh --engine slurm --wait --slurm-cpus 1 --slurm-mem 512M --slurm-time 10 \
	matrix "$good" >"$tmp/slurm.out" 2>&1 || rc=$?
echo "# the slurm engine's matrix took $(($(date +%s) - t0)) s from submission to the merge"
check "slurm engine: the matrix fails (a cell made to fail)" 1 "$rc"
sdir=$(sed -n 's/^matrix: //p' "$tmp/slurm.out" | head -1)
check "slurm engine: the matrix folder is under LAB_RESULTS" yes \
	"$([ -n "$sdir" ] && [ -d "$sdir" ] && [ "$(dirname -- "$sdir")" = "$LAB_RESULTS" ] && echo yes || echo "no: '$sdir'")"
[ -n "$sdir" ] || sdir=$tmp/none
for s in partition account "time limit per cell" "CPUs per cell" "memory per cell"; do
	check "slurm engine: prints its $s" yes "$(grep -q "matrix:   $s (LAB_SLURM_" "$tmp/slurm.out" && echo yes || echo no)"
done
arr=$(sed -n 's/^array_job=//p' "$sdir/slurm/jobs.env" 2>/dev/null) || arr=none
# the arms run in ABBA order: the second boot runs stock first
check "slurm engine: the cells ran as tasks of one array job, in ABBA order" "${arr}_0 ${arr}_1 ${arr}_2 ${arr}_3" \
	"$(for c in lab-b1 stock-b1 stock-b2 lab-b2; do sed -n 's/^job=\([0-9_]*\) .*/\1/p' "$sdir/status/$c" 2>/dev/null; done | tr '\n' ' ' | sed 's/ $//')"
check "slurm engine: merge.txt (by the merge job) counts 3 done, 1 failed" yes \
	"$(grep -q '4 cells: 3 done, 1 failed, 0 never finished, 0 never ran' "$sdir/merge.txt" 2>/dev/null && echo yes || echo no)"
check "slurm engine: merge.txt names the failed cell" yes \
	"$(grep -A1 '^FAILED cells:' "$sdir/merge.txt" 2>/dev/null | grep -q "^  stock-b2: guest step 'wl-bpfqs' exited 1" && echo yes || echo no)"
check "slurm engine: the merge ran as a job of its own" yes \
	"$(grep -q 'merging matrix' "$sdir/slurm/merge.out" 2>/dev/null && echo yes || echo no)"
check "slurm engine: the comparison over the boots" "2 2" \
	"$(jq -r '"\(.boots_a) \(.boots_b)"' "$sdir/compare/all/stock-vs-lab/compare.json" 2>&1)"
matrix_layout "$ldir" >"$tmp/local.layout"
matrix_layout "$sdir" >"$tmp/slurm.layout"
check "the merged results of both engines have the same layout ($(wc -l <"$tmp/local.layout") paths)" "" \
	"$(diff "$tmp/local.layout" "$tmp/slurm.layout" | grep '^[<>]' | head -5 | tr '\n' ' ')"
out=$(./run-lab.sh matrix --status "$(basename -- "$sdir")" 2>&1)
check "status: the array and merge jobs" yes "$(grep -q "slurm engine: array job $arr, merge job" <<<"$out" && echo yes || echo no)"
check "status: each cell's state, in the order they ran" "lab-b1=done stock-b1=done stock-b2=failed lab-b2=done" \
	"$(awk 'NR > 2 && $2 ~ /^(done|failed|running|pending)$/ {printf "%s=%s ", $1, $2}' <<<"$out" | sed 's/ $//')"

# ./run-lab.sh ab and tune-taprio on the slurm engine, end to end (no cell made to fail)
unset LAB_TEST_FAKE_FAIL
slurm_run=(timeout 600 ./run-lab.sh --engine slurm --wait --slurm-cpus 1 --slurm-mem 512M --slurm-time 10)
rc=0
"${slurm_run[@]}" ab --boots 2 --a lab --b lab --b-cmdline sysctl.net.core.bpf_jit_enable=0 bpfqs \
	>"$tmp/ab.out" 2>&1 || rc=$?
check "ab --engine slurm: exit code" 0 "$rc"
adir=$(sed -n 's/^matrix: //p' "$tmp/ab.out" | head -1)
[ -n "$adir" ] || adir=$tmp/none
check "ab --engine slurm: its cells ran as tasks of one array job" "a1 b1 a2 b2" \
	"$(for c in a1 b1 a2 b2; do grep -q '^job=[0-9]*_[0-9]' "$adir/status/$c" 2>/dev/null && printf '%s ' "$c"; done | sed 's/ $//')"
check "ab --engine slurm: compare.json over two boots a side" "2 2" \
	"$(jq -r '.metrics[0] | "\(.boots_a) \(.boots_b)"' "$adir/compare.json" 2>&1)"
check "ab --engine slurm: ab.env asks for the B side's command line" "cmdline_extra" \
	"$(sed -n 's/^asked=//p' "$adir/ab.env" 2>&1)"
rc=0
"${slurm_run[@]}" tune-taprio workloads/taprio/schedules/three-class-10ms.sched >"$tmp/tune.out" 2>&1 || rc=$?
check "tune-taprio --engine slurm: exit code" 0 "$rc"
tdir=$(sed -n 's/^matrix: //p' "$tmp/tune.out" | head -1)
[ -n "$tdir" ] || tdir=$tmp/none
ncells=$(wc -l <"$tdir/cells.tsv" 2>/dev/null) || ncells=0
ndone=$(grep -lx 'state=done' "$tdir"/status/* 2>/dev/null | wc -l)
check "tune-taprio --engine slurm: a cell per variant, every one done" "yes $ncells" \
	"$([ "$ncells" -gt 1 ] && echo yes || echo no) $ndone"
check "tune-taprio --engine slurm: the merge wrote a recommendation" yes \
	"$(find "$tdir" -name tune-recommendation.txt -size +0 2>/dev/null | grep -q . && echo yes || echo no)"

# the cluster is stopped, and nothing of it is left running
pids=()
for f in "$sl/slurmctld.pid" "$sl/slurmd.pid" "$sl/munge/pid"; do
	[ ! -f "$f" ] || pids+=("$(cat "$f")")
done
stop_cluster
alive=
for p in "${pids[@]}"; do
	! kill -0 "$p" 2>/dev/null || alive+=" $p"
done
check "munged, slurmctld and slurmd are gone after the test (${#pids[@]} pids)" "3 " "${#pids[@]} $alive"
check "no slurmstepd is left" "${stepds_before:-0}" "$(stepds)"
echo "1..$n"

#!/bin/bash
# The routedump probe pass and the cleanup after it, in a loop, as TAP: one
# boot of a replicated routedump run once hung after its probe pass, its log
# ending in the cleanup that follows it (workloads/routedump/driver.sh:
# bpftrace with probes/route_dump.bt and probes/route_insert.bt around a
# small `routedump run` in a namespace of its own, the probes stopped, the
# namespace deleted and its routes freed). Each loop does the same, each
# phase bounded: a phase still running after its bound dumps the blocked
# tasks and the CPUs' stacks to the console (sysrq w and l) and fails.
#
# LAB_ROUTEDUMP_LOOPS: the number of loops (3). Runnable with
# LAB_GUEST_TESTS=routedump-loop; not in make test (minutes per loop):
# guest-suite: on request
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

loops=${LAB_ROUTEDUMP_LOOPS:-3}
bin=$LAB_SRC/build/routedump
LAB_WL_OUT=$(mktemp -d /tmp/routedump-loop.XXXXXX)
export LAB_WL_OUT
# probe_stop's own bound on a bpftrace that does not exit
export LAB_PROBE_STOP_SECONDS=120

# bounded SECONDS NAME COMMAND...: COMMAND in the background, waited for; at
# SECONDS the blocked tasks and CPU stacks go to the console, and at twice
# that it is given up (killed where it can be). Its exit status, 124 when
# given up.
bounded() {
	local secs=$1 name=$2 pid t rc=0
	shift 2
	"$@" &
	pid=$!
	for ((t = 0; t < 20 * secs; t++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
		if [ "$t" = $((10 * secs)) ]; then
			echo "# $name still running after $secs s: sysrq w and l to the console"
			echo w >/proc/sysrq-trigger
			echo l >/proc/sysrq-trigger
			ps -eo pid,stat,wchan:32,args | awk '$2 ~ /D/' | sed 's/^/#   /'
		fi
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
		echo "# $name given up after $((2 * secs)) s"
		return 124
	fi
	wait "$pid" || rc=$?
	return "$rc"
}

# where_is PID: where the process is, every 5 s while it lives
where_is() {
	while sleep 5 && [ -e "/proc/$1" ]; do
		echo "#   bpftrace $1: state $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null), in $(cat "/proc/$1/wchan" 2>/dev/null)"
	done
}

netns_cycle() {
	ip netns add "$1" && ip netns del "$1"
}

for ((i = 1; i <= loops; i++)); do
	ns=routedump-loop-$i
	t0=$SECONDS
	ip netns add "$ns"
	started=0
	for p in route_dump route_insert; do
		if probe_start "$p" 2>>"$LAB_WL_OUT/probe.err"; then
			started=$((started + 1))
		fi
	done
	check "loop $i: both probes attached" 2 "$started"
	mkdir -p "$LAB_WL_OUT/pass-$i"
	rc=0
	bounded 600 "loop $i: the probe pass" ip netns exec "$ns" "$bin" run --profile quick \
		--out "$LAB_WL_OUT/pass-$i" --reps 2 --iproute2 none --anchor-insert 0 --batch 4096 \
		2>"$LAB_WL_OUT/pass-$i/run.err" || rc=$?
	check "loop $i: the probe pass ends, exit 0 ($(tail -1 "$LAB_WL_OUT/pass-$i/run.err"))" 0 "$rc"
	echo "# loop $i: probe pass done $((SECONDS - t0)) s in"
	for p in route_dump route_insert; do
		var=PROBE_PID_$p
		t1=$SECONDS
		where_is "${!var}" &
		wpid=$!
		rc=0
		bounded 180 "loop $i: probe_stop $p" probe_stop "$p" 2>"$LAB_WL_OUT/probe-stop.err" || rc=$?
		kill "$wpid" 2>/dev/null || :
		wait "$wpid" || :
		echo "# loop $i: probe_stop $p took $((SECONDS - t1)) s"
		# what probe_stop said (a SIGINT sent again), in the log and probe.err
		sed 's/^/#   /' "$LAB_WL_OUT/probe-stop.err"
		cat "$LAB_WL_OUT/probe-stop.err" >>"$LAB_WL_OUT/probe.err"
		check "loop $i: bpftrace $p stops and its output is turned into CSV" 0 "$rc"
	done
	echo "# loop $i: probes stopped $((SECONDS - t0)) s in"
	rc=0
	bounded 60 "loop $i: ip netns del" ip netns del "$ns" || rc=$?
	check "loop $i: the namespace is deleted" 0 "$rc"
	# its routes are freed in the background: a new namespace made and
	# deleted, and a route dump, must not wait long behind that
	rc=0
	bounded 300 "loop $i: a namespace made and deleted after it" netns_cycle "$ns-after" || rc=$?
	check "loop $i: a namespace can be made and deleted after it" 0 "$rc"
	rc=0
	bounded 300 "loop $i: ip route show after it" ip route show table all >/dev/null || rc=$?
	check "loop $i: the routing table answers after it" 0 "$rc"
	echo "# loop $i: $((SECONDS - t0)) s in all"
done
rm -rf "$LAB_WL_OUT"
echo "1..$n"

# shellcheck shell=bash
# Helpers for the workload drivers (workloads/<workload>/driver.sh) in the guest:
# phases under perf stat, bpftrace probes started and stopped around them,
# probe output turned into CSV; and the TAP helpers of tests/tap.sh (check,
# tap_fold: a conformance stream folded into the driver's). Sourced.
#
# The driver runs with $LAB_WORKLOAD (its name), $LAB_WL_OUT (its results folder),
# $LAB_PROFILE (quick|full) and $LAB_TRACE (0|1) set by bench/guest-run.sh.

# (found beside this file, not through $LAB_SRC: a test may run a driver in a
# source tree of its own that links only bench/ to the lab's)
# shellcheck source=tests/tap.sh
. "${BASH_SOURCE[0]%/*}/../tests/tap.sh"

# Software events that TCG supports (no hardware counters under emulation)
PERF_EVENTS=task-clock,context-switches,cpu-migrations,page-faults

# progress TEXT: a one-line result for the host's terminal, for example
# "conformance 120 ok; measuring 3 classes x 1000 packets" (bench/progress.sh
# prints it with the workload's name and the elapsed time). Nothing outside a
# lab run (no $LAB_OUT/guest).
progress() {
	[ -d "${LAB_OUT:-}/guest" ] || return 0
	printf 'note %s %s\n' "${LAB_WORKLOAD:-${LAB_WL_OUT##*/}}" "$*" >>"$LAB_OUT/guest/progress"
}

# phase NAME COMMAND...: run one measured phase of the workload under perf
# stat; its counts are appended to perf-stat.txt under the phase's name. Its
# start and end go to the host's terminal (progress).
phase() {
	local name=$1 rc=0
	shift
	echo "== phase $name: $*" >&2
	[ ! -d "${LAB_OUT:-}/guest" ] ||
		printf 'phase %s %s\n' "${LAB_WORKLOAD:-${LAB_WL_OUT##*/}}" "$name" >>"$LAB_OUT/guest/progress"
	echo "# phase $name" >>"$LAB_WL_OUT/perf-stat.txt"
	perf stat -e "$PERF_EVENTS" -o "$LAB_WL_OUT/perf-stat.tmp" -- "$@" || rc=$?
	cat "$LAB_WL_OUT/perf-stat.tmp" >>"$LAB_WL_OUT/perf-stat.txt" 2>/dev/null || true
	rm -f "$LAB_WL_OUT/perf-stat.tmp"
	[ ! -d "${LAB_OUT:-}/guest" ] ||
		printf 'phase-end %s %s %s\n' "${LAB_WORKLOAD:-${LAB_WL_OUT##*/}}" "$name" "$rc" >>"$LAB_OUT/guest/progress"
	return "$rc"
}

# probe_start SCRIPT [ARG...]: start bpftrace on probes/SCRIPT.bt (or on
# SCRIPT itself when it is a path) in the background, JSON output to
# probe-NAME.json, and wait until it has attached its probes (or fail after
# 60 s). NAME is the script's name without .bt.
probe_start() {
	local script=$1 name out i
	shift
	name=$(basename "$script" .bt)
	[ "$script" != "$name" ] || script=$LAB_SRC/probes/$name.bt
	out=$LAB_WL_OUT/probe-$name.json
	bpftrace -f json "$script" "$@" >"$out" 2>"$LAB_WL_OUT/probe-$name.err" &
	eval "PROBE_PID_${name//[^a-zA-Z0-9]/_}=$!"
	for ((i = 0; i < 600; i++)); do
		if grep -q '"attached_probes"' "$out" 2>/dev/null; then
			echo "probe $name: $(jq -r 'select(.type == "attached_probes") | .data.probes' "$out") probes attached" >&2
			return 0
		fi
		if ! kill -0 "$!" 2>/dev/null; then
			echo "probe $name: bpftrace exited: $(cat "$LAB_WL_OUT/probe-$name.err")" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "probe $name: not attached after 60 s" >&2
	return 1
}

# probe_stop SCRIPT: stop bpftrace (SIGINT, so it prints its maps), then
# write probe-SCRIPT.csv (printf lines) and probe-SCRIPT-maps.csv (maps and
# histograms: map,key,low,high,value). A bpftrace still running
# LAB_PROBE_STOP_SECONDS (120) after the SIGINT is killed and the probe fails,
# so that a stuck probe costs its output, not the rest of the run.
probe_stop() {
	local name=$1 var pid i limit=${LAB_PROBE_STOP_SECONDS:-120}
	var=PROBE_PID_${name//[^a-zA-Z0-9]/_}
	pid=${!var}
	kill -INT "$pid" 2>/dev/null || true
	for ((i = 0; i < 10 * limit; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "probe $name: bpftrace still running ${limit} s after SIGINT: killed, its maps are lost (it was in state $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null), in $(cat "/proc/$pid/wchan" 2>/dev/null))" >&2
		kill -KILL "$pid" 2>/dev/null || true
		# a process stuck in the kernel dies only when it leaves it: not
		# waited for beyond 10 s
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "probe $name: bpftrace still there 10 s after SIGKILL, stuck in the kernel (in $(cat "/proc/$pid/wchan" 2>/dev/null)): left behind" >&2
		else
			wait "$pid" || true
		fi
		return 1
	fi
	wait "$pid" || true
	"$LAB_SRC/bench/probe2csv.sh" "$LAB_WL_OUT/probe-$name.json" "$LAB_WL_OUT/probe-$name"
}

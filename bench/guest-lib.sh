# shellcheck shell=bash
# The guest side of a workload: the lifecycle every workload driver
# (workloads/<workload>/driver.sh) shares, and its helpers: phases under perf
# stat, bpftrace probes started and stopped around them, probe output turned
# into CSV; and the TAP helpers of tests/tap.sh (check, tap_fold: a
# conformance stream folded into the driver's). Sourced; defines functions.
#
# A driver declares its phases as functions and hands them to wl_main, as a
# benchmark of the kernel's BPF bench declares its setup and measurement and
# the framework owns the rest:
#
#	. "$LAB_SRC/bench/guest-lib.sh"
#	checks() { conform "$WL_BIN" conform; }
#	measurement() { measure run "$WL_BIN" run --out "$STAGE" "${RUN_OPTS[@]}"; }
#	wl_once checks
#	wl_main checks measurement
#
# wl_main reads the run spec ($LAB_OUT/run.spec, bench/spec.sh: SPEC,
# spec_get; PROFILE its profile), makes the stage folder in tmpfs where
# everything is written (STAGE; probes and phases write there too), runs the
# phases in order (a phase that calls wl_stop ends them), then the report
# (WL_BIN report --out STAGE --failed REASON... with every failure of the
# phases, also kept in failures.txt), and copies the stage into the share
# (OUT, $LAB_OUT/<workload>) whatever happened: a driver that stops on an
# error still leaves its files and a summary that says where it stopped. It
# exits 1 when anything failed. A driver's wl_cleanup, when it defines one
# (stop loads and the processes that write into the stage, remove
# namespaces), runs after the phases, before the report, and again at exit.
#
# Set for the phases: WL (the workload's name, its folder), WL_BIN
# ($LAB_SRC/build/WL), OUT, STAGE, PROFILE (quick|full), RUN_OPTS (the
# options that give a run verb the progress channel and the failure file:
# bench/lib/progress.h), FAILURES (the reasons so far); FAIL_KIND after
# measure.

# (found beside this file, not through $LAB_SRC: a test may run a driver in a
# source tree of its own that links only bench/ to the lab's)
# shellcheck source=tests/tap.sh
. "${BASH_SOURCE[0]%/*}/../tests/tap.sh"
# shellcheck source=bench/spec.sh
. "${BASH_SOURCE[0]%/*}/spec.sh"

# Software events that TCG supports (no hardware counters under emulation)
PERF_EVENTS=task-clock,context-switches,cpu-migrations,page-faults

# The phases a replicate boot skips (wl_once)
WL_ONCE=' '

# progress TEXT: a one-line result for the host's terminal, for example
# "conformance 120 ok; measuring 3 classes x 1000 packets" (bench/progress.sh
# prints it with the workload's name and the elapsed time), and on stderr.
# Nothing on the terminal outside a lab run (no $LAB_OUT/guest).
progress() {
	echo "== $*" >&2
	[ -d "${LAB_OUT:-}/guest" ] || return 0
	printf 'note %s %s\n' "${WL:-${LAB_WL_OUT##*/}}" "$*" >>"$LAB_OUT/guest/progress"
}

# phase NAME COMMAND...: run one measured phase of the workload under perf
# stat; its counts are appended to perf-stat.txt under the phase's name (a
# shell function runs as it is, without perf stat). Its start and end go to
# the host's terminal.
phase() {
	local name=$1 rc=0 wl=${WL:-${LAB_WL_OUT##*/}}
	shift
	echo "== phase $name: $*" >&2
	[ ! -d "${LAB_OUT:-}/guest" ] || printf 'phase %s %s\n' "$wl" "$name" >>"$LAB_OUT/guest/progress"
	if declare -F "$1" >/dev/null; then
		"$@" || rc=$?
	else
		echo "# phase $name" >>"$LAB_WL_OUT/perf-stat.txt"
		perf stat -e "$PERF_EVENTS" -o "$LAB_WL_OUT/perf-stat.tmp" -- "$@" || rc=$?
		cat "$LAB_WL_OUT/perf-stat.tmp" >>"$LAB_WL_OUT/perf-stat.txt" 2>/dev/null || true
		rm -f "$LAB_WL_OUT/perf-stat.tmp"
	fi
	[ ! -d "${LAB_OUT:-}/guest" ] || printf 'phase-end %s %s %s\n' "$wl" "$name" "$rc" >>"$LAB_OUT/guest/progress"
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
# The SIGINT is sent again every 10 s. Why: bpftrace's handler only sets a
# flag; its reader loop (epoll_wait with a 100 ms timeout, in bpftrace's
# public source) ends when epoll_wait fails with EINTR, and the flag is
# otherwise read only when a printed event arrives. A SIGINT that lands
# while the reader is busy outside epoll_wait (reading a burst of events,
# as the last sendmsgs of routedump's insert print) is kept in the flag and
# never acted on once the probes are quiet: a bpftrace slept in epoll_wait
# for 448 s so; tests/guest/routedump-loop.sh sees it in some loops
# (2026-12-07: 2 of 12 loops; in loop 5 of 6 the second SIGINT ended it). A second SIGINT,
# which almost always finds it inside epoll_wait, ends such a wait.
probe_stop() {
	local name=$1 var pid i limit=${LAB_PROBE_STOP_SECONDS:-120}
	var=PROBE_PID_${name//[^a-zA-Z0-9]/_}
	pid=${!var}
	kill -INT "$pid" 2>/dev/null || true
	for ((i = 1; i <= 10 * limit; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		if [ $((i % 100)) -eq 0 ]; then
			echo "probe $name: bpftrace still running $((i / 10)) s after SIGINT: sent again" >&2
			kill -INT "$pid" 2>/dev/null || true
		fi
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

# cpus_stuck: the CPUs (" N" each) that ran no task pinned to them within
# 20 s, or nothing when every CPU did (a CPU stuck in a timer interrupt runs
# none, while the others may carry on as if nothing happened)
cpus_stuck() {
	local c pids=() stuck t
	for ((c = 0; c < $(nproc --all); c++)); do
		taskset -c "$c" true >/dev/null 2>&1 &
		pids[c]=$!
	done
	for ((t = 0; t < 40; t++)); do
		stuck=
		for c in "${!pids[@]}"; do
			! kill -0 "${pids[c]}" 2>/dev/null || stuck="$stuck $c"
		done
		[ -n "$stuck" ] || break
		sleep 0.5
	done
	echo "$stuck"
}

# --- The lab's load ------------------------------------------------------------

# load_start: the lab's busy guest, the same for every workload that measures
# under load: a busy loop per vCPU and an iperf3 stream over the lab wire,
# eth0 to the namespace rx (198.18.0.2); iperf3's messages in the stage
# (iperf3-server.log, iperf3-client.log). load_stop ends it; a driver that
# starts it calls load_stop in its wl_cleanup too.
LOAD_PIDS=()
load_start() {
	local i
	for ((i = 0; i < $(nproc); i++)); do
		sh -c 'while :; do :; done' &
		LOAD_PIDS+=("$!")
	done
	ip netns exec rx iperf3 -s >"$STAGE/iperf3-server.log" 2>&1 &
	LOAD_PIDS+=("$!")
	sleep 1
	iperf3 -c 198.18.0.2 -t 3600 -i 10 >"$STAGE/iperf3-client.log" 2>&1 &
	LOAD_PIDS+=("$!")
	sleep 2
	echo "load: $(nproc) CPU hogs, iperf3 to 198.18.0.2 ($(grep -c 'bits/sec' "$STAGE/iperf3-client.log" || true) reports so far)" >&2
}

# load_stop: stop what load_start started
load_stop() {
	kill_wait "${LOAD_PIDS[@]}"
	LOAD_PIDS=()
}

# kill_wait PID...: SIGTERM to each background process of the driver, then
# wait for each (one gone already is no error)
kill_wait() {
	local p
	for p; do
		kill "$p" 2>/dev/null || true
	done
	for p; do
		wait "$p" 2>/dev/null || true
	done
}

# --- The lifecycle (wl_main) ---------------------------------------------------

# fail REASON: the workload failed so (one line; the run goes on)
fail() {
	local why=${1//$'\n'/ }
	echo "$WL: FAILED: $why" >&2
	FAILURES+=("$why")
}

# wl_stop: the phases after this one do not run (the report still does)
wl_stop() { WL_STOPPED=1; }

# wl_once PHASE...: phases that check behaviour, not speed (conformance,
# probe passes): a replicate boot (the run spec's replicate=1: the second and
# later boots of a side of an A/B, or of a matrix cell) skips them; the
# first boot of each side runs them
wl_once() { WL_ONCE+="$* "; }

# conform COMMAND...: the conformance phase: COMMAND's TAP into
# conformance.tap; its failed cases, or its exit when none failed, fail the
# workload. A shell function may stand for COMMAND (it may fail itself).
conform() {
	local rc=0 bad
	phase conform "$@" >"$STAGE/conformance.tap" || rc=$?
	bad=$(grep -c '^not ok' "$STAGE/conformance.tap" || true)
	grep -E '^# [0-9]+ passed' "$STAGE/conformance.tap" >&2 || true
	if [ "$bad" -gt 0 ]; then
		fail "conformance: $bad case(s) failed (see conformance.tap)"
	elif [ "$rc" != 0 ]; then
		fail "conformance: the suite exited $rc with no case failed (see conformance.tap)"
	fi
	return 0
}

# measure NAME COMMAND...: phase NAME of a run verb given "${RUN_OPTS[@]}",
# its messages kept in NAME.log; when it fails, the reason it wrote in the
# failure file fails the workload ("NAME: REASON"), else its exit status.
# FAIL_KIND: empty when it succeeded, else the failure's kind
# (bench/lib/progress.h; "none" when it wrote no reason). Returns 0.
measure() {
	local name=$1 rc=0
	shift
	rm -f -- "$WL_FAIL_FILE"
	phase "$name" "$@" 2>"$STAGE/$name.log" || rc=$?
	cat "$STAGE/$name.log" >&2
	failed_so "$name" "$rc"
}

# failed_so NAME RC: FAIL_KIND, and when RC is not 0 a failure "NAME:
# REASON" from the failure file (kept as NAME.failure.json)
# shellcheck disable=SC2034 # FAIL_KIND: for the drivers
failed_so() {
	FAIL_KIND=
	[ "$2" != 0 ] || return 0
	if [ -s "$WL_FAIL_FILE" ]; then
		FAIL_KIND=$(jq -r '.kind // "error"' "$WL_FAIL_FILE")
		fail "$1: $(jq -r '.reason // "no reason given"' "$WL_FAIL_FILE")"
		mv -f -- "$WL_FAIL_FILE" "$STAGE/$1.failure.json"
	else
		FAIL_KIND=none
		fail "$1: exited $2 without a reason (see its messages)"
	fi
}

# ask NAME VAR COMMAND...: the lines a short verb (given "${RUN_OPTS[@]}")
# prints into the array VAR; when it fails, as measure does, and returns 1
ask() {
	local name=$1 var=$2 out rc=0
	shift 2
	rm -f -- "$WL_FAIL_FILE"
	out=$("$@") || rc=$?
	failed_so "$name" "$rc"
	[ "$rc" = 0 ] || return 1
	if [ -n "$out" ]; then
		mapfile -t "$var" <<<"$out"
	else
		mapfile -t "$var" </dev/null
	fi
}

# probes_start NAME...: attach probes/NAME.bt each (probe_start); one that
# does not attach fails the workload and the run goes on without it
probes_start() {
	local p
	WL_PROBES=()
	for p; do
		if probe_start "$p"; then
			WL_PROBES+=("$p")
		else
			fail "probes/$p.bt did not attach (see probe-$p.err)"
		fi
	done
}

# probes_stop: stop the probes probes_start attached
probes_stop() {
	local p
	for p in "${WL_PROBES[@]}"; do
		probe_stop "$p" || fail "probe $p: its output could not be turned into CSV"
	done
	WL_PROBES=()
}

# wl_report: the workload's report of the stage, with every failure so far
# (in failures.txt, which is all the host needs when the run spec says
# report_on=host: then the host runs it, bench/lib.sh host_report)
wl_report() {
	local args=() f rc=0
	WL_REPORTED=1
	printf '%s\n' "${FAILURES[@]}" >"$STAGE/failures.txt"
	if [ "$(spec_get report_on guest)" = host ]; then
		progress "report: on the host after the boot (report_on=host)"
		return 0
	fi
	for f in "${FAILURES[@]}"; do
		args+=(--failed "$f")
	done
	[ ! -d "${LAB_OUT:-}/guest" ] || printf 'phase %s report\n' "$WL" >>"$LAB_OUT/guest/progress"
	"$WL_BIN" report --out "$STAGE" "${args[@]}" 2>"$STAGE/report.log" || rc=$?
	[ ! -d "${LAB_OUT:-}/guest" ] || printf 'phase-end %s report %s\n' "$WL" "$rc" >>"$LAB_OUT/guest/progress"
	cat "$STAGE/report.log" >&2
	[ "$rc" = 0 ] || FAILURES+=("$WL report exited $rc (see report.log)")
}

# wl_exit: at exit, whatever happened: the driver's wl_cleanup, the report
# when the phases did not get to it, the stage into the share
wl_exit() {
	local rc=$? p
	trap - EXIT
	set +e
	! declare -F wl_cleanup >/dev/null || wl_cleanup
	if [ "$WL_REPORTED" = 0 ]; then
		fail "the driver stopped (exit $rc) in phase ${WL_PHASE:-set-up}"
		wl_report
	fi
	if [ -d "$STAGE" ]; then
		mkdir -p "$OUT" && cp -r -- "$STAGE"/. "$OUT"/ && rm -rf -- "$STAGE"
	fi
	if [ "${#FAILURES[@]}" -gt 0 ]; then
		for p in "${FAILURES[@]}"; do
			echo "$WL: failed: $p" >&2
		done
		exit 1
	fi
	exit "$rc"
}

# wl_main PHASE...: the workload's lifecycle (see the top of this file)
wl_main() {
	local p driver
	driver=$(cd "$(dirname -- "$0")" && pwd)
	WL=${driver##*/}
	WL_BIN=$LAB_SRC/build/$WL
	OUT=$LAB_OUT/$WL
	FAILURES=() WL_PROBES=() WL_REPORTED=0 WL_STOPPED=0 WL_PHASE=
	mkdir -p "$OUT"
	STAGE=$(mktemp -d "/tmp/$WL.XXXXXX")
	# (the name probe_start and phase write under)
	LAB_WL_OUT=$STAGE
	WL_FAIL_FILE=$STAGE/.failure.json
	RUN_OPTS=(--fail-file "$WL_FAIL_FILE")
	[ ! -d "$LAB_OUT/guest" ] || RUN_OPTS+=(--progress "$LAB_OUT/guest/progress")
	trap wl_exit EXIT
	trap 'exit 130' INT TERM
	if [ ! -x "$WL_BIN" ]; then
		fail "no $WL_BIN: run make all on the host"
		WL_STOPPED=1
	elif ! spec_load "$LAB_OUT/run.spec"; then
		fail "no readable run spec $LAB_OUT/run.spec"
		WL_STOPPED=1
	fi
	PROFILE=$(spec_get profile quick)
	case "$PROFILE" in
	quick | full) ;;
	*)
		fail "unknown profile '$PROFILE' (expected quick or full)"
		WL_STOPPED=1
		;;
	esac
	for p; do
		[ "$WL_STOPPED" = 0 ] || break
		if [ "$(spec_get replicate)" = 1 ] && [[ "$WL_ONCE" == *" $p "* ]]; then
			progress "replicate boot: $p skipped (it checks behaviour; the first boot of this side ran it)"
			continue
		fi
		WL_PHASE=$p
		"$p"
	done
	# nothing writes into the stage while the report reads it
	WL_PHASE=cleanup
	! declare -F wl_cleanup >/dev/null || wl_cleanup
	WL_PHASE=report
	wl_report
}

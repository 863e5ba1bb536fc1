#!/bin/bash
# The taprio gate timing lab in the guest:
#  1. conformance: tests/guest/ptp.sh (the emulated PTP clock) and
#     tests/guest/taprio.sh (schedules, bad input, the advance tracepoint)
#     into conformance.tap;
#  2. clock sync: the kernel's TAI offset set to 37 s, the PHC given an
#     error to correct when the boot left it at the system time (+1.5 ms,
#     +20 ppm), phc2sys steering CLOCK_REALTIME to it (so CLOCK_TAI, taprio's
#     clock, follows the PHC as on real hardware), its offsets recorded;
#  3. the measurement: `taprio run` on the schedule (1,000 packets per class
#     in the quick profile), under perf stat, with probes/taprio_gate.bt (or
#     taprio_gate_kprobe.bt on a stock kernel); `taprio run` refuses to
#     measure while |PHC - CLOCK_TAI| exceeds 10 us;
#  4. isochron on the same schedule and class 0, woken a quarter into the
#     class's first window of each cycle, --omit-sync (its sync
#     checks want ptp4l; the sync was checked in 3); software timestamps
#     for the comparison, and the emulated hardware ones of patch 0005
#     (without them isochron 0.9 refuses to run); and our sender as
#     isochron sends (class 0 alone, one 128-byte frame at the same point
#     of each cycle, no probe) for a like-for-like sender latency, its TX
#     timestamps read after each send (like-isochron), then by a second
#     thread as isochron reads them (like-isochron-errq). The three in
#     alternating short rounds, A B C A B C ... (iso_rounds of
#     iso_frames / iso_rounds frames each);
#  5. ptp4l between eth0 and rx/eth1, software timestamps over the lab wire,
#     the slave free-running (both ends share the guest's CLOCK_REALTIME),
#     its offsets recorded;
#  6. `taprio report`: summary.json and targets.json from the CSV files
#     (the like-isochron runs and a tuning sweep's variants included).
# With LAB_TAPRIO_TUNE=FILE (./run-lab.sh tune-taprio FILE) steps 3-5 are
# replaced by the tuning sweep of workloads/taprio/tune.sh.
#
# Run by bench/guest-run.sh with $LAB_WL_OUT, $LAB_PROFILE and $LAB_SRC.
# LAB_TAPRIO_SCHEDULE: the schedule file (workloads/taprio/schedules/three-class-10ms.sched);
# messages name it as the user gave it to run-lab.sh (meta.json: taprio_schedule).
#
# trace-events: taprio:taprio_advance taprio:taprio_hold taprio:taprio_dequeue net:net_dev_start_xmit
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

out=$LAB_WL_OUT
bin=$LAB_SRC/build/taprio
profile=${LAB_PROFILE:-quick}
sched=${LAB_TAPRIO_SCHEDULE:-$LAB_SRC/workloads/taprio/schedules/three-class-10ms.sched}
tai=37
threshold_ns=10000
stage=$(mktemp -d /tmp/taprio.XXXXXX)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	"$bin" clear --dev eth0 >/dev/null 2>&1 || true
	rm -rf -- "$stage"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

case "$profile" in
quick) count=1000 ptp4l_s=20 iso_frames=1000 iso_rounds=10 tune_count=200 ;;
full) count=5000 ptp4l_s=60 iso_frames=5000 iso_rounds=25 tune_count=1000 ;;
*)
	echo "error: unknown profile '$profile' (expected quick or full)" >&2
	exit 2
	;;
esac
failures=()
say() { echo "== $*" >&2; }
# report_stage [OPTION...]: summary.json and targets.json of $stage, failed
# with the reasons gathered so far ($reason: them on one line, empty when none)
report_stage() {
	local f args=()
	reason=
	for f in "${failures[@]}"; do
		args+=(--failed "$f")
		reason+="${reason:+; }$f"
	done
	"$bin" report --out "$stage" "$@" "${args[@]}"
}
# finish [OPTION...]: the results of $stage into $out; fails when the run did
finish() {
	local rc=0
	report_stage "$@" || rc=$?
	cp "$stage/summary.json" "$stage/targets.json" "$out/"
	[ "$rc" = 0 ] || reason+="${reason:+; }taprio report exited $rc"
	if [ -n "$reason" ]; then
		echo "taprio: $reason" >&2
		return 1
	fi
}
# The schedule as the user named it (run-lab.sh --schedule FILE), for messages
name=$(basename -- "$sched")
if [ -n "${LAB_TAPRIO_SCHEDULE:-}" ] && [ -f "${LAB_OUT:-}/meta.json" ]; then
	name=$(jq -r '.taprio_schedule // empty' "$LAB_OUT/meta.json" 2>/dev/null || true)
	name=${name:-$(basename -- "$sched")}
fi

# 1. Conformance, one TAP stream (not before a tuning sweep)
n=0
[ -n "${LAB_TAPRIO_TUNE:-}" ] || {
	say "conformance"
	{
		echo "TAP version 13"
		for t in ptp taprio; do
			echo "# tests/guest/$t.sh"
			rc=0
			"$LAB_SRC/tests/guest/$t.sh" >"$stage/$t.tap" 2>&1 || rc=$?
			tap_fold "$stage/$t.tap"
			[ "$rc" = 0 ] || echo "$t $rc" >>"$stage/suite-exits"
		done
		echo "1..$n"
	} >"$stage/conformance.tap"
	cp "$stage/conformance.tap" "$out/conformance.tap"
	bad=$(grep -c '^not ok' "$out/conformance.tap" || true)
	[ "$bad" -eq 0 ] || failures+=("$bad conformance cases failed")
	if [ -f "$stage/suite-exits" ]; then
		while read -r t rc; do
			failures+=("tests/guest/$t.sh exited $rc")
		done <"$stage/suite-exits"
	fi
}

# 2. Clock sync
phc=$(ethtool -T eth0 2>/dev/null | sed -n 's/^PTP Hardware Clock: //p')
[[ "$phc" =~ ^[0-9]+$ ]] || phc=
"$bin" set-tai "$tai"
if [ -n "$phc" ]; then
	say "clock sync: phc2sys from /dev/ptp$phc to CLOCK_REALTIME, TAI offset $tai s"
	off=$(phc_ctl "/dev/ptp$phc" cmp | sed -n 's/.*offset from CLOCK_REALTIME is \(-\?[0-9]*\)ns.*/\1/p')
	# phc_ctl prints REALTIME - PHC; a PHC near REALTIME + 37 s was set at boot
	if [ "${off#-}" -lt 36000000000 ] || [ "${off#-}" -gt 38000000000 ]; then
		echo "the PHC runs at the system time: giving it an error of +1.5 ms and +20 ppm for phc2sys to correct" >&2
		phc_ctl "/dev/ptp$phc" set adj "$tai.0015" freq 20000 >/dev/null
	fi
	phc2sys -s "/dev/ptp$phc" -c CLOCK_REALTIME -O "-$tai" -R 8 -m -q >"$out/phc2sys.log" 2>&1 &
	pids+=("$!")
else
	say "no PHC on eth0 (stock kernel?): no clock sync, no isochron"
fi
ping -c 2 -i 0.2 -W 2 198.18.0.2 >/dev/null || failures+=("no ping through eth0")

# The tuning sweep instead of the measurement (./run-lab.sh tune-taprio FILE)
if [ -n "${LAB_TAPRIO_TUNE:-}" ]; then
	say "tuning sweep around $LAB_TAPRIO_TUNE, p99 bound ${LAB_TAPRIO_TUNE_BOUND_US:-1000} us"
	cp "$LAB_TAPRIO_TUNE" "$out/schedule.sched"
	export LAB_TAPRIO_TUNE_COUNT=${LAB_TAPRIO_TUNE_COUNT:-$tune_count}
	rc=0
	phase tune "$LAB_SRC/workloads/taprio/tune.sh" "$LAB_TAPRIO_TUNE" \
		"${LAB_TAPRIO_TUNE_BOUND_US:-1000}" "$out" || rc=$?
	[ "$rc" = 0 ] || failures+=("the tuning sweep exited $rc")
	"$bin" tune-report --out "$out" --bound-us "${LAB_TAPRIO_TUNE_BOUND_US:-1000}" \
		--name "${LAB_TAPRIO_TUNE_NAME:-$(basename "$LAB_TAPRIO_TUNE")}" "$LAB_TAPRIO_TUNE" ||
		failures+=("taprio tune-report exited $?")
	cat "$out/tune-recommendation.txt" >&2 || true
	{
		echo "taprio schedule tuning around ${LAB_TAPRIO_TUNE_NAME:-$(basename "$LAB_TAPRIO_TUNE")}, $LAB_TAPRIO_TUNE_COUNT packets per class per variant"
		echo
		echo "tune-recommendation.txt says, per class, the shortest window of the sweep with no"
		echo "packet outside it and a p99 gate lateness within the bound; a variant without both"
		echo "figures is never recommended. tune.csv has every variant, tune/<variant>/ its"
		echo "packets and schedule, summary.json their figures (params.schedule: the variant)."
		echo "Under TCG (meta.json: accel) the guest stalls for milliseconds: a class may need a"
		echo "longer window here than on hardware."
	} >"$out/notes.md"
	finish --variants "$out/tune" || exit 1
	exit 0
fi

# 3. The measurement, with the probe
cp "$sched" "$out/schedule.sched"
cp "$sched" "$stage/schedule.sched"
say "measurement: $(basename "$sched"), $count packets per class"
probe=taprio_gate
[ -e /sys/kernel/tracing/events/taprio/taprio_advance ] || probe=taprio_gate_kprobe
probe_ok=0
# A larger ring than bpftrace's default: under TCG its reader falls behind
export BPFTRACE_PERF_RB_PAGES=1024
probe_start "$probe" "$("$bin" tai-mono)" && probe_ok=1
rc=0
phase measure "$bin" run --out "$stage" --count "$count" --rate 100 \
	--sync-threshold "$threshold_ns" --name "$name" "$sched" 2>"$stage/run.err" || rc=$?
cat "$stage/run.err" >&2
if [ "$probe_ok" = 1 ]; then
	probe_stop "$probe"
	# bpftrace's own count of the events its reader lost, a row of the maps
	lost=$(jq -r 'select(.type == "lost_events") | .data.events' "$out/probe-$probe.json" 2>/dev/null |
		awk '{s += $1} END {print s + 0}')
	echo "lost_events,,,,$lost" >>"$out/probe-$probe-maps.csv"
fi
for f in packets.csv gates.csv run-info.csv sync-workload.csv; do
	[ ! -f "$stage/$f" ] || cp "$stage/$f" "$out/$f"
done
case "$rc" in
0) ;;
3) failures+=("$(grep -m1 'refusing to measure' "$stage/run.err")") ;;
4)
	# The kernel refused the schedule: nothing more to measure on it
	failures+=("$(grep -m1 'the kernel refused' "$stage/run.err" || tail -1 "$stage/run.err")")
	finish || exit 1
	exit 0
	;;
*) failures+=("taprio run exited $rc: $(tail -1 "$stage/run.err")") ;;
esac

# 4. isochron: same schedule, class 0, woken a quarter into its window. Without
# --taprio: with it isochron checks each hardware TX timestamp against the
# cycle, and the first packet a guest stall delays by a cycle ends its TX
# timestamp collection (measured: 2 of 1,000 frames timestamped). Lateness
# against the gates is ours to count; isochron gives its latencies.
# The cycle and class 0's first window (start, length), ns
read -r cycle_ns _ w0_off w0_len <<<"$("$bin" window --tc 0 "$sched")"
ns_s() { awk -v n="$1" 'BEGIN {printf "%.9f", n / 1e9}'; }
# iso_prio: $prio, the priority of class 0 by the schedule's map (taprio's
# own parser); without one, a failure and no isochron
iso_prio() {
	prio=$("$bin" prio --tc 0 "$sched" 2>&1) && return 0
	failures+=("no isochron: $prio")
	return 1
}
# iso_rcv: isochron rcv in rx, listening on its stats port ($rcv: its pid);
# started again when the last one is gone
rcv=
iso_rcv() {
	[ -z "$rcv" ] || ! kill -0 "$rcv" 2>/dev/null || return 0
	ip netns exec rx isochron rcv --interface eth1 --quiet --utc-tai-offset "$tai" \
		--stats-address 198.18.0.2 >>"$stage/isochron-rcv.log" 2>&1 &
	rcv=$!
	pids+=("$rcv")
	# Its stats port takes seconds to open under TCG
	for _ in $(seq 100); do
		ip netns exec rx ss -ltn 2>/dev/null | grep -q ':5000 ' && break
		sleep 0.3
	done
}
# iso_round K: isochron sends $round_frames frames of class 0 (round K),
# its rows appended to $stage/isochron.csv (column round)
iso_round() {
	local k=$1 rc=0
	iso_rcv
	"$bin" apply --name "$name" "$sched" >/dev/null
	phase "isochron-$k" isochron send --interface eth0 --client 198.18.0.2 --priority "$prio" \
		--base-time 0 --cycle-time "$(ns_s "$cycle_ns")" --shift-time "$(ns_s $((wake + 500000)))" \
		--advance-time 0.000500000 --window-size "$(ns_s "$w0_len")" --num-frames "$round_frames" \
		--frame-size 128 --omit-sync --utc-tai-offset "$tai" \
		--output-file "$stage/isochron-$k.dat" >>"$stage/isochron-send.log" 2>&1 || rc=$?
	"$bin" clear --dev eth0
	if [ "$rc" != 0 ] || [ ! -f "$stage/isochron-$k.dat" ]; then
		failures+=("isochron send (round $k) exited $rc: $(tail -1 "$stage/isochron-send.log")")
		return 0
	fi
	{
		echo "== round $k"
		isochron report --input-file "$stage/isochron-$k.dat" --summary 2>&1 || true
	} >>"$stage/isochron-summary.txt"
	isochron report --input-file "$stage/isochron-$k.dat" \
		--printf-format "0,%u,%d,%d,%d,%d,%d,%d,%d,$k\n" --printf-args "qSwstTrR" \
		>>"$stage/isochron.csv"
}
# like_round V K: our sender as isochron sends (V: like-isochron, or
# like-isochron-errq with its TX timestamps read by a second thread), round
# K: class 0 only, woken at the same point of each cycle (isochron's base +
# shift - advance), 128-byte frames (86 bytes of UDP payload), no probe;
# its packets appended to $stage/V/packets.csv (column round)
like_round() {
	local v=$1 k=$2 rc=0 extra=()
	[ "$v" = like-isochron ] || extra=(--errqueue-thread)
	mkdir -p "$stage/$v/round-$k"
	phase "$v-$k" "$bin" run --out "$stage/$v/round-$k" --count "$round_frames" \
		--rate "$(awk -v c="$cycle_ns" 'BEGIN {printf "%.6f", 1e9 / c}')" --tc 0 --phase "$wake" \
		--sizes 86 --sync-threshold "$threshold_ns" --name "$name" "${extra[@]}" "$sched" \
		2>>"$stage/$v.err" || rc=$?
	if [ "$rc" != 0 ] || [ ! -f "$stage/$v/round-$k/packets.csv" ]; then
		failures+=("the $v run (round $k) exited $rc: $(tail -1 "$stage/$v.err")")
		return 0
	fi
	# with the round as a last column
	if [ -f "$stage/$v/packets.csv" ]; then
		awk -v k="$k" 'NR > 1 {print $0 "," k}' "$stage/$v/round-$k/packets.csv" >>"$stage/$v/packets.csv"
	else
		awk -v k="$k" 'NR == 1 {print $0 ",round"; next} {print $0 "," k}' \
			"$stage/$v/round-$k/packets.csv" >"$stage/$v/packets.csv"
	fi
}
# The three senders of class 0 in alternating short rounds, isochron,
# like-isochron, like-isochron-errq, again and again, so that a drift of the
# guest over the minutes (host load, TCG) falls on the three alike
if [ -n "$phc" ] && [ "$w0_off" -ge 0 ] && [ "$cycle_ns" -gt 0 ] && iso_prio; then
	wake=$((w0_off + w0_len / 4))
	round_frames=$((iso_frames / iso_rounds))
	say "isochron and our sender alternating: $iso_rounds rounds of $round_frames frames of class 0 each, woken $((wake / 1000)) us into each ${cycle_ns} ns cycle"
	echo "tc,seq,scheduled_ns,wake_ns,sched_ns,tx_ns,hw_tx_ns,rx_ns,hw_rx_ns,round" >"$stage/isochron.csv"
	: >"$stage/isochron-summary.txt"
	for ((k = 1; k <= iso_rounds; k++)); do
		iso_round "$k"
		like_round like-isochron "$k"
		like_round like-isochron-errq "$k"
	done
	[ -z "$rcv" ] || kill "$rcv" 2>/dev/null || true
	[ "$(grep -c '' "$stage/isochron.csv")" -gt 1 ] || rm -f "$stage/isochron.csv"
	for f in isochron.csv isochron-summary.txt isochron-rcv.log isochron-send.log; do
		[ ! -f "$stage/$f" ] || cp "$stage/$f" "$out/"
	done
	for v in like-isochron like-isochron-errq; do
		[ ! -f "$stage/$v/packets.csv" ] || cp "$stage/$v/packets.csv" "$out/packets-$v.csv"
	done
fi

# 5. ptp4l over the wire, software timestamps, the slave free-running. A
# free-running ptp4l prints its offset once per frequency estimate
# (freq_est_interval, 2 s by default; 0, the least it takes, gives 1 s)
if command -v ptp4l >/dev/null; then
	say "ptp4l: eth0 master, rx/eth1 free-running slave, ${ptp4l_s} s"
	printf '[global]\ntx_timestamp_timeout 100\nlogSyncInterval -3\nlogAnnounceInterval -2\npriority1 10\n' >"$stage/master.cfg"
	printf '[global]\ntx_timestamp_timeout 100\nslaveOnly 1\nfree_running 1\nfreq_est_interval 0\nlogAnnounceInterval -2\nannounceReceiptTimeout 3\nsummary_interval -3\n' >"$stage/slave.cfg"
	ptp4l -i eth0 -S -m -q -f "$stage/master.cfg" >"$out/ptp4l-master.log" 2>&1 &
	m=$!
	ip netns exec rx ptp4l -i eth1 -S -m -q -f "$stage/slave.cfg" >"$out/ptp4l-slave.log" 2>&1 &
	s=$!
	pids+=("$m" "$s")
	sleep "$ptp4l_s"
	kill "$m" "$s" 2>/dev/null || true
	# ptp4l[12.345]: master offset -1234 s0 freq +0 path delay 5678
	awk 'BEGIN {print "t_s,offset_ns,path_delay_ns"}
		$2 == "master" && $3 == "offset" && $8 == "path" {
			t = $1; sub(/^[^[]*\[/, "", t); sub(/\].*/, "", t); if (t0 == "") t0 = t
			printf "%.3f,%s,%s\n", t - t0, $4, $10}' "$out/ptp4l-slave.log" >"$out/sync-ptp4l.csv"
fi

# phc2sys's record
if [ -n "$phc" ] && [ -f "$out/phc2sys.log" ]; then
	# phc2sys[20.653]: CLOCK_REALTIME phc offset  -1280242 s0 freq      +0 delay    760
	awk 'BEGIN {print "t_s,offset_ns,state,freq_ppb,delay_ns"}
		$3 == "phc" && $4 == "offset" && $7 == "freq" {
			t = $1; sub(/^[^[]*\[/, "", t); sub(/\].*/, "", t); if (t0 == "") t0 = t
			printf "%.3f,%s,%s,%s,%s\n", t - t0, $5, $6, $8, $10}' "$out/phc2sys.log" >"$out/sync-phc2sys.csv"
fi

# notes.md: this run's schedule and probe, then what each headline figure
# measures and what not (workloads/taprio/notes.md)
{
	echo "taprio gate timing, schedule $name, profile $profile"
	echo
	if [ "$probe" = taprio_gate_kprobe ]; then
		echo "The gate decisions come from a kretprobe (this kernel has no taprio_dequeue"
		echo "tracepoint): the time taprio_dequeue() returned, after the gate check; an interrupt"
		echo "in between makes a packet let through in time look late."
		echo
	fi
	if [ -z "$phc" ]; then
		echo "Clock sync: none; eth0 has no PTP clock on this kernel, so CLOCK_TAI is the system"
		echo "clock plus $tai s, and there is no isochron comparison."
		echo
	fi
	cat "$LAB_SRC/workloads/taprio/notes.md"
} >"$out/notes.md"

# 6. summary.json and targets.json (written in tmpfs, then copied: 9p is slow
# for the rewrites)
for f in probe-taprio_gate.csv probe-taprio_gate_kprobe.csv probe-taprio_gate-maps.csv \
	probe-taprio_gate_kprobe-maps.csv sync-phc2sys.csv sync-ptp4l.csv isochron.csv isochron-summary.txt; do
	[ ! -f "$out/$f" ] || cp "$out/$f" "$stage/$f"
done
finish || exit 1

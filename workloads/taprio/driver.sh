#!/bin/bash
# The taprio gate timing lab in the guest (bench/guest-lib.sh's wl_main runs
# these phases, then `taprio report`, which judges everything from the
# records and raw files left here):
#  1. conformance: tests/guest/ptp.sh (the emulated PTP clock) and
#     tests/guest/taprio.sh (schedules, bad input, the advance tracepoint)
#     into conformance.tap;
#  2. clock sync: `taprio sync-setup` sets the kernel's TAI offset to 37 s
#     and gives the PHC an error to correct when the boot left it at the
#     system time (+1.5 ms, +20 ppm); phc2sys steers CLOCK_REALTIME to it
#     (so CLOCK_TAI, taprio's clock, follows the PHC as on real hardware),
#     its log kept (phc2sys.log);
#  3. the measurement: `taprio run` on the schedule (1,000 packets per class
#     in the quick profile), under perf stat, with probes/taprio_advance.bt
#     (or taprio_advance_kprobe.bt on a stock kernel), which keeps the
#     advances' lateness in the kernel's maps and prints nothing:
#     packets.csv and its record run.json; `taprio run` refuses to measure
#     while |PHC - CLOCK_TAI| exceeds 10 us, and a schedule the kernel
#     refuses ends the phases;
#  3b. the probe pass, on its own (the first boot of a side): a shorter
#     `taprio run` (a fifth of the packets) with probes/taprio_gate.bt (or
#     taprio_gate_kprobe.bt), which prints every advance and every packet
#     the driver gets, into probe-pass/: the gate decisions of the packets
#     (violations_at_dequeue) and the advance timeline, never the headline
#     figures;
#  4. isochron on the same schedule and class 0, woken a quarter into the
#     class's first window of each cycle (`taprio isochron-args` reads both
#     senders' options from the record), --omit-sync (its sync checks want
#     ptp4l; the sync was checked in 3); software timestamps for the
#     comparison, and the emulated hardware ones of patch 0005 (without
#     them isochron 0.9 refuses to run); and our sender as isochron sends
#     (class 0 alone, one 128-byte frame at the same point of each cycle, no
#     probe) for a like-for-like sender latency, its TX timestamps read
#     after each send (like-isochron/round-K), then by a second thread as
#     isochron reads them (like-isochron-errq/round-K). The three in
#     alternating short rounds, A B C A B C ... (iso_rounds of iso_frames /
#     iso_rounds frames each);
#  5. ptp4l between eth0 and rx/eth1, software timestamps over the lab wire,
#     the slave free-running (both ends share the guest's CLOCK_REALTIME),
#     its log kept (ptp4l-slave.log).
# When the run spec names a tuning sweep (taprio.tune: ./run-lab.sh
# tune-taprio FILE), `taprio tune` replaces steps 1 and 3-5.
#
# The schedule: the run spec's taprio.schedule (a file in the run folder;
# messages name it taprio.schedule_name), else
# workloads/taprio/schedules/three-class-10ms.sched.
#
# trace-events: taprio:taprio_advance taprio:taprio_hold taprio:taprio_dequeue net:net_dev_start_xmit
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

tai=37
threshold_ns=10000
phc=
pids=()
# phc2sys, isochron's receiver, ptp4l stopped (their logs final before the
# report reads them), and no taprio left on eth0
wl_cleanup() {
	kill_wait "${pids[@]}"
	pids=()
	"$WL_BIN" clear --dev eth0 >/dev/null 2>&1 || true
}

# The run's counts by profile
counts() {
	case "$PROFILE" in
	quick) count=1000 ptp4l_s=20 iso_frames=1000 iso_rounds=10 tune_count=400 tune_rounds=2 ;;
	full) count=5000 ptp4l_s=60 iso_frames=5000 iso_rounds=25 tune_count=1000 tune_rounds=4 ;;
	esac
	sched=$LAB_SRC/workloads/taprio/schedules/three-class-10ms.sched
	name=$(basename -- "$sched")
	if [ -n "$(spec_get taprio.schedule)" ]; then
		sched=$LAB_OUT/$(spec_get taprio.schedule)
		name=$(spec_get taprio.schedule_name "$(basename -- "$sched")")
	fi
	tune=$(spec_get taprio.tune)
}

# 1. Conformance, one TAP stream of two suites
suites() {
	local t rc
	echo "TAP version 13"
	for t in ptp taprio; do
		echo "# tests/guest/$t.sh"
		rc=0
		"$LAB_SRC/tests/guest/$t.sh" >"$STAGE/$t.tap" 2>&1 || rc=$?
		tap_fold "$STAGE/$t.tap"
		[ "$rc" = 0 ] || fail "tests/guest/$t.sh exited $rc"
	done
	echo "1..$n"
}
checks() {
	[ -z "$tune" ] || return 0
	conform suites
}

# 2. Clock sync
clock_sync() {
	local dev=()
	ask sync-setup dev "$WL_BIN" sync-setup --dev eth0 --tai "$tai" "${RUN_OPTS[@]}" || return 0
	phc=${dev[0]:-}
	if [ -n "$phc" ]; then
		progress "clock sync: phc2sys from $phc to CLOCK_REALTIME, TAI offset $tai s"
		phc2sys -s "$phc" -c CLOCK_REALTIME -O "-$tai" -R 8 -m -q >"$STAGE/phc2sys.log" 2>&1 &
		pids+=("$!")
	else
		progress "no PHC on eth0 (stock kernel?): no clock sync, no isochron"
	fi
	ping -c 2 -i 0.2 -W 2 198.18.0.2 >/dev/null || fail "no ping through eth0"
}

# The tuning sweep instead of the measurement (./run-lab.sh tune-taprio FILE)
sweep() {
	local bound tname
	[ -n "$tune" ] || return 0
	bound=$(spec_get taprio.tune_bound_us 1000)
	tname=$(spec_get taprio.tune_name "$(basename -- "$tune")")
	progress "tuning sweep around $tname, p99 bound $bound us"
	cp "$LAB_OUT/$tune" "$STAGE/schedule.sched"
	measure tune "$WL_BIN" tune --out "$STAGE" --count "$tune_count" --rounds "$tune_rounds" --bound-us "$bound" \
		--sync-threshold "$threshold_ns" --name "$tname" "${RUN_OPTS[@]}" "$LAB_OUT/$tune"
	{
		echo "taprio schedule tuning around $tname, $tune_count packets per class per variant in $tune_rounds rounds over the sweep"
		echo
		echo "tune-recommendation.txt says, per class, the shortest window of the sweep that"
		echo "passes with every longer one passing too: no packet outside it, and its p99 gate"
		echo "lateness's 95% interval within the bound (with too few packets for a p99, on its"
		echo "violations alone, said so); with the share outside's upper bound, and the shorter"
		echo "windows it cannot be told apart from. tune.csv has every variant with its intervals, tune/<variant>/ its"
		echo "record, packets and schedule, tune.json the sweep, summary.json their figures"
		echo "(params.schedule: the variant). Under TCG (meta.json: accel) the guest stalls for"
		echo "milliseconds: a class may need a longer window here than on hardware."
	} >"$STAGE/notes.md"
	wl_stop
}

# 3. The measurement, with the probe that only counts in the kernel's maps
measurement() {
	local probe=taprio_advance probe_ok=0 arg=()
	cp "$sched" "$STAGE/schedule.sched"
	progress "measurement: $name, $count packets per class"
	if [ ! -e /sys/kernel/tracing/events/taprio/taprio_advance ]; then
		probe=taprio_advance_kprobe
		arg=("$("$WL_BIN" tai-mono)")
	fi
	probe_start "$probe" "${arg[@]}" && probe_ok=1
	measure measure "$WL_BIN" run --out "$STAGE" --count "$count" --rate 100 \
		--sync-threshold "$threshold_ns" --name "$name" "${RUN_OPTS[@]}" "$sched"
	[ "$probe_ok" = 0 ] || probe_stop "$probe"
	notes "$probe"
	# The kernel refused the schedule: nothing more to measure on it
	[ "$FAIL_KIND" != refused ] || wl_stop
}

# 3b. The probe pass: the printing probe around a run of its own
probe_pass() {
	local probe=taprio_gate probe_ok=0 main=$LAB_WL_OUT
	[ -f "$STAGE/run.json" ] || return 0
	[ -e /sys/kernel/tracing/events/taprio/taprio_advance ] || probe=taprio_gate_kprobe
	progress "probe pass: $probe around $((count / 5)) packets per class, into probe-pass/"
	mkdir -p "$STAGE/probe-pass"
	# A larger ring than bpftrace's default: under TCG its reader falls behind
	export BPFTRACE_PERF_RB_PAGES=1024
	LAB_WL_OUT=$STAGE/probe-pass
	probe_start "$probe" "$("$WL_BIN" tai-mono)" && probe_ok=1
	measure probe-pass "$WL_BIN" run --out "$STAGE/probe-pass" --count "$((count / 5))" --rate 100 \
		--sync-threshold "$threshold_ns" --name "$name" "${RUN_OPTS[@]}" "$sched"
	[ "$probe_ok" = 0 ] || probe_stop "$probe"
	LAB_WL_OUT=$main
}

# iso_rcv: isochron rcv in rx, listening on its stats port ($rcv: its pid);
# started again when the last one is gone
rcv=
iso_rcv() {
	[ -z "$rcv" ] || ! kill -0 "$rcv" 2>/dev/null || return 0
	ip netns exec rx isochron rcv --interface eth1 --quiet --utc-tai-offset "$tai" \
		--stats-address 198.18.0.2 >>"$STAGE/isochron-rcv.log" 2>&1 &
	rcv=$!
	pids+=("$rcv")
	# Its stats port takes seconds to open under TCG
	for _ in $(seq 100); do
		ip netns exec rx ss -ltn 2>/dev/null | grep -q ':5000 ' && break
		sleep 0.3
	done
}

# iso_round K: isochron sends class 0's frames (round K), its rows appended
# to isochron.csv (column round). Without --taprio: with it isochron checks
# each hardware TX timestamp against the cycle, and the first packet a guest
# stall delays by a cycle ends its TX timestamp collection (measured: 2 of
# 1,000 frames timestamped). Lateness against the gates is ours to count;
# isochron gives its latencies.
iso_round() {
	local k=$1 rc=0
	iso_rcv
	"$WL_BIN" apply "$STAGE/run.json" >/dev/null
	phase "isochron-$k" isochron send --interface eth0 --client 198.18.0.2 "${iso[@]}" \
		--omit-sync --utc-tai-offset "$tai" --output-file "$STAGE/isochron-$k.dat" \
		>>"$STAGE/isochron-send.log" 2>&1 || rc=$?
	"$WL_BIN" clear --dev eth0
	if [ "$rc" != 0 ] || [ ! -f "$STAGE/isochron-$k.dat" ]; then
		fail "isochron send (round $k) exited $rc: $(tail -1 "$STAGE/isochron-send.log")"
		return 0
	fi
	{
		echo "== round $k"
		isochron report --input-file "$STAGE/isochron-$k.dat" --summary 2>&1 || true
	} >>"$STAGE/isochron-summary.txt"
	isochron report --input-file "$STAGE/isochron-$k.dat" \
		--printf-format "0,%u,%d,%d,%d,%d,%d,%d,%d,$k\n" --printf-args "qSwstTrR" \
		>>"$STAGE/isochron.csv"
}

# like_round V K: our sender as isochron sends (V: like-isochron, or
# like-isochron-errq with its TX timestamps read by a second thread), round
# K, into V/round-K: its record and packets
like_round() {
	local v=$1 k=$2 extra=()
	[ "$v" = like-isochron ] || extra=(--errqueue-thread)
	mkdir -p "$STAGE/$v/round-$k"
	measure "$v-$k" "$WL_BIN" run --out "$STAGE/$v/round-$k" "${ours[@]}" \
		--sync-threshold "$threshold_ns" "${extra[@]}" "${RUN_OPTS[@]}" "$STAGE/run.json"
}

# 4. The three senders of class 0 in alternating short rounds, isochron,
# like-isochron, like-isochron-errq, again and again, so that a drift of the
# guest over the minutes (host load, TCG) falls on the three alike
isochron_rounds() {
	local k round_frames=$((iso_frames / iso_rounds))
	iso=() ours=()
	[ -n "$phc" ] && [ -f "$STAGE/run.json" ] || return 0
	ask isochron iso "$WL_BIN" isochron-args --tc 0 --for isochron --frames "$round_frames" \
		"${RUN_OPTS[@]}" "$STAGE/run.json" || return 0
	ask isochron ours "$WL_BIN" isochron-args --tc 0 --for ours --frames "$round_frames" \
		"${RUN_OPTS[@]}" "$STAGE/run.json" || return 0
	progress "isochron and our sender alternating: $iso_rounds rounds of $round_frames frames of class 0 each"
	echo "tc,seq,scheduled_ns,wake_ns,sched_ns,tx_ns,hw_tx_ns,rx_ns,hw_rx_ns,round" >"$STAGE/isochron.csv"
	: >"$STAGE/isochron-summary.txt"
	for ((k = 1; k <= iso_rounds; k++)); do
		iso_round "$k"
		like_round like-isochron "$k"
		like_round like-isochron-errq "$k"
	done
	[ -z "$rcv" ] || kill "$rcv" 2>/dev/null || true
	[ "$(grep -c '' "$STAGE/isochron.csv")" -gt 1 ] || rm -f "$STAGE/isochron.csv"
}

# 5. ptp4l over the wire, software timestamps, the slave free-running. A
# free-running ptp4l prints its offset once per frequency estimate
# (freq_est_interval, 2 s by default; 0, the least it takes, gives 1 s)
ptp4l_pass() {
	local m s
	command -v ptp4l >/dev/null || return 0
	progress "ptp4l: eth0 master, rx/eth1 free-running slave, ${ptp4l_s} s"
	printf '[global]\ntx_timestamp_timeout 100\nlogSyncInterval -3\nlogAnnounceInterval -2\npriority1 10\n' >"$STAGE/master.cfg"
	printf '[global]\ntx_timestamp_timeout 100\nslaveOnly 1\nfree_running 1\nfreq_est_interval 0\nlogAnnounceInterval -2\nannounceReceiptTimeout 3\nsummary_interval -3\n' >"$STAGE/slave.cfg"
	ptp4l -i eth0 -S -m -q -f "$STAGE/master.cfg" >"$STAGE/ptp4l-master.log" 2>&1 &
	m=$!
	ip netns exec rx ptp4l -i eth1 -S -m -q -f "$STAGE/slave.cfg" >"$STAGE/ptp4l-slave.log" 2>&1 &
	s=$!
	pids+=("$m" "$s")
	sleep "$ptp4l_s"
	kill "$m" "$s" 2>/dev/null || true
}

# notes.md: this run's schedule and probe, then what each headline figure
# measures and what not (workloads/taprio/notes.md)
notes() {
	{
		echo "taprio gate timing, schedule $name, profile $PROFILE"
		echo
		if [ "$1" = taprio_advance_kprobe ]; then
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
	} >"$STAGE/notes.md"
}

wl_once checks probe_pass
wl_main counts checks clock_sync sweep measurement probe_pass isochron_rounds ptp4l_pass

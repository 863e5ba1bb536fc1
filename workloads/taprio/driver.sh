#!/bin/bash
# The taprio gate timing lab in the guest (issue 5):
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
#     for the comparison, and the emulated hardware ones of patch 0013
#     (without them isochron 0.9 refuses to run); then our sender as
#     isochron sends (class 0 alone, one 128-byte frame at the same point
#     of each cycle, no probe) for a like-for-like sender latency, twice:
#     its TX timestamps read after each send, then by a second thread as
#     isochron reads them;
#  5. ptp4l between eth0 and rx/eth1, software timestamps over the lab wire,
#     the slave free-running (both ends share the guest's CLOCK_REALTIME),
#     its offsets recorded;
#  6. `taprio report`: summary.json from the CSV files.
# With LAB_TAPRIO_TUNE=FILE (./run-lab.sh tune-taprio FILE) steps 3-5 are
# replaced by the tuning sweep of workloads/taprio/tune.sh.
#
# Run by bench/guest-run.sh with $LAB_WL_OUT, $LAB_PROFILE and $LAB_SRC.
# LAB_TAPRIO_SCHEDULE: the schedule file (workloads/taprio/schedules/three-class-10ms.sched).
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
quick) count=1000 ptp4l_s=20 iso_frames=1000 tune_count=200 ;;
full) count=5000 ptp4l_s=60 iso_frames=5000 tune_count=1000 ;;
*)
	echo "error: unknown profile '$profile' (expected quick or full)" >&2
	exit 2
	;;
esac
failures=()
say() { echo "== $*" >&2; }
# report_stage: summary.json of $stage, failed with the reasons gathered so
# far ($reason: them on one line, empty when none)
report_stage() {
	reason=
	if [ "${#failures[@]}" -gt 0 ]; then
		reason=$(printf '%s; ' "${failures[@]}")
		reason=${reason%; }
	fi
	if [ -n "$reason" ]; then
		"$bin" report "$stage" --failed "$reason"
	else
		"$bin" report "$stage"
	fi
}

# 1. Conformance, one TAP stream (not before a tuning sweep)
n=0
[ -n "${LAB_TAPRIO_TUNE:-}" ] || {
	say "conformance"
	{
		echo "TAP version 13"
		for t in ptp taprio; do
			echo "# tests/guest/$t.sh"
			"$LAB_SRC/tests/guest/$t.sh" >"$stage/$t.tap" 2>&1 || true
			tap_fold "$stage/$t.tap"
		done
		echo "1..$n"
	} >"$stage/conformance.tap"
	cp "$stage/conformance.tap" "$out/conformance.tap"
	bad=$(grep -c '^not ok' "$out/conformance.tap" || true)
	[ "$bad" -eq 0 ] || failures+=("$bad conformance cases failed")
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
	report_stage
	# summary.json: the sweep's figures, each variant named in params.schedule
	for d in "$out"/tune/*/; do
		[ ! -f "$d/summary.json" ] ||
			jq --arg v "$(basename "$d")" '[.metrics[]
				| select(.name == "violations" or .name == "in_window_pct" or .name == "gate_lateness_us")
				| .params.schedule = $v]' "$d/summary.json"
	done >"$stage/variants.json"
	jq --slurpfile v "$stage/variants.json" '.metrics += ($v | add // [])' \
		"$stage/summary.json" >"$out/summary.json"
	{
		echo "taprio schedule tuning around ${LAB_TAPRIO_TUNE_NAME:-$(basename "$LAB_TAPRIO_TUNE")}, $LAB_TAPRIO_TUNE_COUNT packets per class per variant"
		echo
		cat "$out/tune-recommendation.txt" 2>/dev/null || echo "no recommendation: the sweep did not finish"
		echo
		echo "tune.csv has every variant, tune/<variant>/ its packets and schedule. Under TCG"
		echo "(meta.json: accel) the guest stalls for milliseconds: a class may need a longer"
		echo "window here than on hardware."
	} >"$out/notes.md"
	[ -z "$reason" ] || exit 1
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
phase measure "$bin" run "$sched" --out "$stage" --count "$count" --rate 100 \
	--sync-threshold "$threshold_ns" 2>"$stage/run.err" || rc=$?
cat "$stage/run.err" >&2
[ "$probe_ok" = 0 ] || probe_stop "$probe"
for f in packets.csv gates.csv run-info.csv sync-workload.csv; do
	[ ! -f "$stage/$f" ] || cp "$stage/$f" "$out/$f"
done
case "$rc" in
0) ;;
3) failures+=("$(grep -m1 'refusing to measure' "$stage/run.err")") ;;
*) failures+=("taprio run exited $rc: $(tail -1 "$stage/run.err")") ;;
esac

# 4. isochron: same schedule, class 0, woken a quarter into its window. Without
# --taprio: with it isochron checks each hardware TX timestamp against the
# cycle, and the first packet a guest stall delays by a cycle ends its TX
# timestamp collection (measured: 2 of 1,000 frames timestamped). Lateness
# against the gates is ours to count; isochron gives its latencies.
# The cycle and class 0's first window (start, length), ns
read -r cycle_ns _ w0_off w0_len <<<"$("$bin" window "$sched" --tc 0)"
ns_s() { awk -v n="$1" 'BEGIN {printf "%.9f", n / 1e9}'; }
if [ -n "$phc" ] && [ "$w0_off" -ge 0 ] && [ "$cycle_ns" -gt 0 ]; then
	wake=$((w0_off + w0_len / 4))
	say "isochron: $iso_frames frames of class 0, woken $((wake / 1000)) us into each ${cycle_ns} ns cycle"
	"$bin" apply "$sched" >/dev/null
	prio=$(awk '/^map/ {for (i = 2; i <= NF; i++) if ($i == 0) {print i - 2; exit}}' "$sched")
	ip netns exec rx isochron rcv --interface eth1 --quiet --utc-tai-offset "$tai" \
		--stats-address 198.18.0.2 \
		>"$stage/isochron-rcv.log" 2>&1 &
	rcv=$!
	pids+=("$rcv")
	# Its stats port takes seconds to open under TCG
	for _ in $(seq 100); do
		ip netns exec rx ss -ltn 2>/dev/null | grep -q ':5000 ' && break
		sleep 0.3
	done
	rc=0
	phase isochron isochron send --interface eth0 --client 198.18.0.2 --priority "${prio:-3}" \
		--base-time 0 --cycle-time "$(ns_s "$cycle_ns")" --shift-time "$(ns_s $((wake + 500000)))" \
		--advance-time 0.000500000 --window-size "$(ns_s "$w0_len")" --num-frames "$iso_frames" \
		--frame-size 128 --omit-sync --utc-tai-offset "$tai" \
		--output-file "$stage/isochron.dat" >"$stage/isochron-send.log" 2>&1 || rc=$?
	kill "$rcv" 2>/dev/null || true
	"$bin" clear --dev eth0
	if [ "$rc" = 0 ] && [ -f "$stage/isochron.dat" ]; then
		isochron report --input-file "$stage/isochron.dat" --summary >"$out/isochron-summary.txt" 2>&1 || true
		{
			echo "tc,seq,scheduled_ns,wake_ns,sched_ns,tx_ns,hw_tx_ns,rx_ns,hw_rx_ns"
			isochron report --input-file "$stage/isochron.dat" \
				--printf-format "0,%u,%d,%d,%d,%d,%d,%d,%d\n" --printf-args "qSwstTrR"
		} >"$out/isochron.csv"
	else
		failures+=("isochron send exited $rc: $(tail -1 "$stage/isochron-send.log")")
	fi
	cp "$stage"/isochron-*.log "$out/" 2>/dev/null || true

	# 4b. Our sender as isochron sends, for a like-for-like sender latency:
	# class 0 only, woken at the same point of each cycle (isochron's base +
	# shift - advance), 128-byte frames (86 bytes of UDP payload), no probe;
	# its TX timestamps read after each send (as in the measurement), then
	# by a second thread blocked on the error queue (as isochron reads them)
	for v in like-isochron like-isochron-errq; do
		say "$v: $iso_frames packets of class 0, woken at the same point, no probe"
		extra=()
		[ "$v" = like-isochron ] || extra=(--errqueue-thread)
		mkdir -p "$stage/$v"
		rc=0
		phase "$v" "$bin" run "$sched" --out "$stage/$v" --count "$iso_frames" \
			--rate "$(awk -v c="$cycle_ns" 'BEGIN {printf "%.6f", 1e9 / c}')" --tc 0 --phase "$wake" \
			--sizes 86 --sync-threshold "$threshold_ns" "${extra[@]}" 2>"$stage/$v.err" || rc=$?
		if [ "$rc" = 0 ]; then
			"$bin" report "$stage/$v" 2>/dev/null
			cp "$stage/$v/packets.csv" "$out/packets-$v.csv"
		else
			failures+=("the $v run exited $rc: $(tail -1 "$stage/$v.err")")
		fi
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

# 6. summary.json (written in tmpfs, then copied: 9p is slow for the rewrites)
for f in probe-taprio_gate.csv probe-taprio_gate_kprobe.csv sync-phc2sys.csv sync-ptp4l.csv isochron.csv isochron-summary.txt; do
	[ ! -f "$out/$f" ] || cp "$out/$f" "$stage/$f"
done
report_stage
# The like-isochron sender latencies beside the rest
for v in like-isochron like-isochron-errq; do
	[ -f "$stage/$v/summary.json" ] || continue
	jq --slurpfile l "$stage/$v/summary.json" --arg v "$v" '.metrics += [$l[0].metrics[]
		| select((.name == "sender_latency_us" and .params.packets == "all")
			or .name == "wake_to_enqueue_us" or .name == "enqueue_to_tx_us")
		| .params.packets = $v]' "$stage/summary.json" >"$stage/summary.json.tmp"
	mv "$stage/summary.json.tmp" "$stage/summary.json"
done
cp "$stage/summary.json" "$out/summary.json"

# notes.md: the issue's targets against what this run measured, plainly
{
	sum=$out/summary.json
	m() { # m NAME FIELD [TC [EXTRA_PARAM VALUE]]; FIELD may be params.KEY
		jq -r --arg n "$1" --arg f "$2" --arg tc "${3:-}" --arg k "${4:-}" --arg v "${5:-}" '
			[.metrics[] | select(.name == $n and ($tc == "" or .params.tc == $tc)
				and ($k == "" or .params[$k] == $v))][0]
			| (if ($f | startswith("params.")) then .params[$f[7:]] else .[$f] end) // "n/a"' "$sum"
	}
	echo "taprio gate timing, schedule $(basename "$sched"), profile $profile"
	echo
	echo "Target: 0 packets outside their windows over $count packets per class."
	for tc in 0 1 2; do
		v=$(m violations median "$tc")
		[ "$v" != n/a ] || continue
		verdict="not met"
		[ "$v" != 0 ] || verdict=met
		echo "- class $tc: $v of $(m in_window_pct n "$tc") outside at the driver's TX timestamp ($verdict);" \
			"at taprio's gate decision ($(m violations_at_dequeue params.probe "$tc")):" \
			"$(m violations_at_dequeue median "$tc") of the" \
			"$(m violations_at_dequeue params.packets_seen_by_probe "$tc") packets the probe saw;" \
			"$(m violations_after_gate median "$tc") passed the gate inside their window and reached the" \
			"driver after it closed (taprio dequeue to driver for those: median" \
			"$(m dequeue_to_tx_us median "$tc" packets outside-at-tx) us, max $(m dequeue_to_tx_us max "$tc" packets outside-at-tx) us;" \
			"for all packets: median $(m dequeue_to_tx_us median "$tc" packets all) us, p99 $(m dequeue_to_tx_us p99 "$tc" packets all) us)."
	done
	if [ "$(m violations_at_dequeue params.probe 0)" = kretprobe ]; then
		echo "(kretprobe, on a kernel without the taprio_dequeue tracepoint: the time taprio_dequeue() returned," \
			"after the gate check; an interrupt in between makes a packet let through in time look late.)"
	fi
	echo
	echo "Gate advance lateness ($(m advance_lateness_us params.probe)): p50 $(m advance_lateness_us median) us," \
		"p99 $(m advance_lateness_us p99) us, max $(m advance_lateness_us max) us, n $(m advance_lateness_us n)" \
		"of $(grep '^"@advances"' "$out/probe-$probe-maps.csv" 2>/dev/null | cut -d, -f5 || echo '?') advances" \
		"(bpftrace drops printf events when its reader falls behind)."
	theirs=$(m isochron_sender_latency_us median 0)
	echo
	if [ -z "$phc" ]; then
		echo "No isochron comparison: eth0 has no PTP clock on this kernel (isochron refuses such an interface)."
	else
		echo "Sender latency, class 0 (driver TX - wake-up), medians, like for like: one 128-byte frame a" \
			"quarter into class 0's window each cycle, alone on the wire, no probe."
		echo "- isochron: $theirs us (n $(m isochron_sender_latency_us n 0), p99 $(m isochron_sender_latency_us p99 0) us);" \
			"wake-up to the qdisc (SCHED timestamp) $(m isochron_wake_to_enqueue_us median 0) us, the qdisc to the driver" \
			"(software TX timestamp) $(m isochron_enqueue_to_tx_us median 0) us."
		for v in like-isochron-errq like-isochron; do
			what="TX timestamps read by a second thread blocked on the error queue, as isochron reads them"
			[ "$v" = like-isochron-errq ] || what="TX timestamps read by the sending thread after each send, as in the measurement"
			echo "- ours, $what: $(m sender_latency_us median 0 packets "$v") us" \
				"(n $(m sender_latency_us n 0 packets "$v"), p99 $(m sender_latency_us p99 0 packets "$v") us);" \
				"wake-up to the qdisc $(m wake_to_enqueue_us median 0 packets "$v") us, the qdisc to the driver" \
				"$(m enqueue_to_tx_us median 0 packets "$v") us."
		done
		ours=$(m sender_latency_us median 0 packets like-isochron-errq)
		if [ "$ours" != n/a ] && [ "$theirs" != n/a ] && [ "$theirs" != null ] &&
			[ "$(m isochron_sender_latency_us n 0)" -ge 10 ]; then
			awk -v a="$ours" -v b="$theirs" 'BEGIN {d = (b - a) / a * 100; if (d < 0) d = -d
				printf "Ours (read as isochron reads) against isochron: %.0f%% of ours apart: %s (target: within 20%%).\n",
					d, d <= 20 ? "met" : "not met"}'
		else
			echo "No comparison: isochron gave fewer than 10 complete samples in this run (see isochron-summary.txt)."
		fi
	fi
	echo "In the measurement (three classes at once, 64 to 1400 bytes at random phases, the probe attached)" \
		"class 0's median is $(m sender_latency_us median 0 packets gate-open-at-wake) us for packets whose gate was" \
		"open at wake-up, $(m sender_latency_us median 0 packets all) us for all (those include the wait for the gate)."
	echo
	if [ -n "$phc" ]; then
		echo "Clock sync: PHC - CLOCK_TAI median $(m sync_offset_ns median "" source workload) ns," \
			"max $(m sync_offset_ns max "" source workload) ns; the run refuses to measure above $threshold_ns ns."
	else
		echo "Clock sync: none; eth0 has no PTP clock on this kernel, so CLOCK_TAI is the system clock plus $tai s."
	fi
	echo
	echo "Under TCG (meta.json: accel) a vCPU stalls for milliseconds whenever the host runs something"
	echo "else on its core: late gate advances, and packets that passed their gate in time but reached"
	echo "the driver after it closed, are the emulation's. Compare runs of the same host, load and"
	echo "vCPU count."
} >"$out/notes.md.tmp" 2>/dev/null && mv "$out/notes.md.tmp" "$out/notes.md"
[ -z "$reason" ] || {
	echo "taprio: $reason" >&2
	exit 1
}

#!/bin/bash
# The LED pattern trigger lab in the guest:
#  1. `ledjitter conform`: the pattern ABI, for pattern and abs_pattern, into
#     conformance.tap;
#  2. probes/led_timer.bt attached (the kernel observer) for the rest;
#  3. idle guest: cyclictest (histogram), then `ledjitter run --load idle`
#     (every step duration of the profile, pattern and abs_pattern);
#  4. busy guest (a CPU hog per vCPU plus iperf3 over the lab wire, eth0 to
#     the rx namespace): the same again with --load busy;
#  5. `ledjitter report`: summary.json, targets.json and the CSV files. The
#     failures of the steps before (a probe that did not attach, cyclictest
#     or a run that failed) go to it as --failed REASON: the summary's status
#     is then "failed" with them as the reason. The shell writes no JSON.
# Every phase runs under perf stat (perf-stat.txt). The results are written
# into a tmpfs folder and copied into the share at the end: summary.json is
# rewritten once per metric, and writes over 9p are slow under TCG.
#
# quick profile: steps of 1, 10, 100 ms (300, 300, 100 steps), cyclictest
# 10 s per load; full: 1, 5, 10, 50, 100 ms (2000, 2000, 2000, 400, 200
# steps), cyclictest 30 s. On a kernel without abs_pattern (--kernel stock)
# the abs_pattern cells and conformance cases are skipped, and say so.
#
# Run by bench/guest-run.sh with $LAB_WL_OUT, $LAB_PROFILE and $LAB_SRC.
#
# trace-events: timer:timer_expire_entry timer:hrtimer_expire_entry
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

out=$LAB_WL_OUT
bin=$LAB_SRC/build/ledjitter
profile=${LAB_PROFILE:-quick}
case "$profile" in
quick) ct_secs=10 ;;
full) ct_secs=30 ;;
*)
	echo "error: unknown profile '$profile' (expected quick or full)" >&2
	exit 2
	;;
esac
[ -x "$bin" ] || {
	echo "error: no $bin: run make all on the host" >&2
	exit 1
}

stage=$(mktemp -d /tmp/ledjitter.XXXXXX)
export LAB_WL_OUT=$stage
load_pids=()
stop_load() {
	local p
	for p in "${load_pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${load_pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	load_pids=()
}
finish() {
	stop_load
	cp -r "$stage"/. "$out"/
	rm -rf -- "$stage"
}
trap finish EXIT
trap 'exit 130' INT TERM

# start_load: a busy loop per vCPU and an iperf3 stream from eth0 to rx/eth1
start_load() {
	local i
	for ((i = 0; i < $(nproc); i++)); do
		sh -c 'while :; do :; done' &
		load_pids+=("$!")
	done
	ip netns exec rx iperf3 -s >"$stage/iperf3-server.log" 2>&1 &
	load_pids+=("$!")
	sleep 1
	iperf3 -c 198.18.0.2 -t 3600 -i 10 >"$stage/iperf3-client.log" 2>&1 &
	load_pids+=("$!")
	sleep 2
	echo "load: $(nproc) CPU hogs, iperf3 to 198.18.0.2 ($(grep -c 'bits/sec' "$stage/iperf3-client.log" || true) reports so far)" >&2
}

# say MESSAGE: a progress line with the guest's time of day
say() {
	echo "[$(date +%T)] ledjitter: $*" >&2
}

failures=()
hz=$(zcat /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')
{
	echo "name,value"
	echo "kernel_release,$(uname -r)"
	echo "hz,$hz"
	echo "vcpus,$(nproc)"
	echo "clocksource,$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "profile,$profile"
	echo "cyclictest_seconds,$ct_secs"
} >"$stage/guest-env.csv"

# 1. Conformance
say "conformance suite"
if ! phase conformance "$bin" conform >"$stage/conformance.tap"; then
	failures+=("conformance: $(grep -c '^not ok' "$stage/conformance.tap") case(s) failed")
fi
grep -E '^# [0-9]+ passed' "$stage/conformance.tap" >&2 || true

# 2.-4. The measurements, watched by the kernel observer
# a larger ring buffer than bpftrace's 64 pages per CPU: at 1 ms steps on a
# busy guest the default one overflows and the kernel observer loses events
export BPFTRACE_PERF_RB_PAGES=1024
say "attaching probes/led_timer.bt"
probed=0
if probe_start led_timer; then
	probed=1
else
	failures+=("the kernel observer (probes/led_timer.bt) did not attach: see probe-led_timer.err")
fi
for load in idle busy; do
	say "$load guest"
	[ "$load" = idle ] || start_load
	# chrt: cyclictest's main thread, which prints the histogram at the
	# end, must not starve behind the hogs (its measuring threads are at 80)
	phase "cyclictest-$load" chrt -f 1 cyclictest -m -S -p 80 -i 1000 -D "${ct_secs}s" -h 100000 -q \
		--histfile="$stage/cyclictest-$load.hist" >"$stage/cyclictest-$load.log" 2>&1 ||
		failures+=("cyclictest ($load) failed: $(tail -2 "$stage/cyclictest-$load.log")")
	phase "run-$load" "$bin" run --profile "$profile" --load "$load" --out "$stage" ||
		failures+=("ledjitter run --load $load failed")
	[ "$load" = idle ] || stop_load
done
if [ "$probed" = 1 ]; then
	probe_stop led_timer
	lost=$(grep '"lost_events"' "$stage/probe-led_timer.json" |
		jq -s '[.[] | select(.type == "lost_events") | .data.events] | add // 0')
	printf 'lost_events\n%s\n' "$lost" >"$stage/probe-led_timer-lost.csv"
	[ "$lost" = 0 ] || echo "warning: the kernel observer lost $lost events (bpftrace's ring buffer)" >&2
fi

# 5. The report: both observers against the model, with the failures so far
say "report"
report_args=()
for reason in "${failures[@]}"; do
	report_args+=(--failed "$reason")
done
"$bin" report --out "$stage" "${report_args[@]}" || failures+=("ledjitter report failed")
# cyclictest's raw histograms list every 1 us bucket up to 100 ms: keep them
# compressed (cyclictest-LOAD.csv has the non-empty buckets)
gzip -f "$stage"/cyclictest-*.hist 2>/dev/null || true

say "done"
if [ "${#failures[@]}" -gt 0 ]; then
	printf 'ledjitter: %s\n' "${failures[@]}" >&2
	exit 1
fi

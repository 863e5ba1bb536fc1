#!/bin/bash
# The LED pattern trigger lab in the guest (bench/guest-lib.sh's wl_main runs
# these phases, then `ledjitter report`, which takes the failures of the
# phases as its reasons):
#  1. `ledjitter conform`: the pattern ABI, for pattern, abs_pattern and
#     (Linux 6.10 and later) mainline's hr_pattern, into conformance.tap;
#  2. probes/led_timer.bt attached (the kernel observer) for the rest;
#  3. idle guest: cyclictest (histogram), then `ledjitter run --load idle`
#     (every step duration of the profile, pattern, abs_pattern and, where
#     the kernel has mainline's, hr_pattern);
#  4. busy guest (a CPU hog per vCPU plus iperf3 over the lab wire, eth0 to
#     the rx namespace): the same again with --load busy.
# Every phase runs under perf stat (perf-stat.txt).
#
# quick profile: steps of 1, 10, 100 ms (300, 300, 100 steps), cyclictest
# 10 s per load; full: 1, 5, 10, 50, 100 ms (2000, 2000, 2000, 400, 200
# steps), cyclictest 30 s. On a kernel without abs_pattern (--kernel stock)
# the abs_pattern cells and conformance cases are skipped, and say so; a
# kernel before 6.10 has no hr_pattern of mainline's, and runs none.
#
# trace-events: timer:timer_expire_entry timer:hrtimer_expire_entry
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

wl_cleanup() { load_stop; }

ct_secs() { if [ "$PROFILE" = quick ]; then echo 10; else echo 30; fi; }

# The guest, for the record
guest_env() {
	{
		echo "name,value"
		echo "kernel_release,$(uname -r)"
		echo "hz,$(zcat /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')"
		echo "vcpus,$(nproc)"
		echo "clocksource,$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
		echo "profile,$PROFILE"
		echo "cyclictest_seconds,$(ct_secs)"
	} >"$STAGE/guest-env.csv"
}

checks() { conform "$WL_BIN" conform; }

# The measurements, idle then busy, watched by the kernel observer: a larger
# ring buffer than bpftrace's 64 pages per CPU (at 1 ms steps on a busy guest
# the default one overflows and the kernel observer loses events)
measurements() {
	local load
	export BPFTRACE_PERF_RB_PAGES=1024
	probes_start led_timer
	for load in idle busy; do
		progress "$load guest"
		[ "$load" = idle ] || load_start
		# chrt: cyclictest's main thread, which prints the histogram at the
		# end, must not starve behind the hogs (its measuring threads are at 80)
		phase "cyclictest-$load" chrt -f 1 cyclictest -m -S -p 80 -i 1000 -D "$(ct_secs)s" -h 100000 -q \
			--histfile="$STAGE/cyclictest-$load.hist" >"$STAGE/cyclictest-$load.log" 2>&1 ||
			fail "cyclictest ($load) failed: $(tail -2 "$STAGE/cyclictest-$load.log")"
		measure "run-$load" "$WL_BIN" run --profile "$PROFILE" --load "$load" --out "$STAGE" "${RUN_OPTS[@]}"
		[ "$load" = idle ] || load_stop
	done
	probes_stop
}

# cyclictest's raw histograms list every 1 us bucket up to 100 ms: kept
# compressed (the report reads them so; cyclictest-LOAD.csv has the
# non-empty buckets)
pack() { gzip -f "$STAGE"/cyclictest-*.hist 2>/dev/null || true; }

wl_once checks
wl_main guest_env checks measurements pack

#!/bin/bash
# The platform's noise in the guest, by the kernel's own tracers
# (bench/guest-lib.sh's wl_main runs these phases, then `noise report`):
#  1. `noise conform`: timerlat and osnoise give data on every vCPU, bad
#     knob values are refused, tracefs is left as found; into
#     conformance.tap;
#  2. idle guest: `noise run --load idle`: timerlat, then osnoise, on every
#     vCPU for the profile's seconds each;
#  3. busy guest (the lab's load, load_start: a CPU hog per vCPU plus iperf3
#     over the lab wire): the same with --load busy.
# No probe watches them: the tracers are the observer. The accelerator QEMU
# runs on (bench/vm.sh's guest/accel) names the noise no interference
# explains: under TCG the host not running the vCPU's thread.
#
# quick profile: 10 s per tracer and load (timerlat every 1 ms: about 10000
# activations per vCPU and context); full: 60 s.
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

wl_cleanup() { load_stop; }

run_secs() { if [ "$PROFILE" = quick ]; then echo 10; else echo 60; fi; }

# The accelerator bench/vm.sh chose (unknown outside a lab boot)
accel() {
	local a
	a=$(cat "$LAB_OUT/guest/accel" 2>/dev/null || true)
	case "$a" in kvm | tcg) echo "$a" ;; *) echo unknown ;; esac
}

# The guest, for the record
guest_env() {
	{
		echo "name,value"
		echo "kernel_release,$(uname -r)"
		echo "hz,$(zcat /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')"
		echo "vcpus,$(nproc)"
		echo "host_cpus,$(spec_get host_cpus unknown)"
		echo "accel,$(accel)"
		echo "clocksource,$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
		echo "profile,$PROFILE"
		echo "seconds_per_tracer,$(run_secs)"
	} >"$STAGE/guest-env.csv"
}

checks() { conform "$WL_BIN" conform; }

measurements() {
	local load
	for load in idle busy; do
		progress "$load guest: timerlat then osnoise, $(run_secs) s each on $(nproc) vCPUs"
		[ "$load" = idle ] || load_start
		measure "run-$load" "$WL_BIN" run --load "$load" --seconds "$(run_secs)" \
			--accel "$(accel)" --out "$STAGE" "${RUN_OPTS[@]}"
		[ "$load" = idle ] || load_stop
	done
}

wl_once checks
wl_main guest_env checks measurements

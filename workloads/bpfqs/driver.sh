#!/bin/bash
# The BPF queue and stack map lab in the guest (bench/guest-lib.sh's wl_main
# runs these phases, then `bpfqs report`):
#  1. `bpfqs conform` (the maps' semantics, the in-program relay, bad
#     input) into conformance.tap;
#  2. `bpfqs run` under perf stat: ns per operation from user space and
#     from programs, contention; the raw CSV files;
#  3. probes/bpf_map.bt around a separate, known load (`bpfqs probe-load`),
#     never around the measurements (a kretprobe costs more than the
#     operations it watches); probe-attach.csv says which functions exist,
#     and the report compares what the probe counted with what the load did
#     (probe-check.csv).
# The run spec's host_cpus (the host's CPU count) caps the contention
# threads. LAB_BPFQS_ARGS adds options to `bpfqs run` (see `bpfqs run --help`).
#
# trace-events: syscalls:sys_enter_bpf syscalls:sys_exit_bpf
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

probe_ops=1024

# The guest, for the record
guest_env() {
	{
		echo "name,value"
		echo "kernel_release,$(uname -r)"
		echo "vcpus,$(nproc)"
		echo "host_cpus,$(spec_get host_cpus unknown)"
		echo "bpf_jit_enable,$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo unknown)"
		echo "clocksource,$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
		echo "profile,$PROFILE"
	} >"$STAGE/guest-env.csv"
}

checks() { conform "$WL_BIN" conform; }

# The measurement (quiet guest: no probe attached)
measurement() {
	local host=() cpus
	cpus=$(spec_get host_cpus)
	if [ -n "$cpus" ]; then
		host=(--host-cpus "$cpus")
	else
		echo "bpfqs: the run spec has no host_cpus: contention threads up to the vCPUs, which may outnumber the host's CPUs" >&2
	fi
	# shellcheck disable=SC2086 # LAB_BPFQS_ARGS is a word list
	measure run "$WL_BIN" run --profile "$PROFILE" --out "$STAGE" "${host[@]}" "${RUN_OPTS[@]}" ${LAB_BPFQS_ARGS:-}
}

# The probe around a known load
probe_pass() {
	local fn k t
	{
		echo "function,in_kallsyms,ftrace_traceable"
		for fn in queue_stack_map_push_elem queue_map_pop_elem queue_map_peek_elem \
			stack_map_pop_elem stack_map_peek_elem __queue_map_get __stack_map_get; do
			k=no t=no
			grep -qE " [tT] $fn\$" /proc/kallsyms && k=yes
			grep -qE "^$fn( |\$)" /sys/kernel/tracing/available_filter_functions 2>/dev/null && t=yes
			echo "$fn,$k,$t"
		done
	} >"$STAGE/probe-attach.csv"
	probes_start bpf_map
	[ "${#WL_PROBES[@]}" -gt 0 ] || return 0
	measure probe-load "$WL_BIN" probe-load --ops "$probe_ops" --out "$STAGE" "${RUN_OPTS[@]}"
	sleep 1.2 # one interval line of the probe at least
	probes_stop
}

wl_once checks probe_pass
wl_main guest_env checks measurement probe_pass

#!/bin/bash
# The BPF queue and stack map lab in the guest:
#  1. `bpfqs conform` (the maps' semantics, the in-program relay, bad
#     input) into conformance.tap;
#  2. `bpfqs run` under perf stat: ns per operation from user space and
#     from programs, contention; the raw CSV files (its messages: run.log);
#  3. probes/bpf_map.bt around a separate, known load (`bpfqs probe-load`),
#     never around the measurements (a kretprobe costs more than the
#     operations it watches); probe-check.csv compares what it counted
#     with what the load did, probe-attach.csv says which functions exist;
#  4. `bpfqs report --failed REASON...` with the reasons collected here:
#     summary.json, targets.json, notes.md and the figures' CSV files.
# run and report write into a tmpfs folder, copied here afterwards:
# report rewrites (and fsyncs) summary.json once per metric and target,
# which over the 9p share took half a minute under TCG.
#
# Run by bench/guest-run.sh with $LAB_WL_OUT, $LAB_PROFILE and $LAB_SRC;
# $LAB_HOST_CPUS (the host's CPU count, from bench/run.sh) caps the
# contention threads. LAB_BPFQS_ARGS adds options to `bpfqs run` (see
# `bpfqs run --help`).
#
# trace-events: syscalls:sys_enter_bpf syscalls:sys_exit_bpf
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

out=$LAB_WL_OUT
bin=$LAB_SRC/build/bpfqs
profile=${LAB_PROFILE:-quick}
probe_ops=1024
stage=$(mktemp -d /tmp/bpfqs.XXXXXX)
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 130' INT TERM

if [ ! -x "$bin" ]; then
	echo "error: no $bin: run make all on the host" >&2
	exit 1
fi
failures=()

# report DIR: summary.json and targets.json in DIR, with the failures so far
report() {
	local args=() f
	for f in "${failures[@]}"; do
		args+=(--failed "$f")
	done
	"$bin" report --out "$1" "${args[@]}"
}

case "$profile" in
quick | full) ;;
*)
	echo "error: unknown profile '$profile' (expected quick or full)" >&2
	failures+=("unknown profile '$profile' (expected quick or full)")
	report "$out" || true
	exit 2
	;;
esac

# The guest, for the record
{
	echo "name,value"
	echo "kernel_release,$(uname -r)"
	echo "vcpus,$(nproc)"
	echo "host_cpus,${LAB_HOST_CPUS:-unknown}"
	echo "bpf_jit_enable,$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo unknown)"
	echo "clocksource,$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
	echo "profile,$profile"
} >"$out/guest-env.csv.tmp"
mv "$out/guest-env.csv.tmp" "$out/guest-env.csv"

# 1. Conformance
if ! phase conform "$bin" conform >"$out/conformance.tap.tmp"; then
	failures+=("conformance: $(grep -c '^not ok' "$out/conformance.tap.tmp") case(s) failed, see conformance.tap")
fi
mv "$out/conformance.tap.tmp" "$out/conformance.tap"
grep -E '^# [0-9]+ passed' "$out/conformance.tap" >&2 || true

# to_share: the files of the tmpfs folder into the share, copied beside,
# then each renamed into place (two commands: every exec costs a fraction
# of a second under TCG)
to_share() {
	compgen -G "$stage/*" >/dev/null || return 0
	mkdir -p "$out/.stage"
	cp -- "$stage"/* "$out/.stage/"
	mv -f -t "$out" -- "$out/.stage"/*
	rmdir "$out/.stage"
}

# 2. The measurement (quiet guest: no probe attached); its messages in
# run.log, the last line the reason when it fails
host=()
if [ -n "${LAB_HOST_CPUS:-}" ]; then
	host=(--host-cpus "$LAB_HOST_CPUS")
else
	echo "bpfqs: LAB_HOST_CPUS is not set: contention threads up to the vCPUs, which may outnumber the host's CPUs" >&2
fi
# shellcheck disable=SC2086 # LAB_BPFQS_ARGS is a word list
if ! phase run "$bin" run --profile "$profile" --out "$stage" "${host[@]}" ${LAB_BPFQS_ARGS:-} 2>"$out/run.log"; then
	why=$(sed -n 's/^bpfqs: run failed: //p' "$out/run.log" | tail -1)
	failures+=("bpfqs run failed: ${why:-see run.log}")
fi
cat "$out/run.log" >&2
to_share

# 3. The probe around a known load
{
	echo "function,in_kallsyms,ftrace_traceable"
	for fn in queue_stack_map_push_elem queue_map_pop_elem queue_map_peek_elem \
		stack_map_pop_elem stack_map_peek_elem __queue_map_get __stack_map_get; do
		k=no t=no
		grep -qE " [tT] $fn\$" /proc/kallsyms && k=yes
		grep -qE "^$fn( |\$)" /sys/kernel/tracing/available_filter_functions 2>/dev/null && t=yes
		echo "$fn,$k,$t"
	done
} >"$out/probe-attach.csv.tmp"
mv "$out/probe-attach.csv.tmp" "$out/probe-attach.csv"
if probe_start bpf_map; then
	phase probe-load "$bin" probe-load --ops "$probe_ops" --out "$out" ||
		failures+=("bpfqs probe-load failed")
	sleep 1.2 # one interval line of the probe at least
	probe_stop bpf_map
	# what the probe counted against what the load did
	if [ -f "$out/probe-expected.csv" ] && [ -f "$out/probe-bpf_map-maps.csv" ]; then
		awk -F, '
			NR == FNR { if (FNR > 1) { gsub(/"/, ""); got[$1 "," $2] = $5 } next }
			FNR == 1 { print "map,key,expected,counted,match"; next }
			{
				c = ($1 "," $2) in got ? got[$1 "," $2] : 0
				print $1 "," $2 "," $3 "," c "," (c == $3 ? "yes" : "no")
			}' "$out/probe-bpf_map-maps.csv" "$out/probe-expected.csv" >"$out/probe-check.csv.tmp"
		mv "$out/probe-check.csv.tmp" "$out/probe-check.csv"
		bad=$(grep -c ',no$' "$out/probe-check.csv" || true)
		[ "$bad" = 0 ] || failures+=("probe: $bad count(s) differ from the known load, see probe-check.csv")
	else
		failures+=("probe: no probe-expected.csv or probe-bpf_map-maps.csv")
	fi
else
	failures+=("probe: bpftrace could not attach probes/bpf_map.bt: $(tail -3 "$out/probe-bpf_map.err" 2>/dev/null | tr '\n' ' ')")
fi

# 4. The summary and the targets, with every failure collected above
if ! report "$stage"; then
	echo "bpfqs report failed" >&2
	failures+=("bpfqs report failed")
fi
# only what report wrote: the measurement's files are in the share already
for f in summary.json targets.json notes.md ns-per-op.csv contention.csv ratio.csv; do
	[ ! -f "$stage/$f" ] || cp -- "$stage/$f" "$out/.$f.tmp"
done
for f in summary.json targets.json notes.md ns-per-op.csv contention.csv ratio.csv; do
	[ ! -f "$out/.$f.tmp" ] || mv -f -- "$out/.$f.tmp" "$out/$f"
done

if [ "${#failures[@]}" -gt 0 ]; then
	printf 'failed: %s\n' "${failures[@]}" >&2
	exit 1
fi

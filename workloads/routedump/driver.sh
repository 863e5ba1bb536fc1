#!/bin/bash
# The route dump lab in the guest (bench/guest-lib.sh's wl_main runs these
# phases, then `routedump report`): the strict-checking conformance suite
# into conformance.tap, then `routedump run` (the measurement, no probe
# attached), then the probe pass: a run of its own into probe-pass/ with
# probes/route_dump.bt watching the kernel's dump handlers and
# probes/route_insert.bt timing the kernel's own route inserts (its figures
# are not the measurement; the kernel's insert cost is the batched insert's
# physical limit). The routes live in a network namespace made for each run
# and removed after it, whatever happened; the driver then waits until the
# kernel has freed them (that runs in the background and would disturb
# whatever is measured next).
#
# LAB_ROUTEDUMP_SEED fixes the fuzz seed (default: random, recorded in
# conformance.tap and fuzz.csv); LAB_ROUTEDUMP_ARGS adds options to run;
# LAB_ROUTEDUMP_SUITE is the conformance suite to run (default
# tests/guest/routedump.sh; the guest tests put a stand-in there).
#
# trace-events: netlink:netlink_extack syscalls:sys_enter_recvmsg syscalls:sys_exit_recvmsg syscalls:sys_enter_sendmsg
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

ns=routedump-$$

# wait_quiet: until the guest's CPUs are idle again (under 10 % busy over
# half a second), at most 300 s; prints the seconds waited
wait_quiet() {
	local t0 a b i j total idle
	t0=$(date +%s.%N)
	for ((i = 0; i < 600; i++)); do
		read -ra a </proc/stat
		sleep 0.5
		read -ra b </proc/stat
		total=0
		for j in 1 2 3 4 5 6 7 8; do
			total=$((total + b[j] - a[j]))
		done
		idle=$((b[4] + b[5] - a[4] - a[5]))
		if [ "$total" -le 0 ] || [ $((100 * (total - idle) / total)) -lt 10 ]; then
			break
		fi
	done
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'
}

# ns_gone NAME: the namespace NAME removed, and the kernel done freeing its routes
ns_gone() {
	if ip netns list | grep -qw "$1"; then
		ip netns del "$1" || true
		echo "namespace $1 removed; the kernel freed its routes after $(wait_quiet) s" >&2
	fi
}

wl_cleanup() {
	ns_gone "$ns"
	ns_gone "$ns-probe"
}

# Every dump type, route filters, the fuzz (its own namespace)
checks() {
	local fuzz=2000 seed
	[ "$PROFILE" = quick ] || fuzz=100000
	seed=${LAB_ROUTEDUMP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	progress "conformance: fuzz $fuzz, seed $seed"
	conform env ROUTEDUMP_FUZZ="$fuzz" ROUTEDUMP_SEED="$seed" ROUTEDUMP_OUT="$STAGE" \
		"${LAB_ROUTEDUMP_SUITE:-$LAB_SRC/tests/guest/routedump.sh}"
}

# The measurement, in a namespace of its own, no probe attached
measurement() {
	local hz
	# the kernel's tick rate: the CPU pass samples the user/system split by it
	hz=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')
	[ -n "$hz" ] || fail "no CONFIG_HZ in /proc/config.gz: no CPU pass"
	ip netns add "$ns"
	# shellcheck disable=SC2086 # LAB_ROUTEDUMP_ARGS is a word list
	measure run ip netns exec "$ns" "$WL_BIN" run --profile "$PROFILE" --out "$STAGE" \
		--hz "${hz:-0}" "${RUN_OPTS[@]}" ${LAB_ROUTEDUMP_ARGS:-}
	ns_gone "$ns"
}

# The probe pass: the same inserts (in batches of 4096 bytes, so that there
# are many) and a few dumps of each mode, the probes attached
# (LAB_ROUTEDUMP_ARGS too: the same table sizes and families)
probe_pass() {
	ip netns add "$ns-probe"
	probes_start route_dump route_insert
	mkdir -p "$STAGE/probe-pass"
	# shellcheck disable=SC2086 # LAB_ROUTEDUMP_ARGS is a word list
	measure probe ip netns exec "$ns-probe" "$WL_BIN" run --profile "$PROFILE" \
		--out "$STAGE/probe-pass" --reps 2 --iproute2 none --anchor-insert 0 --batch 4096 \
		"${RUN_OPTS[@]}" ${LAB_ROUTEDUMP_ARGS:-}
	probes_stop
	ns_gone "$ns-probe"
}

wl_once checks probe_pass
wl_main checks measurement probe_pass

#!/bin/bash
# The route dump lab in the guest (issue 6): the strict-checking conformance
# suite into conformance.tap, then `routedump bench` under perf stat with
# probes/route_dump.bt watching the kernel's dump handlers. The routes live
# in a network namespace made for this run and removed on exit, whatever
# happened; the driver then waits until the kernel has freed them (that
# runs in the background and would disturb whatever is measured next).
#
# Run by bench/guest-run.sh with $LAB_WL_OUT, $LAB_PROFILE and $LAB_SRC.
# LAB_ROUTEDUMP_SEED fixes the fuzz seed (default: random, recorded in
# conformance.tap and fuzz.csv); LAB_ROUTEDUMP_ARGS adds options to bench.
#
# trace-events: netlink:netlink_extack syscalls:sys_enter_recvmsg syscalls:sys_exit_recvmsg syscalls:sys_enter_sendmsg
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

out=$LAB_WL_OUT
profile=${LAB_PROFILE:-quick}
case "$profile" in
quick) fuzz=2000 ;;
full) fuzz=100000 ;;
*)
	echo "error: unknown profile '$profile' (expected quick or full)" >&2
	exit 2
	;;
esac
seed=${LAB_ROUTEDUMP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
ns=routedump-$$

# wait_quiet: until the guest's CPUs are idle again (under 10 % busy over
# half a second), at most 300 s; prints the seconds waited
wait_quiet() {
	local t0 a b i total idle
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

cleanup() {
	if ip netns list | grep -qw "$ns"; then
		ip netns del "$ns" || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rc=0

# 1. Conformance: every dump type, route filters, the fuzz (its own namespace)
echo "== conformance: fuzz $fuzz, seed $seed" >&2
if ! ROUTEDUMP_FUZZ=$fuzz ROUTEDUMP_SEED=$seed ROUTEDUMP_OUT=$out \
	"$LAB_SRC/tests/guest/routedump.sh" >"$out/conformance.tap.tmp"; then
	echo "conformance: failures, see conformance.tap" >&2
	rc=1
fi
mv "$out/conformance.tap.tmp" "$out/conformance.tap"
grep -E '^# [0-9]+ passed' "$out/conformance.tap" >&2 || true

# 2. The benchmark, in a namespace of its own, with the probe watching
ip netns add "$ns"
probe_ok=0
probe_start route_dump && probe_ok=1
# shellcheck disable=SC2086 # LAB_ROUTEDUMP_ARGS is a word list
if ! phase bench ip netns exec "$ns" "$LAB_SRC/build/routedump" bench --profile "$profile" \
	--out "$out" ${LAB_ROUTEDUMP_ARGS:-}; then
	echo "bench: failed (see summary.json's reason)" >&2
	rc=1
fi
[ "$probe_ok" = 0 ] || probe_stop route_dump
[ "$probe_ok" = 1 ] || rc=1

# 3. Nothing left: the namespace goes, and its routes with it
cleanup
echo "namespace $ns removed; the kernel freed its routes after $(wait_quiet) s" >&2
exit "$rc"

#!/bin/bash
# The route dump lab in the guest: the strict-checking conformance suite
# into conformance.tap, then `routedump run` (the measurement, no probe
# attached), then the probe pass: a run of its own into probe-pass/ with
# probes/route_dump.bt watching the kernel's dump handlers and
# probes/route_insert.bt timing the kernel's own route inserts (its figures
# are not the measurement; the kernel's insert cost is the batched insert's
# physical limit), and last `routedump report`, which writes summary.json and targets.json from the
# run's CSV files with every failure the driver saw as a reason. The routes
# live in a network namespace made for this run and removed on exit,
# whatever happened; the driver then waits until the kernel has freed them
# (that runs in the background and would disturb whatever is measured next).
#
# Run by bench/guest-run.sh with $LAB_WL_OUT, $LAB_PROFILE and $LAB_SRC.
# LAB_ROUTEDUMP_SEED fixes the fuzz seed (default: random, recorded in
# conformance.tap and fuzz.csv); LAB_ROUTEDUMP_ARGS adds options to run;
# LAB_ROUTEDUMP_SUITE is the conformance suite to run (default
# tests/guest/routedump.sh; the guest tests put a stand-in there).
#
# trace-events: netlink:netlink_extack syscalls:sys_enter_recvmsg syscalls:sys_exit_recvmsg syscalls:sys_enter_sendmsg
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

out=$LAB_WL_OUT
bin=$LAB_SRC/build/routedump
suite=${LAB_ROUTEDUMP_SUITE:-$LAB_SRC/tests/guest/routedump.sh}
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
# the kernel's tick rate: the CPU pass samples the user/system split by it
hz=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')

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
	local n
	for n in "$ns" "$ns-probe"; do
		if ip netns list | grep -qw "$n"; then
			ip netns del "$n" || true
		fi
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The reasons the workload failed, for `routedump report --failed`
failed=()
fail() {
	echo "routedump: FAILED: $1" >&2
	failed+=(--failed "$1")
}

# 1. Conformance: every dump type, route filters, the fuzz (its own namespace)
echo "== conformance: fuzz $fuzz, seed $seed" >&2
if ! ROUTEDUMP_FUZZ=$fuzz ROUTEDUMP_SEED=$seed ROUTEDUMP_OUT=$out \
	"$suite" >"$out/conformance.tap.tmp"; then
	bad=$(grep -c '^not ok' "$out/conformance.tap.tmp" || true)
	fail "conformance: $bad tests failed (see conformance.tap)"
fi
mv "$out/conformance.tap.tmp" "$out/conformance.tap"
grep -E '^# [0-9]+ passed' "$out/conformance.tap" >&2 || true

# 2. The measurement, in a namespace of its own, no probe attached
ip netns add "$ns"
[ -n "$hz" ] || fail "no CONFIG_HZ in /proc/config.gz: no CPU pass"
# shellcheck disable=SC2086 # LAB_ROUTEDUMP_ARGS is a word list
if ! phase run ip netns exec "$ns" "$bin" run --profile "$profile" --out "$out" --hz "${hz:-0}" \
	${LAB_ROUTEDUMP_ARGS:-} 2>"$out/run.err"; then
	why=$(sed -n 's/^routedump: run failed: //p' "$out/run.err" | head -n 1)
	fail "run: ${why:-exit status non-zero (see run.err)}"
fi
cat "$out/run.err" >&2
cleanup
echo "namespace $ns removed; the kernel freed its routes after $(wait_quiet) s" >&2

# 3. The probe pass: the same inserts (in batches of 4096 bytes, so that
# there are many) and a few dumps of each mode, the probes attached
# (LAB_ROUTEDUMP_ARGS too: the same table sizes and families)
ip netns add "$ns-probe"
probes=()
for p in route_dump route_insert; do
	if probe_start "$p"; then
		probes+=("$p")
	else
		fail "probe $p did not start (see probe-$p.err)"
	fi
done
mkdir -p "$out/probe-pass"
# shellcheck disable=SC2086 # LAB_ROUTEDUMP_ARGS is a word list (the table sizes, families...)
if ! phase probe ip netns exec "$ns-probe" "$bin" run --profile "$profile" --out "$out/probe-pass" \
	--reps 2 --iproute2 none --anchor-insert 0 --batch 4096 ${LAB_ROUTEDUMP_ARGS:-} \
	2>"$out/probe-pass/run.err"; then
	fail "probe pass: exit status non-zero (see probe-pass/run.err)"
fi
cat "$out/probe-pass/run.err" >&2
for p in "${probes[@]}"; do
	probe_stop "$p" || fail "probe $p: its output could not be turned into CSV"
done

# 4. Nothing left: the namespace goes, and its routes with it
cleanup
echo "namespace $ns-probe removed; the kernel freed its routes after $(wait_quiet) s" >&2

# 5. The one place the summary is made: ok, or failed with the reasons above
if ! "$bin" report --out "$out" "${failed[@]}"; then
	exit 1
fi
[ "${#failed[@]}" = 0 ] || exit 1

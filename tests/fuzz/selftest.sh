#!/bin/bash
# Host tests of labfuzz, as TAP: the kernel log checker the guest suites use
# (labfuzz kmsg-check on fixture logs) fails a log with a WARNING, a BUG, an
# RCU stall or a lockup and passes a clean one, where a slow timer interrupt
# is a note only; bad options are usage errors; a suite without its kernel
# interface skips instead of failing.
set -eu

. "$(dirname "$0")/../../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"

bin=build/labfuzz
make -s "$bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# kmsg_case WHAT WANT_RC WANT_TEXT LINE...: a log of these lines (as
# /dev/kmsg gives them) gives exit WANT_RC and prints WANT_TEXT
kmsg_case() {
	local what=$1 want=$2 text=$3 rc=0 out
	shift 3
	printf '%s\n' "$@" >"$tmp/log"
	out=$("$bin" kmsg-check "$tmp/log" 2>&1) || rc=$?
	check "kmsg-check, $what: exit $want" "$want" "$rc"
	check "kmsg-check, $what: prints '$text'" yes \
		"$(grep -qF -- "$text" <<<"$out" && echo yes || echo "no: $(head -3 <<<"$out")")"
}
clean=('6,812,10234567,-;virtio_net virtio0 eth0: renamed'
	'6,813,10234999,-;ptp_lab: ptp0, offset 0 ns, frequency error 0 ppb'
	' SUBSYSTEM=ptp')
kmsg_case "a clean log" 0 "0 lines of trouble, 0 notes" "${clean[@]}"
kmsg_case "a WARNING" 1 "trouble: WARNING: CPU: 1 PID: 240 at net/sched/sch_taprio.c:1047" \
	"${clean[@]}" '4,814,10300000,-;WARNING: CPU: 1 PID: 240 at net/sched/sch_taprio.c:1047 taprio_change+0x5c1/0x8d0'
kmsg_case "an RCU stall" 1 "trouble: rcu: INFO: rcu_sched self-detected stall on CPU" \
	"${clean[@]}" '3,815,31000000,-;rcu: INFO: rcu_sched self-detected stall on CPU' \
	'3,816,31000001,c;rcu: 	2-....: (20999 ticks this GP) idle=8b4/1/0x4000000000000000'
kmsg_case "an RCU stall on the console" 1 "trouble: rcu: INFO: rcu_sched detected stalls on CPUs/tasks:" \
	'[   31.000001] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:'
kmsg_case "a soft lockup" 1 "trouble: watchdog: BUG: soft lockup - CPU#0 stuck for 22s!" \
	'0,900,45000000,-;watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [labfuzz:231]'
kmsg_case "a hard lockup" 1 "1 lines of trouble" \
	'0,901,45000000,-;NMI watchdog: Watchdog detected hard LOCKUP on cpu 2'
kmsg_case "a BUG" 1 "trouble: BUG: kernel NULL pointer dereference, address: 0000000000000008" \
	'1,902,46000000,-;BUG: kernel NULL pointer dereference, address: 0000000000000008'
kmsg_case "an Oops" 1 "trouble: Oops: 0000 [#1] PREEMPT SMP NOPTI" \
	'4,903,46000001,-;Oops: 0000 [#1] PREEMPT SMP NOPTI'
kmsg_case "a debug objects report" 1 "trouble: ODEBUG: free active (active state 0) object: 00000000a1b2c3d4 object type: hrtimer hint: lab_output_fire+0x0/0x150" \
	'3,905,46500000,-;ODEBUG: free active (active state 0) object: 00000000a1b2c3d4 object type: hrtimer hint: lab_output_fire+0x0/0x150'
kmsg_case "a slow timer interrupt alone" 0 "note: 1 lines, the first: hrtimer: interrupt took 2164290 ns" \
	"${clean[@]}" '4,904,47000000,-;hrtimer: interrupt took 2164290 ns'
rc=0
"$bin" kmsg-check "$tmp/no-such-log" >/dev/null 2>&1 || rc=$?
check "kmsg-check of a missing file fails (exit 1)" 1 "$rc"

# Bad options: usage errors naming the value
usage_case() {
	local what=$1 text=$2 rc=0 out
	shift 2
	out=$("$bin" "$@" 2>&1) || rc=$?
	check "$what: exit 2" 2 "$rc"
	check "$what: the message names '$text'" yes \
		"$(grep -qF -- "$text" <<<"$out" && echo yes || echo "no: $out")"
}
usage_case "a seed that is no number" "'abc'" ptp --seed abc
usage_case "zero iterations" "'0'" led --iterations 0
usage_case "a negative time bound" "'-1'" taprio --seconds -1
usage_case "an unknown suite" "'nosuch'" nosuch

# On this host there is no ptp_lab clock: the suite skips, says why, passes
rc=0
out=$("$bin" ptp --seed 42 --iterations 5 2>&1) || rc=$?
if grep -q 'clock_name' /sys/class/ptp/*/clock_name 2>/dev/null &&
	grep -qx ptp_lab /sys/class/ptp/*/clock_name 2>/dev/null; then
	check "labfuzz ptp on a host with ptp_lab # SKIP the host has the lab's clock" 0 0
else
	check "labfuzz ptp without the lab's clock exits 0" 0 "$rc"
	check "labfuzz ptp without the lab's clock skips, naming it" yes \
		"$(grep -q 'SKIP no PTP clock named ptp_lab' <<<"$out" && echo yes || echo "no: $out")"
	check "labfuzz ptp prints its seed and the replay command" yes \
		"$(grep -qF 'replay: labfuzz ptp --seed 42 --iterations 5' <<<"$out" && echo yes || echo no)"
	check "labfuzz ptp prints iterations, seed and time" yes \
		"$(grep -qE '^# ptp: 0 iterations, seed 42, [0-9.]+ s' <<<"$out" && echo yes || echo "no: $out")"
fi
echo "1..$n"

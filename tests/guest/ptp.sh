#!/bin/bash
# Conformance of the emulated PTP hardware clock (ptp_lab, kernel patches 0001-0002)
# in the guest, as TAP: the lab's NICs report it (ethtool -T, get_ts_info),
# linuxptp's phc_ctl and the kernel's testptp work against it, and
# `taprio conform-phc` checks set/get, adjtime, adjfine, the periodic output,
# PPS and the errors of bad requests. On a kernel without the clock every
# case is skipped, saying why.
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

taprio=$LAB_SRC/build/taprio
if ! zcat /proc/config.gz | grep -qx 'CONFIG_PTP_1588_CLOCK_LAB=y'; then
	skip "the emulated PTP clock" "this kernel has no CONFIG_PTP_1588_CLOCK_LAB (stock kernel?)"
	echo "1..$n"
	exit 0
fi

# The clock, and the NICs that report it: virtio-net, which stamps packets
# with it; not veth, which gives software timestamps only
phc=
for d in /sys/class/ptp/ptp*; do
	[ "$(cat "$d/clock_name" 2>/dev/null)" != ptp_lab ] || phc=${d##*/ptp}
done
check "the clock ptp_lab is registered" yes "$([[ "$phc" =~ ^[0-9]+$ ]] && echo yes || echo "no ($phc)")"
check "the clock's device /dev/ptp$phc exists" yes "$(yes_no test -c "/dev/ptp$phc")"
dev=/dev/ptp$phc
# tests/guest.sh says which network the guest has; a workload's conformance
# (taprio's) runs this suite without it: eth0 on virtio-net is the tap mode
net=${LAB_EXPECT_NET:-veth}
case "$(readlink "/sys/class/net/eth0/device/driver" 2>/dev/null)" in
*virtio_net) [ -n "${LAB_EXPECT_NET:-}" ] || net=tap ;;
esac
if [ "$net" = tap ]; then
	check "ethtool -T eth0 shows the clock" "$phc" "$(ethtool -T eth0 | sed -n 's/^PTP Hardware Clock: //p')"
	check "ethtool -T rx/eth1 shows the same clock" "$phc" \
		"$(ip netns exec rx ethtool -T eth1 | sed -n 's/^PTP Hardware Clock: //p')"
	check "ethtool -T eth0 lists hardware TX and RX timestamps with the clock" "2" \
		"$(ethtool -T eth0 | grep -cE '^\s+hardware-(transmit|receive)')"
fi
ip link add lptp0 type veth peer name lptp1
check "a veth reports no PTP clock (it gives software timestamps only)" none \
	"$(ethtool -T lptp0 | sed -n 's/^PTP Hardware Clock: //p')"
ip link del lptp0

# Events left in the clock's queue by an earlier user (in 6.1 the queue is
# the clock's, not a reader's): the periodic output looped back for 50 ms
# with nobody reading. conform-phc must read and drop them before it starts
# its own output (a stale one, from the fuzz suite, once failed it as "an
# event before its edge"). Setting neither the clock nor its frequency, this
# leaves it as the boot did.
sysfs=/sys/class/ptp/ptp$phc
if [ -w "$sysfs/extts_enable" ] && [ -w "$sysfs/period" ]; then
	echo "0 1" >"$sysfs/extts_enable"
	echo "0 0 0 0 1000000" >"$sysfs/period"
	sleep 0.05
	echo "0 0 0 0 0" >"$sysfs/period"
	echo "0 0" >"$sysfs/extts_enable"
	echo "# left the periodic output's events of 50 ms in the clock's queue for conform-phc"
fi

# The C conformance suite, renumbered into this stream; first, while the
# clock is as the boot left it (unless LAB_PHC_TOUCHED=1). It finds the clock
# through the NIC: not in the lab's veth mode
fresh=--fresh
[ "${LAB_PHC_TOUCHED:-0}" = 0 ] || fresh=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$net" = tap ]; then
	rc=0
	# shellcheck disable=SC2086 # $fresh is one option or none
	"$taprio" conform-phc --if eth0 $fresh >"$tmp/phc-check.tap" 2>&1 || rc=$?
	tap_fold "$tmp/phc-check.tap" "$rc" "taprio conform-phc: "
else
	skip "taprio conform-phc" "it finds the clock through eth0, a veth in this mode"
fi

# linuxptp's phc_ctl: set, get, adj, freq, cmp
out=$(phc_ctl "$dev" set 1000000000 get 2>&1)
got=$(sed -n 's/.*clock time is \([0-9]*\)\..*/\1/p' <<<"$out" | tail -1)
check "phc_ctl set 1000000000 then get reads 1000000000 s" 1000000000 "$got"
out=$(phc_ctl "$dev" set 1000000000 adj 2.5 get 2>&1)
got=$(sed -n 's/.*clock time is \([0-9]*\)\..*/\1/p' <<<"$out" | tail -1)
check "phc_ctl set 1000000000 adj 2.5 get reads 1000000002 s" 1000000002 "$got"
check "phc_ctl freq 100000 (ppb) is accepted" yes "$(yes_no phc_ctl "$dev" freq 100000)"
check "phc_ctl freq 0 is accepted" yes "$(yes_no phc_ctl "$dev" freq 0)"
check "phc_ctl set (from the system time) and cmp answer" yes "$(yes_no phc_ctl "$dev" set cmp)"

# The kernel's testptp, built from the cached kernel tree when the lab has
# no build of it
testptp=$LAB_SRC/build/testptp
if [ ! -x "$testptp" ]; then
	src=
	for flavour in lab stock; do
		f=${LAB_CACHE:-/root/.cache/kernel-lab}/$flavour/linux/tools/testing/selftests/ptp/testptp.c
		if [ -f "$f" ]; then
			src=$f
			break
		fi
	done
	t0=$(date +%s)
	if [ -n "$src" ] && gcc -O2 -o /tmp/testptp "$src" -lrt 2>/tmp/testptp.err; then
		testptp=/tmp/testptp
		echo "# built testptp from $src in the guest in $(($(date +%s) - t0)) s"
	else
		testptp=
	fi
fi
if [ -n "$testptp" ]; then
	caps=$("$testptp" -d "$dev" -c)
	check "testptp -c: 1 programmable periodic signal" 1 "$(sed -n 's/^ *\([0-9]*\) programmable periodic signals/\1/p' <<<"$caps")"
	check "testptp -c: 1 external time stamp channel" 1 "$(sed -n 's/^ *\([0-9]*\) external time stamp channels/\1/p' <<<"$caps")"
	check "testptp -c: 1 pulse per second" 1 "$(sed -n 's/^ *\([0-9]*\) pulse per second/\1/p' <<<"$caps")"
	check "testptp -k 5 measures 5 system-PHC offsets (PTP_SYS_OFFSET)" 5 \
		"$("$testptp" -d "$dev" -k 5 | grep -c '^phc    time:')"
	check "testptp -x 5 reads extended timestamps (gettimex64)" yes \
		"$("$testptp" -d "$dev" -x 5 | grep -q 'extended timestamp request returned 5 samples' && echo yes || echo no)"
	"$testptp" -d "$dev" -T 2000000000 >/dev/null
	got=$("$testptp" -d "$dev" -g | sed -n 's/^clock time: \([0-9]*\)\..*/\1/p')
	check "testptp -T 2000000000, then -g reads 2000000000 s (+ at most 2 s elapsed)" yes \
		"$([ "${got:-0}" -ge 2000000000 ] && [ "${got:-0}" -le 2000000002 ] && echo yes || echo "no ($got)")"
	check "testptp -X (cross timestamps) is refused: the clock has none" yes \
		"$("$testptp" -d "$dev" -X 2>&1 | grep -q 'PTP_SYS_OFFSET_PRECISE: Operation not supported' && echo yes || echo no)"
	"$testptp" -d "$dev" -s >/dev/null
	"$testptp" -d "$dev" -p 100000000 >/dev/null
	check "testptp -p 100000000, then -e 3 reads 3 external timestamps (the loopback)" 3 \
		"$("$testptp" -d "$dev" -e 3 | grep -c '^event index 0 at ')"
	"$testptp" -d "$dev" -p 0 >/dev/null
	check "testptp -P 1 and -P 0 switch PPS on and off" 2 \
		"$({ "$testptp" -d "$dev" -P 1 && "$testptp" -d "$dev" -P 0; } | grep -c 'pps for system time request okay')"
else
	skip "testptp" "no build/testptp and no kernel tree to build it from"
fi
# Requests at the end of the clock's time line (KTIME_MAX ns, KTIME_SEC_MAX =
# 9223372036 s), through the sysfs file "period" (channel, start s and ns,
# period s and ns), which calls the driver as the ioctl does. Before the fix,
# the timer's expiry (CLOCK_MONOTONIC now + the interval) and the next edge
# (start + k * period) could wrap: hrtimer_start() itself clamps a wrapped
# expiry, but the timer callback re-armed into the past and restarted for
# ever (a hard lockup), or, with a wrapped edge, every few microseconds (an
# interrupt storm, "hrtimer: interrupt took ... ns"). Each request is refused
# with an errno, or accepted and armed where it can never fire; the guest
# must keep running.
period=/sys/class/ptp/ptp$phc/period
perout() { # perout "CH START_S START_NS PERIOD_S PERIOD_NS": ok or the error
	if out=$( (echo "$1" >"$period") 2>&1); then
		echo ok
	else
		echo "refused (${out##*: })"
	fi
}
# alive: the guest still runs: a 1 s sleep returns, the clock has moved on,
# and every CPU runs a task pinned to it within 20 s (a CPU stuck in a timer
# interrupt runs none, while the others may carry on as if nothing happened)
alive() {
	local before after stuck
	before=$(phc_ctl "$dev" get | sed -n 's/.*clock time is \([0-9]*\)\..*/\1/p')
	sleep 1
	after=$(phc_ctl "$dev" get | sed -n 's/.*clock time is \([0-9]*\)\..*/\1/p')
	if [ -z "$before" ] || [ -z "$after" ] || [ "$after" -le "$before" ]; then
		echo "no (clock $before then $after)"
		return
	fi
	stuck=$(cpus_stuck)
	if [ -n "$stuck" ]; then
		echo "no (CPU$stuck ran no task in 20 s)"
	else
		echo yes
	fi
}
if [ -w "$period" ]; then
	phc_ctl "$dev" set 0 >/dev/null
	got=$(perout "0 9223372035 0 1 0")
	check "clock at 0, a periodic output starting at 9223372035 s is refused with an errno or accepted" yes \
		"$([ "$got" = ok ] || [[ "$got" =~ ^refused\ \(.+\)$ ]] && echo yes || echo "no ($got)")"
	echo "# clock at 0, start 9223372035 s, period 1 s: $got"
	check "... and the guest keeps running (a 1 s sleep returns, the clock moves on, every CPU runs a task)" yes "$(alive)"
	perout "0 0 0 0 0" >/dev/null
	# The first edge at 1 s fires; the callback then arms for the next one,
	# 9223372036 s, past the end of CLOCK_MONOTONIC's range
	phc_ctl "$dev" set 0 >/dev/null
	got=$(perout "0 1 0 9223372035 0")
	check "clock at 0, a period of 9223372035 s from 1 s is refused with an errno or accepted" yes \
		"$([ "$got" = ok ] || [[ "$got" =~ ^refused\ \(.+\)$ ]] && echo yes || echo "no ($got)")"
	echo "# clock at 0, start 1 s, period 9223372035 s: $got"
	sleep 1
	check "... and the guest keeps running past its first edge (sleep, clock and every CPU as above)" \
		yes "$(alive)"
	perout "0 0 0 0 0" >/dev/null
	phc_ctl "$dev" set 5000000000 >/dev/null
	check "clock at 5e9 s, a period of 4.7e9 s from 0 (next edge past KTIME_MAX) is refused: ERANGE" \
		"refused (Numerical result out of range)" "$(perout "0 0 0 4700000000 0")"
	check "... and the guest keeps running (a 1 s sleep returns, the clock moves on, every CPU runs a task)" yes "$(alive)"
	check "a start at KTIME_SEC_MAX s is refused: ERANGE" \
		"refused (Numerical result out of range)" "$(perout "0 9223372036 0 1 0")"
	check "the periodic output can be switched off again" ok "$(perout "0 0 0 0 0")"
else
	skip "periodic output at the end of the time line" "no writable $period"
fi

# Leave the clock at the system time for the suites after this one
phc_ctl "$dev" set >/dev/null

echo "1..$n"

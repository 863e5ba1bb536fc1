#!/bin/bash
# The emulated PTP clock as the boot's ptp_lab.freq_ppb left it, as TAP. The
# oscillator's frequency error is a parameter of the driver, set on the
# kernel command line (ptp_lab.freq_ppb=, default 0; tests/guest.sh boots
# the ends of its range). Within +-250000 ppb the clock is registered and
# runs at that error against CLOCK_REALTIME, which nothing adjusts in the
# guest; beyond it the driver refuses it at init with a message naming the
# value, no clock is registered and the NICs report none.
set -eu

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

limit=250000
v=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ptp_lab\.freq_ppb=//p' | tail -1)
v=${v:-0}
clock=
for d in /sys/class/ptp/ptp*; do
	[ "$(cat "$d/clock_name" 2>/dev/null)" != ptp_lab ] || clock=/dev/${d##*/}
done
# offset: CLOCK_REALTIME minus the clock (ns), when it was taken (the middle
# of the phc_ctl run, ns) and half that run's length (ns): its uncertainty
offset() {
	local a b o
	a=$(date +%s%N)
	o=$(phc_ctl "$clock" cmp 2>&1 | sed -n 's/.*offset from CLOCK_REALTIME is \(-\{0,1\}[0-9]*\)ns.*/\1/p')
	b=$(date +%s%N)
	echo "$o $(((a + b) / 2)) $(((b - a) / 2))"
}

if [ "$v" -ge "-$limit" ] && [ "$v" -le "$limit" ]; then
	check "ptp_lab.freq_ppb=$v: the clock is registered" yes "$([ -n "$clock" ] && echo yes || echo no)"
	check "ptp_lab.freq_ppb=$v: the parameter reads back" "$v" "$(cat /sys/module/ptp_lab/parameters/freq_ppb)"
	got=$(phc_ctl "$clock" get 2>&1 | sed -n 's/.*clock time is \([0-9.]*\).*/\1/p')
	check "ptp_lab.freq_ppb=$v: the clock does not read KTIME_MAX ($got)" yes \
		"$([ -n "$got" ] && [ "$got" != 9223372036.854775807 ] && echo yes || echo no)"
	read -r o1 t1 u1 <<<"$(offset)"
	sleep 10
	read -r o2 t2 u2 <<<"$(offset)"
	# REALTIME - PHC shrinks by freq_ppb per second of REALTIME: the clock runs
	# fast by it. The times of the two offsets are known to u1 + u2, which
	# scales the rate by up to (u1 + u2) / (t2 - t1); 5000 ppb more for the
	# offsets themselves
	rate=$(((o1 - o2) * 1000000000 / (t2 - t1)))
	tol=$((5000 + (v < 0 ? -v : v) * (u1 + u2) / (t2 - t1)))
	echo "# offsets from CLOCK_REALTIME: $o1 ns, then $o2 ns $(((t2 - t1) / 1000000)) ms later (each time +-$((u1 / 1000000)), +-$((u2 / 1000000)) ms): $rate ppb"
	check "ptp_lab.freq_ppb=$v: the clock runs $v ppb fast against CLOCK_REALTIME (measured $rate ppb, within $tol)" yes \
		"$([ $((rate - v)) -le "$tol" ] && [ $((v - rate)) -le "$tol" ] && echo yes || echo no)"
else
	check "ptp_lab.freq_ppb=$v: no clock is registered" "" "$clock"
	check "ptp_lab.freq_ppb=$v: the kernel log names the value and the limit" yes \
		"$(dmesg | grep -qF "ptp_lab: freq_ppb=$v is beyond +-$limit" && echo yes || echo no)"
	check "ptp_lab.freq_ppb=$v: eth0 reports no PTP clock" none \
		"$(ethtool -T eth0 | sed -n 's/^PTP Hardware Clock: //p')"
fi
echo "1..$n"

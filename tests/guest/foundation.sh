#!/bin/bash
# Foundation tests in the guest, as TAP: the kernel is the one just built,
# every required option is set, the network is wired as the lab expects,
# bpftrace attaches kprobes and tracepoints and its output reaches the
# results share. Expectations come from the host in LAB_EXPECT_*.
set -eu

. "$LAB_SRC/bench/guest-lib.sh"
# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

# The kernel
check "the running kernel is the build with key $LAB_EXPECT_KEY (/proc/version)" yes \
	"$(yes_no grep -qF "@$LAB_EXPECT_KEY)" /proc/version)"
check "the running kernel's config is the one built (hash)" "$LAB_EXPECT_CONFIG_HASH" \
	"$(zcat /proc/config.gz | sha256sum | cut -c1-16)"
# the fragments of the flavour booted (kernel/build.sh): the options of its
# version's series (not in a stock kernel), the debug kernel every checker of
# kernel/debug.config, the others none of them. A flavour is lab, stock or
# debug, of 6.1 or with its version (lab-6.12).
flavour=${LAB_EXPECT_FLAVOUR:-lab}
base=${flavour%%-*}
version=${flavour#"$base"}
version=${version#-}
frags=lab.config
[ "$base" = stock ] || frags+=" patches/${version:-6.1}/config"
[ "$base" != debug ] || frags+=" debug.config"
for frag in $frags; do
	rc=0
	missing=$(zcat /proc/config.gz | "$LAB_SRC/kernel/check-config.sh" "$LAB_SRC/kernel/$frag" -) || rc=$?
	check "every option of kernel/$frag is set in /proc/config.gz (check-config's exit and what it lists)" \
		"0 " "$rc $missing"
done
if [ "$base" != debug ]; then
	rc=0
	present=$(zcat /proc/config.gz | "$LAB_SRC/kernel/check-config.sh" --absent "$LAB_SRC/kernel/debug.config" -) || rc=$?
	check "no option of kernel/debug.config is set in the $flavour kernel's /proc/config.gz" "0 " "$rc $present"
fi
check "the running kernel is Linux ${version:-6.1} (uname -r)" "${version:-6.1}" "$(uname -r | cut -d. -f1,2)"
check "the guest sees every vCPU (ACPI)" "$(grep -c ^processor /proc/cpuinfo)" "$(nproc)"

# The network
check "network mode" "$LAB_EXPECT_NET" "$(cat "$LAB_OUT/guest/net_mode")"
check "eth0 has 4 real TX queues" 4 "$(find /sys/class/net/eth0/queues -maxdepth 1 -name 'tx-*' | wc -l)"
if [ "$LAB_EXPECT_NET" = tap ]; then
	check "eth0 is virtio-net" virtio_net "$(basename "$(readlink /sys/class/net/eth0/device/driver)")"
	check "eth0 runs at 1000 Mb/s full duplex" "1000 full" \
		"$(cat /sys/class/net/eth0/speed) $(cat /sys/class/net/eth0/duplex)"
fi
check "eth1 lives in the namespace rx" yes "$(yes_no ip -n rx link show eth1)"
rx0=$(ip netns exec rx cat /sys/class/net/eth1/statistics/rx_packets)
check "IPv4 crosses the wire from eth0 to rx/eth1 (ping)" yes "$(yes_no ping -c 3 -i 0.2 -W 2 198.18.0.2)"
check "IPv6 crosses the wire from eth0 to rx/eth1 (ping)" yes "$(yes_no ping -6 -c 3 -i 0.2 -W 2 2001:2::2)"
rx1=$(ip netns exec rx cat /sys/class/net/eth1/statistics/rx_packets)
check "rx/eth1 counted the packets" yes "$([ $((rx1 - rx0)) -ge 6 ] && echo yes || echo "no ($((rx1 - rx0)))")"

# bpftrace: a kprobe and a tracepoint, output into the results share as CSV
export LAB_WL_OUT=$LAB_OUT/foundation
mkdir -p "$LAB_WL_OUT"
# (sleep under a name of its own, so that no other sleep counts)
cp /bin/sleep /tmp/lab_smoke_nap
if probe_start "$LAB_SRC/tests/guest/smoke.bt"; then
	for _ in 1 2 3; do /tmp/lab_smoke_nap 0.05; done
	probe_stop smoke
fi
csv=$LAB_WL_OUT/probe-smoke.csv
check "bpftrace's kprobe fired for each sleep (CSV in the share)" 3 "$(grep -c '^kprobe,lab_smoke_nap' "$csv" 2>/dev/null)"
check "bpftrace's tracepoint fired for each sleep (CSV in the share)" 3 "$(grep -c '^tracepoint,lab_smoke_nap' "$csv" 2>/dev/null)"
check "bpftrace's maps are in the maps CSV" '"@kprobe","","","",3' \
	"$(grep '^"@kprobe"' "$LAB_WL_OUT/probe-smoke-maps.csv" 2>/dev/null)"
echo "1..$n"

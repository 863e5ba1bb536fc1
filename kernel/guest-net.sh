#!/bin/bash
# Wire the lab's network in the guest: eth0 (sender, 4 TX queues) in the main
# namespace and eth1 (receiver) in the namespace "rx", back to back.
# With the host's taps, eth0 and eth1 are the two virtio-net NICs whose taps
# are bridged on the host; without them (no /dev/net/tun or not root on the
# host), a veth pair with 4 queues each side stands in. Writes the mode used
# to $LAB_OUT/guest/net_mode.
#
# Addresses: the benchmarking ranges of RFC 2544 and RFC 5180.
set -eu

queues=4
ip link set lo up
if [ -e /sys/class/net/eth0 ] && [ -e /sys/class/net/eth1 ]; then
	mode=tap
	for dev in eth0 eth1; do
		cur=$(ethtool -l "$dev" | awk '/^Current/ {c = 1} c && /^Combined:/ {print $2; exit}')
		[ "$cur" = "$queues" ] || ethtool -L "$dev" combined "$queues"
	done
else
	mode=veth
	ip link add eth0 numtxqueues "$queues" numrxqueues "$queues" type veth \
		peer name eth1 numtxqueues "$queues" numrxqueues "$queues"
fi

ip netns add rx
ip link set eth1 netns rx
ip addr add 198.18.0.1/24 dev eth0
ip addr add 2001:2::1/64 dev eth0 nodad
ip link set eth0 up
ip -n rx link set lo up
ip -n rx addr add 198.18.0.2/24 dev eth1
ip -n rx addr add 2001:2::2/64 dev eth1 nodad
ip -n rx link set eth1 up

txq=$(find /sys/class/net/eth0/queues -maxdepth 1 -name 'tx-*' | wc -l)
echo "$mode" >"$LAB_OUT/guest/net_mode"
echo "network: $mode, eth0 has $txq TX queues, eth1 in namespace rx"

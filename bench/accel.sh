#!/bin/bash
# Choose QEMU's accelerator: print "kvm" or "tcg".
# usage: bench/accel.sh IMAGE [kvm|tcg|auto]
#
# kvm or tcg (the run spec's accel: --accel, LAB_ACCEL) is taken as it is.
# Otherwise KVM is probed once per machine (and QEMU version) and the
# verdict is kept in $LAB_CACHE/accel-verdict: /dev/kvm can exist and answer
# while a KVM guest never gets past the BIOS, so the probe boots the kernel
# with a deadline and wants to see it print its banner.
set -eu

. "$(dirname "$0")/lib.sh"

image=$1
asked=${2:-auto}
deadline=${LAB_KVM_PROBE_SECONDS:-20}

case "$asked" in
kvm | tcg)
	echo "$asked"
	exit 0
	;;
auto) ;;
*) usage_error "unknown accelerator '$asked' (expected kvm, tcg or auto)" ;;
esac

machine="$(cat /etc/machine-id 2>/dev/null || hostname) $(qemu-system-x86_64 --version | head -1 | tr ' ' _)"
verdict_file=$LAB_CACHE/accel-verdict
if [ -f "$verdict_file" ]; then
	read -r m q v <"$verdict_file" || true
	if [ "$m $q" = "$machine" ] && [ -n "$v" ]; then
		log accel "$v (verdict remembered in $verdict_file)"
		echo "$v"
		exit 0
	fi
fi

verdict=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	log accel "probing KVM (deadline ${deadline}s)"
	tmp=$(mktemp -d)
	timeout -k 2 "$deadline" qemu-system-x86_64 -nodefaults -no-user-config \
		-display none -no-reboot -accel kvm -cpu host -m 256 -kernel "$image" \
		-append "console=ttyS0 panic=-1" -serial "file:$tmp/console" \
		>"$tmp/qemu.out" 2>&1 || true
	if grep -q 'Linux version' "$tmp/console"; then
		verdict=kvm
	else
		log accel "KVM guest printed nothing within ${deadline}s: $(head -c 200 "$tmp/qemu.out" | tr '\n' ' ')"
	fi
	rm -rf "$tmp"
else
	log accel "/dev/kvm is not usable"
fi
mkdir -p "$LAB_CACHE"
echo "$machine $verdict" | atomic_write "$verdict_file"
log accel "$verdict (verdict saved in $verdict_file)"
echo "$verdict"

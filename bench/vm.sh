#!/bin/bash
# Boot the lab kernel in QEMU and run a job in it.
# usage: bench/vm.sh RUN_DIR
#
# RUN_DIR/run.spec (bench/spec.sh) says what to boot and how: image (the
# kernel), accel (kvm|tcg|auto), vcpus (4), mem_mb (2048), deadline (seconds,
# 900), guest_deadline (seconds; default: 60 s before the deadline, half of
# it when that is 120 s or less; 0: none), net (auto|tap|veth), cmdline
# (added to the kernel command line), vm_wrapper (a command QEMU runs under,
# e.g. a script that waits for a free guest slot; the deadline starts when
# QEMU does), interactive (1: the guest's console on this terminal).
# RUN_DIR/guest/job.sh holds the job (see kernel/guest-init). The guest's root
# is the host's root over virtio-9p, read-only; the repository and RUN_DIR are
# two more 9p shares. Two virtio-net NICs (4 queue pairs each, 1000 Mb/s full
# duplex) are backed by multi_queue taps bridged in a private network
# namespace made for this run and removed on exit, error or Ctrl-C; where taps
# cannot be made, the guest uses a veth pair instead.
#
# Two deadlines: the guest's PID 1 stops a job still running at
# guest_deadline (counted from its own start) and powers off cleanly,
# leaving guest/deadline-passed; at the deadline the host presses the ACPI
# power button (QEMU's system_powerdown), upon which PID 1 stops the job and
# powers off cleanly too, and stops QEMU 20 s later, for a guest that cannot
# do even that.
# While the guest runs, its steps and phases are printed as they start and
# end (bench/progress.sh, kept in RUN_DIR/progress.log), with the time left
# estimated from the last run of the same kind (profile, kernel, boot options
# and workloads).
# Writes RUN_DIR/console.log, RUN_DIR/vm.env (accel, vcpus, mem_mb,
# net_mode, qemu_version, boot_seconds) and the host's load while the guest
# ran (build/labhost: RUN_DIR/host-load.csv, host-load.json). Exits 0 when the guest ran the whole
# job, every step exited 0 and the console shows no kernel warning, panic,
# Oops, BUG or RCU stall; otherwise 1, with the reason in RUN_DIR/failure.txt.
set -eu

. "$(dirname "$0")/lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
# shellcheck source=bench/progress.sh
. "$(dirname "$0")/progress.sh"

[ $# -eq 1 ] || usage_error "usage: bench/vm.sh RUN_DIR"
rundir=$(cd "$1" && pwd)
spec_load "$rundir/run.spec" || exit 2
spec_check_vm
image=$(spec_get image)
interactive=$(spec_get interactive)
vcpus=$(spec_get vcpus 4)
mem=$(spec_get mem_mb 2048)
deadline=$(spec_get deadline 900)
net=$(spec_get net auto)
guest_deadline=$(spec_get guest_deadline $((deadline > 120 ? deadline - 60 : deadline / 2)))
[ -f "$image" ] || die "kernel image '$image' (run.spec: image) not found"
[ -x "$LAB_ROOT/build/guest-init" ] || die "no build/guest-init: run make all"
[ -f "$rundir/guest/job.sh" ] || die "no job file $rundir/guest/job.sh"

accel=$("$LAB_ROOT/bench/accel.sh" "$image" "$(spec_get accel auto)")
if [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu host)
else
	accel_args=(-accel "tcg,thread=multi" -cpu max)
fi

# The network: taps in a private namespace, or none (the guest makes a veth)
netns=
wrapper=()
mon=
cleanup() {
	if [ -n "${qpid:-}" ]; then
		# QEMU itself when LAB_VM_WRAPPER runs it as a child
		[ "${#wrapper[@]}" -eq 0 ] || pkill -P "$qpid" 2>/dev/null || true
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	if [ -n "$netns" ]; then
		ip netns del "$netns" 2>/dev/null || true
	fi
	[ -z "$mon" ] || rm -rf "$mon"
}
trap cleanup EXIT
trap 'log vm "interrupted"; exit 130' INT TERM

net_args=()
if [ "$net" != veth ]; then
	if [ "$(id -u)" -eq 0 ] && [ -c /dev/net/tun ]; then
		# The run id and this process: two runs on one machine never share
		# (or delete) each other's namespace
		ns="lab-$(basename "$rundir")-$$"
		ip netns add "$ns"
		netns=$ns
		ip -n "$netns" link add br0 type bridge
		for i in 0 1; do
			ip -n "$netns" tuntap add dev "tap$i" mode tap multi_queue
			ip -n "$netns" link set "tap$i" master br0 up
			net_args+=(-netdev "tap,id=n$i,ifname=tap$i,script=no,downscript=no,queues=4,vhost=off"
				-device "virtio-net-pci,netdev=n$i,mq=on,vectors=10,speed=1000,duplex=full,mac=52:54:00:1a:b0:0$i")
		done
		ip -n "$netns" link set br0 up
		log vm "network: taps bridged in namespace $netns"
	elif [ "$net" = tap ]; then
		die "LAB_NET=tap needs root and /dev/net/tun"
	else
		log vm "network: no taps here (not root or no /dev/net/tun); the guest uses a veth pair"
	fi
fi

share() { # share TAG PATH ro|rw
	local ro=
	[ "$3" = ro ] && ro=,readonly=on
	echo "-fsdev local,id=$1,path=$2,security_model=none,multidevs=remap$ro -device virtio-9p-pci,fsdev=$1,mount_tag=$1"
}
# shellcheck disable=SC2046 # share prints word lists without spaces in values
set -- $(share labroot / ro) $(share labsrc "$LAB_ROOT" ro) $(share labout "$rundir" rw)

# acpi=noirq: PCI interrupt routing by the PIR table; evaluating ACPI's
# interrupt links took 0.3 s per PCI device under TCG. no_timer_check: the
# early check that the IO-APIC timer ticks fails when the host stalls the
# vCPU (a panic "IO-APIC + timer doesn't work!" in 1 of 30 boots on a
# loaded host); virtual machines skip it
cmdline="console=ttyS0,115200 panic=-1 acpi=noirq no_timer_check dummy.numdummies=0 root=labroot rootfstype=9p"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=262144 ro"
extra=$(spec_get cmdline)
cmdline+=" init=$LAB_ROOT/build/guest-init${extra:+ $extra}"

if [ "$interactive" = 1 ]; then
	serial=(-serial mon:stdio)
else
	serial=(-serial "file:$rundir/console.log")
	# QEMU's monitor on two FIFOs (outside the run folder, which the guest
	# sees): the host presses the power button through it at the deadline
	mon=$(mktemp -d)
	mkfifo "$mon/monitor.in" "$mon/monitor.out"
	serial+=(-monitor "pipe:$mon/monitor")
fi

qemu_version=$(qemu-system-x86_64 --version | head -1 | sed 's/.*version \([^ ]*\).*/\1/')
log vm "booting $(basename "$image") on QEMU $qemu_version, $accel, $vcpus vCPUs, $mem MiB, deadline ${deadline}s"
rm -f "$rundir/guest/first-step" "$rundir/guest/done" "$rundir/guest/deadline" \
	"$rundir/guest/deadline-passed"
if [ "$interactive" != 1 ] && [ "$guest_deadline" -gt 0 ]; then
	echo "$guest_deadline" >"$rundir/guest/deadline"
fi
t0=$(now_ns)
runner=()
[ -n "$netns" ] && runner=(ip netns exec "$netns")
# vm_wrapper (LAB_VM_WRAPPER): a command (and its words) QEMU runs under, for
# example a script that waits for one of a few guest slots on a shared machine
wrapper=()
read -r -a wrapper <<<"$(spec_get vm_wrapper)"
qemu=("${wrapper[@]}" "${runner[@]}" qemu-system-x86_64 -nodefaults -no-user-config -display none
	-no-reboot "${accel_args[@]}" -smp "$vcpus" -m "$mem"
	-kernel "$image" -append "$cmdline" "${serial[@]}" "$@" "${net_args[@]}")
if [ "$interactive" = 1 ]; then
	log vm "the guest's console follows; Ctrl-A X stops QEMU"
	"${qemu[@]}" || true
	exit 0
fi
"${qemu[@]}" >"$rundir/qemu.log" 2>&1 </dev/null &
qpid=$!
progress_init "$rundir" "$t0" "$(progress_key)"
# the host's load while the guest runs (host-load.csv; summed up below)
"$LAB_ROOT/build/labhost" sample --pid "$qpid" --out "$rundir/host-load.csv" &
hpid=$!

# Wait for QEMU, watching the deadline; report the first guest command.
# Under LAB_VM_WRAPPER the clock (deadline, boot time) starts when the
# wrapper has started QEMU (its own process, or a child, running the
# command after the wrapper's words): a wait for a guest slot is not the
# guest's time (the Slurm time limit bounds that wait)
qemu_first=${runner[0]:-qemu-system-x86_64}
qemu_running() {
	[[ "$(tr '\0' ' ' <"/proc/$qpid/cmdline" 2>/dev/null)" == "$qemu_first "* ]] ||
		pgrep -P "$qpid" -f "(^|[ /])$qemu_first " >/dev/null 2>&1
}
started=
rc=0
powered_off=no
qemu_up=1
[ "${#wrapper[@]}" -eq 0 ] || qemu_up=
while kill -0 "$qpid" 2>/dev/null; do
	if [ -z "$qemu_up" ]; then
		if qemu_running; then
			qemu_up=1
			log vm "QEMU started after a wait of $(secs_since "$t0")s in LAB_VM_WRAPPER"
			t0=$(now_ns)
		fi
		sleep 0.2
		continue
	fi
	if [ -z "$started" ] && [ -f "$rundir/guest/first-step" ]; then
		started=1
		log vm "guest running the job ($(secs_since "$t0")s after QEMU started)"
	fi
	progress_poll
	if [ "$(($(now_ns) - t0))" -ge "$((deadline * 1000000000))" ]; then
		rc=124
		# the power button first: a guest that still runs its PID 1 stops
		# its job and powers off cleanly; QEMU is stopped 20 s later
		# shellcheck disable=SC2016 # $1 is expanded by that bash
		if timeout 5 bash -c 'echo system_powerdown >"$1"' _ "$mon/monitor.in" 2>/dev/null; then
			for ((i = 0; i < 100; i++)); do
				kill -0 "$qpid" 2>/dev/null || break
				sleep 0.2
			done
			kill -0 "$qpid" 2>/dev/null || powered_off=yes
		fi
		[ "${#wrapper[@]}" -eq 0 ] || pkill -P "$qpid" 2>/dev/null || true
		kill "$qpid" 2>/dev/null || true
		break
	fi
	sleep 0.2
done
set +e
wait "$qpid"
wrc=$?
set -e
qpid=
[ "$rc" -eq 124 ] || rc=$wrc
elapsed=$(secs_since "$t0")
progress_done
wait "$hpid" || log vm "labhost sample exited $?: no host load recorded"
"$LAB_ROOT/build/labhost" summary --load "$rundir/host-load.csv" --progress "$rundir/progress.log" \
	>"$rundir/host-load.json" || log vm "labhost summary failed: no host load summed up"

boot_seconds=null
if [ -f "$rundir/guest/first-step" ]; then
	t_first=$(stat -c %.9Y "$rundir/guest/first-step")
	boot_seconds=$(awk -v a="$t_first" -v b="$t0" 'BEGIN {printf "%.3f", a - b / 1e9}')
fi
net_mode=$(cat "$rundir/guest/net_mode" 2>/dev/null || echo none)
{
	echo "accel=$accel"
	echo "vcpus=$vcpus"
	echo "mem_mb=$mem"
	echo "net_mode=$net_mode"
	echo "qemu_version=$qemu_version"
	echo "boot_seconds=$boot_seconds"
	echo "vm_seconds=$elapsed"
	echo "qemu_exit=$rc"
} | atomic_write "$rundir/vm.env"

# Verdict: deadline, QEMU's exit, kernel trouble on the console, the job
failures=()
last_step=$(tr -d '\r' <"$rundir/console.log" 2>/dev/null | grep -ao 'lab-init: step [^:]*$' | tail -1 | cut -d' ' -f3)
if [ "$rc" -eq 124 ] && [ "$powered_off" = yes ]; then
	failures+=("guest hung: the deadline of ${deadline}s passed; the guest powered off when the host pressed its power button")
elif [ "$rc" -eq 124 ]; then
	failures+=("guest hung: the deadline of ${deadline}s passed, QEMU was stopped")
fi
[ ! -f "$rundir/guest/deadline-passed" ] ||
	failures+=("guest hung: step '$last_step' was still running at the guest's deadline of ${guest_deadline}s; the guest stopped it and powered off")
[ "$rc" -eq 124 ] || [ "$rc" -eq 0 ] || failures+=("QEMU exited with $rc: $(tail -3 "$rundir/qemu.log" | tr '\n' ' ')")
trouble=$("$LAB_ROOT/bench/console-check.sh" "$rundir/console.log" || true)
[ -z "$trouble" ] || failures+=("kernel trouble on the console:
$trouble")
[ -f "$rundir/guest/done" ] || failures+=("the guest did not finish its job (last step started: $last_step)")
for f in "$rundir"/guest/*.rc; do
	[ -f "$f" ] || continue
	r=$(cat "$f")
	name=$(basename "$f" .rc)
	[ "$r" = 0 ] || failures+=("guest step '$name' exited $r; last lines of guest/$name.log:
$(tail -5 "$rundir/guest/$name.log" | sed 's/^/    /')")
done

if [ "${#failures[@]}" -gt 0 ]; then
	printf '%s\n' "${failures[@]}" | atomic_write "$rundir/failure.txt"
	log vm "guest run failed after ${elapsed}s:"
	sed 's/^/  /' "$rundir/failure.txt" >&2
	exit 1
fi
log vm "guest job done in ${elapsed}s (first command ${boot_seconds}s after QEMU started)"

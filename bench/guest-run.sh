#!/bin/bash
# Run one workload's driver in the guest: workloads/<workload>/driver.sh,
# which writes its results into $LAB_OUT/<workload> (bench/guest-lib.sh's
# wl_main). When the run spec says trace=1 ($LAB_OUT/run.spec) the driver
# runs under trace-cmd record of the events its header names
# ("# trace-events: ..."), saved as <workload>/trace.dat for KernelShark.
# usage: bench/guest-run.sh WORKLOAD
set -eu

. "$LAB_SRC/bench/spec.sh"

name=$1
driver=$LAB_SRC/workloads/$name/driver.sh
[ -x "$driver" ] || {
	echo "error: no driver $driver for workload '$name'" >&2
	exit 2
}
spec_load "$LAB_OUT/run.spec"
out=$LAB_OUT/$name
mkdir -p "$out"
# what the report shows first for this workload travels with its results
conf=$LAB_SRC/workloads/$name/report.conf
[ ! -f "$conf" ] || cp "$conf" "$out/report.conf"

events=$(sed -n 's/^# trace-events: //p' "$driver")
if [ "$(spec_get trace 0)" = 1 ] && [ -n "$events" ]; then
	ev=()
	for e in $events; do
		ev+=(-e "$e")
	done
	exec trace-cmd record -q -o "$out/trace.dat" "${ev[@]}" -- "$driver"
fi
exec "$driver"

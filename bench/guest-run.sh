#!/bin/bash
# Run one workload's driver in the guest: workloads/<workload>/driver.sh with its
# results folder $LAB_OUT/<workload>. With LAB_TRACE=1 the driver runs under
# trace-cmd record of the events its header names ("# trace-events: ..."),
# saved as <workload>/trace.dat for KernelShark.
# usage: bench/guest-run.sh WORKLOAD
set -eu

name=$1
driver=$LAB_SRC/workloads/$name/driver.sh
[ -x "$driver" ] || {
	echo "error: no driver $driver for workload '$name'" >&2
	exit 2
}
export LAB_WORKLOAD=$name LAB_WL_OUT=$LAB_OUT/$name
mkdir -p "$LAB_WL_OUT"
# what the report shows first for this workload travels with its results
conf=$LAB_SRC/workloads/$name/report.conf
[ ! -f "$conf" ] || cp "$conf" "$LAB_WL_OUT/report.conf"

events=$(sed -n 's/^# trace-events: //p' "$driver")
if [ "${LAB_TRACE:-0}" = 1 ] && [ -n "$events" ]; then
	ev=()
	for e in $events; do
		ev+=(-e "$e")
	done
	exec trace-cmd record -q -o "$LAB_WL_OUT/trace.dat" "${ev[@]}" -- "$driver"
fi
exec "$driver"

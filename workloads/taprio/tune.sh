#!/bin/bash
# The taprio schedule tuning sweep, in the guest (./run-lab.sh tune-taprio
# FILE, through workloads/taprio/driver.sh with LAB_TAPRIO_TUNE=FILE).
#
# usage: workloads/taprio/tune.sh FILE BOUND_US OUT_DIR
#
# Around the schedule FILE: for each traffic class, its windows scaled by
# 0.25, 0.5, 0.75, 1 and 1.5 (the other entries as they are, so the cycle
# changes with them), and every window scaled by 0.5, 1 and 2 (the cycle
# time). Each variant is measured with `taprio run` (LAB_TAPRIO_TUNE_COUNT
# packets per class, 200 by default, 100 per second) into
# OUT_DIR/tune/<variant>/ (its schedule.sched, CSV files and summary.json);
# then `taprio tune-report` writes OUT_DIR/tune.csv and
# OUT_DIR/tune-recommendation.txt from them (per class: the shortest window
# with no violation and a p99 gate lateness under BOUND_US, or why none).
set -eu

file=$1 bound=$2 out=$3
bin=$LAB_SRC/build/taprio
count=${LAB_TAPRIO_TUNE_COUNT:-200}
scales="0.25 0.5 0.75 1 1.5"
cycles="0.5 1 2"
work=$(mktemp -d /tmp/taprio-tune.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

[[ "$bound" =~ ^[0-9]+([.][0-9]+)?$ ]] || {
	echo "error: the lateness bound '$bound' is not a number of microseconds" >&2
	exit 2
}
# The number of classes, from taprio's own parser
num_tc=$("$bin" num-tc "$file")
mkdir -p "$out/tune"

# measure NAME VARIANT_OPTION...: one variant into $out/tune/NAME (measured
# in tmpfs, then copied: 9p is slow for the rewrites of summary.json)
measure() {
	local name=$1 dir work_dir
	shift
	dir=$out/tune/$name
	work_dir=$work/$name
	mkdir -p "$dir" "$work_dir"
	"$bin" variant "$@" "$file" >"$work_dir/schedule.sched"
	cp "$work_dir/schedule.sched" "$dir/"
	echo "== tune: $name" >&2
	if ! "$bin" run --out "$work_dir" --count "$count" --rate 100 --sync-threshold 10000 \
		"$work_dir/schedule.sched" 2>"$work_dir/run.err"; then
		echo "tune: $name not measured: $(tail -1 "$work_dir/run.err")" >&2
		cp "$work_dir/run.err" "$dir/"
		return 0
	fi
	if ! "$bin" report --out "$work_dir" 2>"$work_dir/report.err"; then
		echo "tune: $name: taprio report failed: $(tail -1 "$work_dir/report.err")" >&2
		cp "$work_dir/report.err" "$dir/"
	fi
	cp "$work_dir"/*.csv "$dir/"
	[ ! -f "$work_dir/summary.json" ] || cp "$work_dir/summary.json" "$dir/"
}

for ((tc = 0; tc < num_tc; tc++)); do
	for s in $scales; do
		measure "window-tc$tc-x$s" --tc "$tc" --scale "$s"
	done
done
for s in $cycles; do
	measure "cycle-tcall-x$s" --scale "$s"
done

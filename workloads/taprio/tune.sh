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
# packets per class, 200 by default, 100 per second). Writes
#   tune.csv   kind,tc,scale,window_us,cycle_us,packets,violations,
#              in_window_pct,p99_lateness_us,median_lateness_us
#   tune-recommendation.txt  per class: the shortest window with no
#              violation and a p99 gate lateness under BOUND_US, or why none
# and each variant's files in tune/<variant>/.
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
tcargs=$("$bin" check "$file")
num_tc=$(awk '{print $2}' <<<"$tcargs")
mkdir -p "$out/tune"

# windows FILE TC: the open time of class TC per cycle and the cycle, us
windows() {
	local c w
	read -r c w _ <<<"$("$bin" window "$1" --tc "$2")"
	echo "$((w / 1000)) $((c / 1000))"
}

# measure KIND TC SCALE: one variant; appends a line to tune.csv
measure() {
	local kind=$1 tc=$2 scale=$3 name dir v classes t win cyc
	name=$kind-tc$tc-x$scale
	dir=$out/tune/$name
	mkdir -p "$dir" "$work/$name"
	if [ "$kind" = window ]; then
		"$bin" variant "$file" --tc "$tc" --scale "$scale" >"$work/$name/schedule.sched"
	else
		"$bin" variant "$file" --scale "$scale" >"$work/$name/schedule.sched"
	fi
	echo "== tune: $name" >&2
	if ! "$bin" run "$work/$name/schedule.sched" --out "$work/$name" --count "$count" \
		--rate 100 --sync-threshold 10000 2>"$work/$name/run.err"; then
		echo "tune: $name not measured: $(tail -1 "$work/$name/run.err")" >&2
		cp "$work/$name/run.err" "$dir/" 2>/dev/null || true
		return 0
	fi
	"$bin" report "$work/$name" 2>/dev/null || true
	cp "$work/$name"/*.csv "$work/$name/summary.json" "$work/$name/schedule.sched" "$dir/" 2>/dev/null || true
	# The swept class (for the cycle sweep: every class, one line each)
	if [ "$kind" = window ]; then
		classes=$tc
	else
		classes=$(seq 0 $((num_tc - 1)))
	fi
	for t in $classes; do
		v=$(jq -r --arg tc "$t" '
			def m($n): [.metrics[] | select(.name == $n and .params.tc == $tc)][0];
			[m("in_window_pct").n, m("violations").median, m("in_window_pct").mean,
			 m("gate_lateness_us").p99, m("gate_lateness_us").median] | map(. // "") | @csv' \
			"$work/$name/summary.json")
		# (no process substitution: the guest has no /dev/fd)
		read -r win cyc <<<"$(windows "$work/$name/schedule.sched" "$t")"
		echo "$kind,$t,$scale,$win,$cyc,$v" >>"$out/tune.csv"
	done
}

echo "kind,tc,scale,window_us,cycle_us,packets,violations,in_window_pct,p99_lateness_us,median_lateness_us" >"$out/tune.csv"
for ((tc = 0; tc < num_tc; tc++)); do
	for s in $scales; do
		measure window "$tc" "$s"
	done
done
for s in $cycles; do
	measure cycle all "$s"
done

# The recommendation: per class, the shortest window meeting both conditions
{
	echo "schedule: ${LAB_TAPRIO_TUNE_NAME:-$file}; bound: p99 gate lateness <= $bound us and no violation"
	for ((tc = 0; tc < num_tc; tc++)); do
		best=$(awk -F, -v t="$tc" -v b="$bound" '
			$1 == "window" && $2 == t && $7 != "" && $7 + 0 == 0 && $9 != "" && $9 + 0 <= b + 0 {
				if (best == "" || $4 + 0 < best + 0) {best = $4; sc = $3}}
			END {if (best != "") printf "%s us (scale %s)", best, sc}' "$out/tune.csv")
		if [ -n "$best" ]; then
			echo "class $tc: shortest window meeting the bound: $best"
		else
			# The nearest miss: fewest violations, then the lowest p99
			near=$(awk -F, -v t="$tc" '
				$1 == "window" && $2 == t && $7 != "" && $9 != "" {
					if (v == "" || $7 + 0 < v + 0 || ($7 + 0 == v + 0 && $9 + 0 < p + 0)) {
						v = $7; p = $9; w = $4; sc = $3; n = $6}}
				END {if (v != "") printf "window %s us (scale %s): %s of %s packets outside, p99 %.0f us", w, sc, v, n, p}' \
				"$out/tune.csv")
			echo "class $tc: no window of the sweep met the bound; nearest: ${near:-none measured}"
		fi
	done
} >"$out/tune-recommendation.txt"
cat "$out/tune-recommendation.txt" >&2

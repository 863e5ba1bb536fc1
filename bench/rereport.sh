#!/bin/bash
# Run each workload's report again on a copy of a run's folder and compare
# what it writes with what the run has: report is a function of the run
# folder (the records and raw files), so summary.json must come out the same
# metric for metric (name, params and every statistic), with the same status
# and reason, and targets.json the same. The reasons the run's driver gave
# report (--failed) are in WORKLOAD/failures.txt, one a line.
# Prints one line per workload: "WORKLOAD: same, N metrics", or what differs.
# Exits 1 when a workload's figures differ or its report fails.
# usage: bench/rereport.sh RUN_DIR OUT_DIR   (OUT_DIR: made, must not exist)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '2,10s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
[ $# -eq 2 ] || usage_error "expected RUN_DIR and OUT_DIR, got $# arguments"
[ -d "$1" ] || usage_error "run directory '$1' does not exist"
[ ! -e "$2" ] || usage_error "'$2' exists already: give a folder to make"
run=$1 out=$2
mkdir -p "$out"

# The metrics of a summary, one line each, sorted by name and params
metrics() {
	jq -S -c '.metrics[] | {name, params, unit, n, median, mean, stddev, min, max, p99, ci95}' "$1" | LC_ALL=C sort
}

rc=0 seen=0
for d in "$run"/*/; do
	w=$(basename -- "$d")
	if [ ! -f "$d/summary.json" ] || [ ! -x "$LAB_ROOT/build/$w" ]; then continue; fi
	seen=$((seen + 1))
	cp -r -- "$d" "$out/$w"
	args=()
	if [ -f "$d/failures.txt" ]; then
		while IFS= read -r reason; do
			[ -z "$reason" ] || args+=(--failed "$reason")
		done <"$d/failures.txt"
	fi
	if ! "$LAB_ROOT/build/$w" report --out "$out/$w" "${args[@]}" >"$out/$w.report.log" 2>&1; then
		echo "$w: report failed (exit status not 0; its messages: $out/$w.report.log)"
		rc=1
		continue
	fi
	metrics "$d/summary.json" >"$out/$w.before"
	metrics "$out/$w/summary.json" >"$out/$w.after"
	why=
	diff -q "$out/$w.before" "$out/$w.after" >/dev/null ||
		why+=" metrics: $(diff "$out/$w.before" "$out/$w.after" | grep -c '^[<>]') lines differ ($out/$w.before, $out/$w.after);"
	[ "$(jq -c '[.status, .reason]' "$d/summary.json")" = "$(jq -c '[.status, .reason]' "$out/$w/summary.json")" ] ||
		why+=" status or reason differ;"
	cmp -s <(jq -S . "$d/targets.json" 2>/dev/null) <(jq -S . "$out/$w/targets.json" 2>/dev/null) ||
		why+=" targets.json differs;"
	if [ -n "$why" ]; then
		echo "$w: DIFFERS:$why"
		rc=1
	else
		echo "$w: same, $(grep -c '' "$out/$w.after") metrics"
	fi
done
[ "$seen" -gt 0 ] || die "no workload folder with a summary.json and a program in build/ in $run"
exit "$rc"

#!/bin/bash
# Compare groups of runs, one run per boot, with build/labcompare: per-boot
# medians, Student's t on their logarithms with Benjamini-Hochberg across
# the metrics, %change of medians with a 95 % bootstrap interval, CV across
# boots. Writes compare.txt (printed) and compare.json into the ab folder,
# or into RUN_B1/compare-groups/ (-2, -3... if taken).
# usage: bench/compare-groups.sh AB_FOLDER
#        bench/compare-groups.sh A1,A2,... B1,B2,...   (run ids or paths)
set -eu
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
LAB_PROG="./run-lab.sh compare"

# side LIST: the comma-separated runs resolved to directories, comma-separated
side() {
	local r dirs=() IFS=,
	for r in $1; do
		dirs+=("$(resolve_run "$r")")
	done
	echo "${dirs[*]}"
}

asked=
if [ $# -eq 1 ]; then
	ab=$(resolve_run "$1")
	[ -f "$ab/ab.env" ] || usage_error "'$1' is not an ab folder (no ab.env): give two lists of runs"
	a=$(find "$ab" -maxdepth 2 -path "$ab/a*/meta.json" -printf '%h\n' | sort -V | paste -sd,)
	b=$(find "$ab" -maxdepth 2 -path "$ab/b*/meta.json" -printf '%h\n' | sort -V | paste -sd,)
	if [ -z "$a" ] || [ -z "$b" ]; then
		usage_error "ab folder '$1' lacks runs of side A or B"
	fi
	out=$ab
	asked=$(sed -n 's/^asked=//p' "$ab/ab.env")
elif [ $# -eq 2 ]; then
	a=$(side "$1")
	b=$(side "$2")
	out=${b%%,*}/compare-groups
	if [ -e "$out" ]; then
		i=2
		while [ -e "$out-$i" ]; do i=$((i + 1)); done
		out=$out-$i
	fi
	mkdir -p "$out"
else
	usage_error "expected an ab folder, or two comma-separated lists of runs"
fi
make -s -C "$LAB_ROOT" build/labcompare
"$LAB_ROOT/build/labcompare" --a "$a" --b "$b" --out "$out" ${asked:+--asked "$asked"}
sed -n '1,40p' "$out/compare.txt"
echo "comparison: $out/compare.txt (compare.json beside it)"

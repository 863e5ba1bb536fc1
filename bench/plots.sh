#!/bin/bash
# Draw the figures of a run: every plots/*.gp but common.gp and compare.gp,
# with rundir and runid set, when the input files its "# input:" lines name
# exist in the run (see plots/README.md). A failing script is reported on
# stderr and does not stop the others; the exit status is then 1.
# usage: bench/plots.sh RUN_DIR
set -eu
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
LAB_PROG=bench/plots.sh

case ${1:-} in
-h | --help)
	sed -n '2,6s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
[ $# -eq 1 ] || usage_error "expected one run directory, got $# arguments"
[ -d "$1" ] || usage_error "run directory '$1' does not exist"
run=$(cd -P -- "$1" && pwd)
id=$(run_id_of "$run")
gnuplot_safe "$run$id" ||
	usage_error "run directory '$run' or run id '$id' contains a quote or backslash, which gnuplot cannot take"

drawn=0 skipped=0 failed=0
for gp in "$LAB_ROOT"/plots/*.gp; do
	[ -f "$gp" ] || continue
	name=$(basename -- "$gp" .gp)
	case $name in common | compare) continue ;; esac
	missing=
	while IFS= read -r input; do
		[ -e "$run/$input" ] || missing=$input
	done < <(sed -n 's/^# input: *//p' "$gp")
	if [ -n "$missing" ]; then
		printf 'plots: skip %s: no %s in the run\n' "$name" "$missing"
		skipped=$((skipped + 1))
		continue
	fi
	if err=$(cd "$LAB_ROOT" && gnuplot -e "rundir='$run'; runid='$id'" "$gp" 2>&1); then
		printf 'plots: drew %s\n' "$name"
		drawn=$((drawn + 1))
	else
		printf 'plots: %s failed:\n%s\n' "plots/$name.gp" "$err" >&2
		failed=$((failed + 1))
	fi
done
printf 'plots: %d drawn, %d skipped, %d failed\n' "$drawn" "$skipped" "$failed"
[ "$failed" -eq 0 ]

#!/bin/bash
# Compare runs metric by metric, the boot being the unit of replication:
# build/labcompare takes each run's median of a metric as one sample, tests
# the sides across boots (Student's t on logarithms, or on the values for
# metrics that can be 0 or negative; Benjamini-Hochberg at a 5 % false
# discovery rate) and gives the %change with the 95 % interval of that same
# test, and for an unchanged metric the smallest change it could have seen. With one run a side it gives %change only and says
# that one boot a side gives no significance (the samples of one boot are
# serially correlated: a test on them overstates significance).
# Writes compare.txt (printed), compare.json, compare.md, compare.html and
# one figure per metric name (%change of B against A per parameter set,
# plots/compare.gp): into the ab folder, or into RUN_B1/compare-<A1 id>/
# (-2, -3... if taken) or OUTDIR; never overwrites.
# usage: bench/compare.sh AB_FOLDER
#        bench/compare.sh [--asked KEYS] A1[,A2...] B1[,B2...] [OUTDIR]   (run ids or paths)
# --asked: the meta.json keys the sides were meant to differ in
# (comma-separated), for runs given as lists (an ab folder's ab.env says it)
set -eu
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
LAB_PROG="./run-lab.sh compare"

asked=
case ${1:-} in
-h | --help)
	sed -n '2,16s/^# \{0,1\}//p' "$0"
	exit 0
	;;
--asked)
	[ $# -ge 2 ] || usage_error "--asked needs a value"
	asked=$2
	shift 2
	;;
-*) usage_error "unknown option '$1'" ;;
esac

# side LIST: the comma-separated runs resolved to directories, comma-separated
side() {
	local r dirs=() IFS=,
	[ -n "$1" ] || usage_error "an empty list of runs"
	for r in $1; do
		dirs+=("$(resolve_run "$r")")
	done
	echo "${dirs[*]}"
}

into_ab=0
if [ $# -eq 1 ]; then
	ab=$(resolve_run "$1")
	[ -f "$ab/ab.env" ] || usage_error "'$1' is not an ab folder (no ab.env): give two runs or two lists of runs"
	a=$(find "$ab" -maxdepth 2 -path "$ab/a*/meta.json" -printf '%h\n' | sort -V | paste -sd,)
	b=$(find "$ab" -maxdepth 2 -path "$ab/b*/meta.json" -printf '%h\n' | sort -V | paste -sd,)
	if [ -z "$a" ] || [ -z "$b" ]; then
		usage_error "ab folder '$1' lacks runs of side A or B"
	fi
	out=$ab
	into_ab=1
	asked=$(sed -n 's/^asked=//p' "$ab/ab.env")
elif [ $# -eq 2 ] || [ $# -eq 3 ]; then
	a=$(side "$1")
	b=$(side "$2")
	if [ $# -eq 3 ]; then
		out=$3
		if [ -e "$out" ] && [ -n "$(ls -A -- "$out" 2>/dev/null || echo x)" ]; then
			usage_error "output directory '$out' exists and is not empty; refusing to overwrite it"
		fi
	else
		id=$(run_id_of "${a%%,*}")
		out=${b%%,*}/compare-$(printf '%s' "$id" | tr -c 'A-Za-z0-9._-' '_')
		if [ -e "$out" ]; then
			i=2
			while [ -e "$out-$i" ]; do i=$((i + 1)); done
			out=$out-$i
		fi
	fi
	mkdir -p -- "$(dirname -- "$out")"
	out=$(cd -P -- "$(dirname -- "$out")" && pwd)/$(basename -- "$out")
else
	usage_error "expected an ab folder, two runs, or two comma-separated lists of runs (and an OUTDIR), got $# arguments"
fi
gnuplot_safe "$out" || usage_error "output directory '$out' contains a quote or backslash"
make -s -C "$LAB_ROOT" build/labcompare ||
	die "build/labcompare is missing and 'make build/labcompare' could not build it"

# everything is made in a temporary sibling, then moved into place
work=$(mktemp -d "${out%/}.tmp.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
"$LAB_ROOT/build/labcompare" --a "$a" --b "$b" --out "$work" ${asked:+--asked "$asked"}
j=$work/compare.json
ids() {
	local d ids=() IFS=,
	for d in $1; do
		ids+=("$(run_id_of "$d")")
	done
	IFS=' '
	echo "${ids[*]}"
}
a_ids=$(ids "$a")
b_ids=$(ids "$b")
a1=${a%%,*}
b1=${b%%,*}

# --- figures: %change of B against A per parameter set, one per metric name --
jq -r '.metrics[] | select(.change_pct != null) | "\(.workload).\(.name)"' "$j" | sort -u >"$work/names"
plots=0
while IFS= read -r name; do
	safe=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
	report_jq compare-figure --arg n "$name" "$j" >"$work/compare-$safe.csv"
	if (cd "$LAB_ROOT" && gnuplot -e "rundir='$work'; metric='$safe'; boots='$(jq -r '"\(.boots_a) boot(s) in A, \(.boots_b) in B"' "$j")'" \
		plots/compare.gp) 2>"$work/gnuplot.err"; then
		plots=$((plots + 1))
	else
		printf 'warning: the figure of %s could not be drawn: %s\n' "$name" "$(tr '\n' ' ' <"$work/gnuplot.err")" >&2
	fi
done <"$work/names"

# --- what it could not see: the detectable changes, per workload ---------------
mapfile -t dwl < <(jq -r '[.metrics[] | select(.changed == false and .detectable_pct != null) | .workload] | unique[]' "$j")
detectable=0
if [ "${#dwl[@]}" -gt 0 ]; then
	for w in "${dwl[@]}"; do
		report_jq compare-detectable --arg w "$w" "$j" >"$work/compare-detectable-$w.csv"
	done
	if (cd "$LAB_ROOT" && gnuplot -e "rundir='$work'; workloads='${dwl[*]}'; boots='$(jq -r '"\(.boots_a) boot(s) in A, \(.boots_b) in B"' "$j")'" \
		plots/compare-detectable.gp) 2>"$work/gnuplot.err"; then
		detectable=1
	else
		printf 'warning: the figure of the detectable changes could not be drawn: %s\n' "$(tr '\n' ' ' <"$work/gnuplot.err")" >&2
	fi
fi

# --- compare.md and compare.html --------------------------------------------------
# rows changed|both: the metrics found changed, or those both sides have, as
# a table
rows() {
	{
		printf 'workload\tmetric\tparams\tunit\tboots A/B\tmedian A\tmedian B\t%%change\t95%% interval\tq\tCV A/B\tverdict\n'
		report_jq compare-rows --arg which "$1" "$j" | report_awk fmt compare-rows
	} | doc_table
}
changed=$(jq '[.metrics[] | select(.changed == true)] | length' "$j")
doc_begin "$work/compare.md" "$work/compare.html" "Comparison: A ($a_ids) against B ($b_ids)"
doc_h 2 "Verdict"
doc_pre < <(grep -v -e '^warning:' -e '^time:' "$work/compare.txt" | sed -n '1,2p')
if [ "$changed" -gt 0 ]; then
	doc_h 2 "Changes found ($changed), ranked by effect"
	rows changed
fi
if jq -e '.warnings | length > 0' "$j" >/dev/null; then
	doc_h 2 "Warnings"
	jq -r '.warnings[] | "warning: \(.)"' "$j" | doc_pre
fi
doc_h 2 "Runs"
{
	printf 'key\tA\tB\n'
	printf 'runs (one per boot)\t%s\t%s\n' "$a_ids" "$b_ids"
	for k in kernel_flavour kernel_version series_hash config_hash cmdline_extra sysctls accel hz vcpus \
		mem_mb net_mode profile host_cpu lab_commit; do
		printf '%s\t%s\t%s\n' "$k" "$(meta_get "$a1" "$k")" "$(meta_get "$b1" "$k")"
	done
} | doc_table
doc_p "The first run of each side is shown; labcompare warns above when the runs of a side differ among themselves."
doc_h 2 "Every metric"
doc_p "Per-boot median of each run; median A and B are the medians of those. On the log scale (most metrics) the %change is that of the geometric means of the per-boot values, exp(d) - 1 with d the difference of their mean logarithms, and its 95 % interval exp(d +- t se) - 1 is that of Student's t-test on the logarithms, the test whose Benjamini-Hochberg adjusted p is q; on the difference scale (metrics that can be 0 or negative: offsets, drifts, percentages) the same on the values, the %change being (mean B - mean A) / |mean A|. CV is across boots. A metric is changed when q < 0.05 and its interval excludes 0; for the others, 'none > X%' is the smallest change the comparison could have detected with 80 % power at alpha 0.05 per metric."
rows both
if jq -e '[.metrics[] | select(.boots_a == 0 or .boots_b == 0)] | length > 0' "$j" >/dev/null; then
	doc_h 2 "Metrics one side lacks"
	jq -r '.metrics[] | select(.boots_a == 0 or .boots_b == 0) |
		"\(.why): \(.workload).\(.name) \(.params | tostring)"' "$j" | doc_pre
fi
if [ "$detectable" = 1 ]; then
	doc_h 2 "What it could not see"
	doc_p "For each metric not found changed, the smallest change the comparison could have detected with 80 % power at alpha 0.05 per metric (before the false-discovery correction, which asks for more), at the spread of its boots: 'no change' reads 'no change larger than that'."
	doc_img "$work/compare-detectable.png" "$work"
fi
doc_h 2 "Time"
doc_pre < <(grep '^time:' "$work/compare.txt" | sed 's/^time: //; s/, /\n/g')
if [ "$plots" -gt 0 ]; then
	doc_h 2 "Figures"
	doc_p "%change of B against A per parameter set; error bars: the 95 % interval (none with one boot a side); red: found changed."
	for f in "$work"/compare-*.png; do
		[ "$f" = "$work/compare-detectable.png" ] || doc_img "$f" "$work"
	done
fi
doc_end

rm -f -- "$work/names" "$work/gnuplot.err"
if [ "$into_ab" = 1 ]; then
	rm -f -- "$out"/compare.txt "$out"/compare.json "$out"/compare.md "$out"/compare.html "$out"/compare-*
	mv -- "$work"/* "$out"/
	rmdir -- "$work"
else
	chmod 755 "$work"
	mv -T -- "$work" "$out"
fi
trap - EXIT
printf 'A: %s\nB: %s\n' "$a_ids" "$b_ids"
sed -n '1,40p' "$out/compare.txt"
printf '\ncomparison: %s/compare.txt (compare.json, compare.md, compare.html beside it)\n' "$out"

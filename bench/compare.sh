#!/bin/bash
# Compare two runs, metric by metric (workload, name and params): A mean
# +- stddev%, B mean +- stddev%, %change of B against A, and whether the
# difference is significant by Welch's t-test at 95 % (two-sided), laid out
# like LKP's %stddev %change %stddev columns. Metrics found in one run only
# are listed apart; runs with different accelerator, HZ or vCPU count are
# compared with a warning naming the difference.
# Writes compare.txt (also printed), compare.md, compare.html, compare.json
# and one overlay figure per metric name (plots/compare.gp) into OUTDIR,
# by default RUN_B/compare-<A id>/ (-2, -3... if taken); never overwrites.
# usage: bench/compare.sh RUN_A RUN_B [OUTDIR]
#   RUN_A, RUN_B: run directories or run ids under results/ (e.g. latest)
set -eu
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
LAB_PROG=bench/compare.sh
LABSTAT=${LABSTAT:-$LAB_ROOT/build/labstat}

case ${1:-} in
-h | --help)
	sed -n '2,13s/^# \{0,1\}//p' "$0"
	exit 0
	;;
-*) usage_error "unknown option '$1'" ;;
esac
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	usage_error "expected RUN_A RUN_B [OUTDIR], got $# arguments"
fi
[ -x "$LABSTAT" ] || make -s -C "$LAB_ROOT" build/labstat >&2 ||
	die "$LABSTAT is missing and 'make build/labstat' could not build it"
a_dir=$(resolve_run "$1")
b_dir=$(resolve_run "$2")
a_id=$(run_id_of "$a_dir")
b_id=$(run_id_of "$b_dir")

if [ $# -eq 3 ]; then
	out=$3
	if [ -e "$out" ] && [ -n "$(ls -A -- "$out" 2>/dev/null || echo x)" ]; then
		usage_error "output directory '$out' exists and is not empty; refusing to overwrite it"
	fi
else
	out=$b_dir/compare-$(printf '%s' "$a_id" | tr -c 'A-Za-z0-9._-' '_')
	if [ -e "$out" ]; then
		i=2
		while [ -e "$out-$i" ]; do i=$((i + 1)); done
		out=$out-$i
	fi
fi
mkdir -p -- "$(dirname -- "$out")"
out=$(cd -P -- "$(dirname -- "$out")" && pwd)/$(basename -- "$out")
gnuplot_safe "$out" || usage_error "output directory '$out' contains a quote or backslash"

# everything is built in a temporary sibling and renamed into place at the end
work=$(mktemp -d "$out.tmp.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
warnings=$work/warnings

# metrics RUN_DIR A|B: one JSON object per metric of every workload summary,
# keyed by workload, name and sorted params; bad summaries become warnings
metrics() {
	local f w
	for f in "$1"/*/summary.json; do
		[ -f "$f" ] || continue
		w=$(basename -- "$(dirname -- "$f")")
		if ! jq -c --arg w "$w" '
			(.status // "none") as $st | .metrics[]? |
			{workload: $w, status: $st, name, unit, n, mean, stddev, median,
			 params: ((.params // {}) | to_entries | sort_by(.key)
				| map("\(.key)=\(.value | tostring | gsub(","; ";"))") | join(" "))}
			| .key = "\(.workload).\(.name)\(if .params == "" then "" else " " + .params end)"' \
			"$f" 2>/dev/null; then
			printf 'warning: %s is not valid JSON; its metrics are left out\n' "$f" >>"$warnings"
		fi
		if [ "$(jq -r '.status // "none"' "$f" 2>/dev/null)" != ok ]; then
			printf 'warning: workload %s did not finish ok in %s (%s)\n' \
				"$w" "$2" "$(jq -r '[.status // "no status", .reason // empty] | join(": ")' "$f" 2>/dev/null || echo unreadable)" >>"$warnings"
		fi
	done
}
: >"$warnings"
metrics "$a_dir" A >"$work/a.jsonl"
metrics "$b_dir" B >"$work/b.jsonl"
for side in A B; do
	d=$a_dir
	[ "$side" = A ] || d=$b_dir
	for w in $(meta_get "$d" workloads); do
		[ -f "$d/$w/summary.json" ] ||
			printf 'warning: workload %s has no summary.json in %s: missing\n' "$w" "$side" >>"$warnings"
	done
done

for d in "$a_dir" "$b_dir"; do
	[ -f "$d/meta.json" ] || printf 'warning: %s has no meta.json: accelerator, HZ and vCPUs cannot be checked\n' "$d" >>"$warnings"
	s=$( (head -n 1 "$d/status" 2>/dev/null || meta_get "$d" status) | tr -d '[:space:]')
	[ "$s" = ok ] || printf 'warning: run %s has status %s\n' "$(run_id_of "$d")" "${s:-unknown (interrupted?)}" >>"$warnings"
done
for k in accel:accelerator hz:HZ vcpus:"vCPU count"; do
	va=$(meta_get "$a_dir" "${k%%:*}")
	vb=$(meta_get "$b_dir" "${k%%:*}")
	[ "$va" = "$vb" ] ||
		printf 'warning: the runs differ in %s: A %s, B %s; timings may differ for that reason alone\n' \
			"${k#*:}" "${va:-unknown}" "${vb:-unknown}" >>"$warnings"
done
for k in profile net_mode mem_mb host_cpu; do
	va=$(meta_get "$a_dir" "$k")
	vb=$(meta_get "$b_dir" "$k")
	[ "$va" = "$vb" ] || printf 'note: the runs differ in %s: A %s, B %s\n' "$k" "${va:-unknown}" "${vb:-unknown}" >>"$warnings"
done

# pair the metrics up
jq -n --slurpfile a "$work/a.jsonl" --slurpfile b "$work/b.jsonl" '
	def index_by_key: reduce .[] as $m ({}; .[$m.key] += [$m]);
	($a | index_by_key) as $A | ($b | index_by_key) as $B |
	{
		both: [$A | keys_unsorted[] | select($B[.]) | {key: ., a: $A[.][0], b: $B[.][0]}],
		only_a: [$A | keys_unsorted[] | select($B[.] | not) | $A[.][0]],
		only_b: [$B | keys_unsorted[] | select($A[.] | not) | $B[.][0]],
		dups: ([$A, $B] | map(to_entries[] | select(.value | length > 1) | .key) | unique)
	}' >"$work/pairs.json"
jq -r '.dups[] | "warning: metric \(.) appears more than once in a run; the first is used"' \
	"$work/pairs.json" >>"$warnings"
jq -r '.both[] | select(.a.unit != .b.unit) |
	"warning: metric \(.key) has unit \(.a.unit) in A but \(.b.unit) in B"' \
	"$work/pairs.json" >>"$warnings"

# Welch's t-test of every pair, through the C library
jq -r '.both[] | [.a.mean, .a.stddev, .a.n, .b.mean, .b.stddev, .b.n]
	| map(if . == null then "nan" else tostring end) | join(" ")' "$work/pairs.json" |
	"$LABSTAT" welch >"$work/welch.tsv"
jq --rawfile w "$work/welch.tsv" --arg a_id "$a_id" --arg b_id "$b_id" \
	--arg a_dir "$a_dir" --arg b_dir "$b_dir" --rawfile warn "$warnings" '
	($w | split("\n") | map(select(length > 0) | split("\t"))) as $rows |
	def num: if . == "-" then null elif . == "inf" then "inf" elif . == "-inf" then "-inf"
		else tonumber end;
	def pct: if .mean == null or .stddev == null then null elif .stddev == 0 then 0
		elif .mean == 0 then null else .stddev / (if .mean < 0 then -.mean else .mean end) * 100 end;
	{
		a: {id: $a_id, dir: $a_dir}, b: {id: $b_id, dir: $b_dir},
		test: "Welch t-test, two-sided, 95 %",
		warnings: ($warn | split("\n") | map(select(length > 0))),
		both: [.both as $both | range(0; $both | length) as $i | $both[$i] |
			.a.stddev_pct = (.a | pct) | .b.stddev_pct = (.b | pct) |
			.change_pct = (if .a.mean == null or .b.mean == null then null
				elif .a.mean == 0 then (if .b.mean == 0 then 0 else null end)
				else (.b.mean - .a.mean) / (if .a.mean < 0 then -.a.mean else .a.mean end) * 100 end) |
			.welch = {t: ($rows[$i][0] | num), df: ($rows[$i][1] | num), p: ($rows[$i][2] | num),
				t_crit: ($rows[$i][3] | num), significant: $rows[$i][4]}],
		only_a: .only_a, only_b: .only_b
	}' "$work/pairs.json" >"$work/compare.json" 2>"$work/jq.err" || {
	cat "$work/jq.err" >&2
	die "cannot build compare.json"
}
[ "$(wc -l <"$work/welch.tsv")" -eq "$(jq '.both | length' "$work/compare.json")" ] ||
	die "labstat gave $(wc -l <"$work/welch.tsv") results for $(jq '.both | length' "$work/compare.json") metric pairs"

# --- text, LKP layout ---------------------------------------------------------
# columns: A mean, A stddev%, %change, B mean, B stddev%, significant, metric
rows_tsv() {
	jq -r '.both[] | [.a.mean, .a.stddev_pct, .change_pct, .b.mean, .b.stddev_pct,
		.welch.significant, .key] | map(if . == null then "null" else tostring end) | @tsv' \
		"$work/compare.json"
}
AWK_ROW="$AWK_FMT"'
function pct(x) { return x == "null" ? "-" : sprintf("%.1f%%", x) }
function chg(x) { return x == "null" ? "-" : sprintf("%+.1f%%", x) }'
{
	awk -v a="$a_id" -v b="$b_id" 'BEGIN {
		printf "%24s %10s %24s\n", substr(a, 1, 24), "", substr(b, 1, 24)
		printf "%24s %10s %24s\n", "------------------------", "----------", "------------------------"
		printf "%24s %10s %24s  %-4s %s\n", "mean    %stddev", "%change", "mean    %stddev", "sig", "metric"
		printf "%24s %10s %24s\n", "\\", "|", "\\"
	}'
	rows_tsv | awk -F '\t' "$AWK_ROW"'
		{ printf "%14s ± %7s %10s %14s ± %7s  %-4s %s\n", fmt($1), pct($2), chg($3), fmt($4), pct($5), $6, $7 }
		END { if (NR == 0) print "(no metric is present in both runs)" }'
} >"$work/lkp.txt"
{
	printf 'A: %s (%s)\nB: %s (%s)\n' "$a_id" "$a_dir" "$b_id" "$b_dir"
	printf 'significance: Welch t-test of the means, two-sided, 95 %%; %%change = (B - A) / |A|\n\n'
	cat "$warnings"
	[ ! -s "$warnings" ] || echo
	cat "$work/lkp.txt"
	for side in a b; do
		n=$(jq ".only_$side | length" "$work/compare.json")
		[ "$n" -gt 0 ] || continue
		printf '\nmetrics only in %s (%s): %d\n' "$(echo "$side" | tr ab AB)" \
			"$([ "$side" = a ] && echo "$a_id" || echo "$b_id")" "$n"
		jq -r --arg s "only_$side" '.[$s][] | [.mean, .key] | map(tostring) | @tsv' "$work/compare.json" |
			awk -F '\t' "$AWK_FMT"'{ printf "%14s  %s\n", fmt($1), $2 }'
	done
} >"$work/compare.txt"

# --- overlay figures: one per metric name, A against B medians ---------------
jq -r '.both[] | "\(.a.workload).\(.a.name)"' "$work/compare.json" | sort -u >"$work/names"
plots=0
while IFS= read -r name; do
	safe=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
	jq -r --arg n "$name" '
		"params,a_median,a_stddev,b_median,b_stddev",
		(.both[] | select("\(.a.workload).\(.a.name)" == $n) |
		 [(if .a.params == "" then "(no params)" else .a.params end),
		  .a.median, .a.stddev, .b.median, .b.stddev]
		 | map(if . == null then "NaN" else tostring end) | join(","))' \
		"$work/compare.json" >"$work/compare-$safe.csv"
	unit=$(jq -r --arg n "$name" '[.both[] | select("\(.a.workload).\(.a.name)" == $n) | .a.unit][0]
		| gsub("['\''\\\\]"; "")' "$work/compare.json")
	if (cd "$LAB_ROOT" && gnuplot -e "rundir='$work'; runid='A: ${a_id//[\'\\]/} vs B: ${b_id//[\'\\]/}'; metric='$safe'; unit='$unit'; alabel='${a_id//[\'\\]/}'; blabel='${b_id//[\'\\]/}'" plots/compare.gp) 2>"$work/gnuplot.err"; then
		plots=$((plots + 1))
	else
		printf 'warning: the figure of %s could not be drawn: %s\n' "$name" "$(tr '\n' ' ' <"$work/gnuplot.err")" | tee -a "$work/compare.txt" >&2
	fi
done <"$work/names"

# --- compare.md and compare.html ---------------------------------------------------
doc_begin "$work/compare.md" "$work/compare.html" "Comparison: $a_id (A) against $b_id (B)"
doc_h 2 "Runs"
{
	printf 'key\tA\tB\n'
	printf 'run directory\t%s\t%s\n' "$a_dir" "$b_dir"
	for k in run_id kernel_flavour kernel_version series_hash config_hash accel hz vcpus \
		mem_mb net_mode profile host_cpu status started; do
		printf '%s\t%s\t%s\n' "$k" "$(meta_get "$a_dir" "$k")" "$(meta_get "$b_dir" "$k")"
	done
} | doc_table
if [ -s "$warnings" ]; then
	doc_h 2 "Warnings"
	doc_pre <"$warnings"
fi
doc_h 2 "Metrics in both runs"
doc_p "Mean ± sample stddev (as % of the mean) of each run, %change of B against A, and whether the difference of the means is significant by Welch's t-test at 95 % (two-sided): yes, no, or n/a when a run has fewer than 2 samples."
doc_pre <"$work/lkp.txt"
{
	printf 'metric\tA mean\tA stddev%%\t%%change\tB mean\tB stddev%%\tsignificant\tt\tdf\tp\n'
	jq -r '.both[] | [.key, .a.mean, .a.stddev_pct, .change_pct, .b.mean, .b.stddev_pct,
		.welch.significant, .welch.t, .welch.df, .welch.p]
		| map(if . == null then "null" else tostring end) | @tsv' "$work/compare.json" |
		awk -F '\t' -v OFS='\t' "$AWK_ROW"'
			{ print $1, fmt($2), pct($3), chg($4), fmt($5), pct($6),
			  ($7 == "yes" ? "significant" : $7), fmt($8), fmt($9), fmt($10) }'
} | doc_table
for side in a b; do
	n=$(jq ".only_$side | length" "$work/compare.json")
	[ "$n" -gt 0 ] || continue
	doc_h 2 "Metrics only in $(echo "$side" | tr ab AB) ($([ "$side" = a ] && echo "$a_id" || echo "$b_id"))"
	{
		printf 'metric\tunit\tn\tmean\n'
		jq -r --arg s "only_$side" '.[$s][] | [.key, .unit, .n, .mean]
			| map(if . == null then "null" else tostring end) | @tsv' \
			"$work/compare.json" | awk -F '\t' -v OFS='\t' "$AWK_FMT"'{ print $1, $2, fmt($3), fmt($4) }'
	} | doc_table
done
if [ "$plots" -gt 0 ]; then
	doc_h 2 "Figures"
	doc_p "Median of each run per parameter set, error bars ±1 stddev."
	for f in "$work"/compare-*.png; do
		doc_img "$f" "$work"
	done
fi
doc_end

rm -f -- "$work/a.jsonl" "$work/b.jsonl" "$work/pairs.json" "$work/welch.tsv" "$work/names" \
	"$work/warnings" "$work/gnuplot.err" "$work/jq.err" "$work/lkp.txt"
chmod 755 "$work"
mv -T -- "$work" "$out"
trap - EXIT
cat "$out/compare.txt"
printf '\n%s\n%s\n' "$out/compare.md" "$out/compare.html"

#!/bin/bash
# Write RUN_DIR/report.md and RUN_DIR/report.html (one self-contained file,
# figures embedded), answers first:
#   1. a line on the run, the targets NOT MET and undecided by name, failed
#      or missing workloads with their log's last lines;
#   2. findings: per workload its headline figures with n and 95% interval,
#      its targets (MET, NOT MET, undecided, not judged, and why; the
#      targets of one kind in one line when none is NOT MET or undecided)
#      and its key figure;
#   3. every figure with a caption saying what to look for;
#   4. details: metric tables pivoted on a parameter, all metrics (folded),
#      notes, conformance results; then the run (kernel warnings, guest
#      commands, comparisons) and the metadata last.
# What a workload shows first comes from its report.conf (workloads/NAME/,
# copied into the run): "headline NAME [KEY=VALUE]...", "figure FILE.png",
# "columns KEY...". Works on interrupted runs: whatever is there is reported.
# usage: bench/report.sh [--no-plots] RUN   (a run folder, or a run id of results/)
#   --no-plots  do not run bench/plots.sh first
set -eu
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
LAB_PROG=bench/report.sh

# console lines that mean kernel trouble
WARN_RE='WARNING:|BUG:|Oops|Kernel panic|rcu: INFO: rcu_.*stall|Call Trace'
WARN_MAX=200
# tables longer than this are folded (<details>)
FOLD_ROWS=12

draw=1
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		sed -n '2,18s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	--no-plots) draw=0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || usage_error "expected one run, got $# arguments"
run=$(resolve_run "$1")
id=$(run_id_of "$run")

tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
if [ "$draw" = 1 ]; then
	"$LAB_ROOT/bench/plots.sh" "$run" >/dev/null 2>"$tmp/plots.err" || true
fi

# conformance FILE: "passed failed skipped planned results" of a TAP file's
# top-level results, then the failing lines (any level) as "LINE: text"
conformance() {
	tr -d '\r' <"$1" | awk -f "$REPORT_PROGS/conformance.awk"
}

# conformance_summary FILE: one line for tables
conformance_summary() {
	local p f s plan n state
	read -r p f s plan n < <(conformance "$1")
	state=ok
	[ "$f" -eq 0 ] || state=failed
	if [ "$plan" = - ]; then
		state="failed (no plan)"
	elif [ "$plan" != "$n" ]; then
		state="failed (plan 1..$plan, $n results: incomplete)"
	fi
	printf '%s: %d passed, %d failed, %d skipped\n' "$state" "$p" "$f" "$s"
}

# workload_state DIR: "ok", "failed: reason" or "missing: reason"
workload_state() {
	local d=$1 s reason
	if [ ! -d "$d" ]; then
		echo "missing: no directory $(basename -- "$d")/ in the run"
	elif [ ! -f "$d/summary.json" ]; then
		echo "missing: no summary.json (the workload did not finish)"
	elif ! s=$(jq -r '.status // "none"' "$d/summary.json" 2>/dev/null); then
		echo "failed: summary.json is not valid JSON"
	elif [ "$s" = ok ]; then
		echo ok
	else
		reason=$(jq -r '.reason // empty' "$d/summary.json")
		reason=$(printf '%s' "$reason" | tr '\t\n' '  ')
		[ "$s" = failed ] || reason="status '$s' is neither ok nor failed"
		echo "failed${reason:+: $reason}"
	fi
}

# report_conf W: the workload's report.conf (the run's copy, else the tree's)
report_conf() {
	if [ -f "$run/$1/report.conf" ]; then
		sed 's/#.*//' "$run/$1/report.conf"
	elif [ -f "$LAB_ROOT/workloads/$1/report.conf" ]; then
		sed 's/#.*//' "$LAB_ROOT/workloads/$1/report.conf"
	fi
}

# caption PNG: the "# caption:" line of the figure's gnuplot script
caption() {
	local gp
	gp=$LAB_ROOT/plots/$(basename -- "$(dirname -- "$1")")-$(basename -- "$1" .png).gp
	[ -f "$gp" ] && sed -n 's/^# caption: *//p' "$gp" | head -n 1
	return 0
}

# headlines W: TSV of the workload's headline metrics (report.conf lines
# "headline NAME [KEY=VALUE]..."): figure, params, n, value, 95% interval, unit
headlines() {
	local d=$run/$1 spec
	report_conf "$1" | awk '$1 == "headline" { $1 = ""; sub(/^ /, ""); print }' >"$tmp/hl"
	[ -s "$tmp/hl" ] && [ -f "$d/summary.json" ] || return 0
	printf 'headline\tparams\tn\tvalue\t95%% interval\tunit\n'
	while IFS= read -r spec; do
		report_jq headlines --arg spec "$spec" "$d/summary.json"
	done <"$tmp/hl" | report_awk fmt scale headlines
}

# targets_tsv W PROG: the workload's targets table by PROG (targets: one
# row a target; targets-folded: a kind's targets in one row), or nothing
targets_tsv() {
	local f=$run/$1/targets.json
	jq -e 'type == "array" and length > 0' "$f" >/dev/null 2>&1 || return 0
	printf 'target\tmeasured\tlimit\tunit\tverdict\twhy\n'
	report_jq "$2" "$f" | report_awk fmt targets
}

# pivot W NAME KEY: the metric NAME with KEY's values as columns (medians,
# one unit for the table, picked by the cells' geometric mean), other params
# as rows
pivot() {
	report_jq pivot --arg name "$2" --arg k "$3" "$run/$1/summary.json" | report_awk fmt scale pivot
}

# details_tables W: one table per metric name, pivoted on the first
# "columns" key of report.conf that the metric varies over
details_tables() {
	local w=$1 name k unit rows
	while IFS=$'\t' read -r name k; do
		pivot "$w" "$name" "$k" >"$tmp/pivot"
		unit=$(head -n 1 "$tmp/pivot")
		rows=$(($(wc -l <"$tmp/pivot") - 2))
		[ "$rows" -le "$FOLD_ROWS" ] || doc_details_begin "$name $unit: $rows rows"
		doc_p "$name $unit, median per cell (n and intervals: all metrics below)"
		tail -n +2 "$tmp/pivot" | doc_table
		[ "$rows" -le "$FOLD_ROWS" ] || doc_details_end
	done < <(report_jq details --arg keys "$(report_conf "$w" | awk '$1 == "columns" { $1 = ""; print }')" \
		"$run/$w/summary.json")
}

# all_metrics W: every metric with n, interval and spread
all_metrics() {
	printf 'metric\tparams\tunit\tn\tmedian\t95%% interval\tstddev%%\tmin\tmax\tp99\n'
	report_jq all-metrics "$run/$1/summary.json" | report_awk fmt all-metrics
}

# the workloads: those meta.json names, then other directories with results
workloads=()
if [ -f "$run/meta.json" ]; then
	while IFS= read -r w; do
		workloads+=("$w")
	done < <(jq -r '.workloads[]? | tostring' "$run/meta.json" 2>/dev/null || true)
fi
expected=${#workloads[@]}
for d in "$run"/*/; do
	w=$(basename -- "$d")
	case $w in guest | compare-*) continue ;; esac
	[ -f "$d/summary.json" ] || [ -f "$d/conformance.tap" ] || continue
	case " ${workloads[*]} " in *" $w "*) continue ;; esac
	workloads+=("$w")
done

doc_begin "$tmp/report.md" "$tmp/report.html" "Lab report: $id"

# --- the run in one line, and what failed --------------------------------------
status=
[ -f "$run/status" ] && status=$(head -n 1 "$run/status" | tr -d '[:space:]')
[ -n "$status" ] || status=$(meta_get "$run" status)
n_ok=0 n_bad=0
for w in "${workloads[@]}"; do
	case $(workload_state "$run/$w") in ok) n_ok=$((n_ok + 1)) ;; *) n_bad=$((n_bad + 1)) ;; esac
done
read -r t_met t_not t_und t_nj < <(cat "$run"/*/targets.json 2>/dev/null | report_jq verdicts -s 2>/dev/null ||
	echo 0 0 0 0)
what="profile $(meta_get "$run" profile), kernel $(meta_get "$run" kernel_flavour) $(meta_get "$run" kernel_version) (HZ $(meta_get "$run" hz)), $(meta_get "$run" accel), $(meta_get "$run" vcpus) vCPUs, started $(meta_get "$run" started)"
doc_p "Run $id: $what. Targets: $t_met MET, $t_not NOT MET, $t_und undecided, $t_nj not judged."
# the targets NOT MET and undecided by name (a kind's in one entry), before any table
declare -A counts=(["NOT MET"]=$t_not [undecided]=$t_und)
attention "$run" "${workloads[@]}" >"$tmp/attention" 2>/dev/null
for v in "NOT MET" undecided; do
	names=$(awk -F '\t' -v v="$v" '$1 == v { s = s (s == "" ? "" : "; ") $2 ": " $3 } END { print s }' "$tmp/attention")
	[ -z "$names" ] || doc_p "$([ "$v" = undecided ] && echo Undecided || echo "$v") (${counts[$v]}): $names."
done
[ "$(kernel_base_of "$(meta_get "$run" kernel_flavour)")" != debug ] ||
	doc_p "warning: a debug kernel (kernel/debug.config: lockdep, UBSAN, KFENCE, lockup detectors), so the figures below are NOT performance figures: the checkers slow every lock and many instructions. The run shows the conformance results and whether the checkers reported anything (a report fails the run)."
fail=
[ ! -s "$run/failure.txt" ] || fail=$(head -n 1 "$run/failure.txt")
case $status in
ok) doc_p "Run status: ok." ;;
'') doc_p "warning: the run has no status (no status file, none in meta.json): it may have been interrupted." ;;
*) doc_p "FAILED: run status '$status'${fail:+: $fail}" ;;
esac
if [ -f "$run/failure.txt" ] && [ "$(wc -l <"$run/failure.txt")" -gt 1 ]; then
	doc_p "Failure reason (failure.txt):"
	doc_pre <"$run/failure.txt"
fi
if [ "$n_bad" -gt 0 ]; then
	doc_p "failed: $n_bad of ${#workloads[@]} workloads failed or are missing; $n_ok ok."
	{
		printf 'workload\tstatus\tthe last lines of its guest log\n'
		for w in "${workloads[@]}"; do
			state=$(workload_state "$run/$w")
			[ "$state" != ok ] || continue
			last=-
			for log in "$run/guest/wl-$w.log" "$run/guest/$w.log"; do
				if [ -s "$log" ]; then
					last="guest/$(basename -- "$log"): $(tail -n 3 "$log" | awk '{ gsub(/\t/, " "); s = s (NR > 1 ? " / " : "") $0 } END { print s }')"
					break
				fi
			done
			printf '%s\t%s\t%s\n' "$w" "$state" "$last"
		done
	} | doc_table
else
	doc_p "Workloads: all ${#workloads[@]} ok."
fi

# --- findings: headlines, targets and the key figure per workload ---------------
doc_h 2 "Findings"
for w in "${workloads[@]}"; do
	d=$run/$w
	state=$(workload_state "$d")
	doc_h 3 "$w$([ "$state" = ok ] || echo " ($state)")"
	[ -d "$d" ] || continue
	fig=$(report_conf "$w" | awk '$1 == "figure" { print $2; exit }')
	doc_raw '<div class="finding"><div>'
	headlines "$w" >"$tmp/headlines"
	if [ -s "$tmp/headlines" ]; then
		doc_table <"$tmp/headlines"
	elif [ -f "$d/summary.json" ]; then
		doc_p "No headline figures declared (report.conf) or found in summary.json."
	fi
	doc_raw '</div>'
	if [ -n "$fig" ] && [ -f "$d/$fig" ]; then
		doc_img "$d/$fig" "$run" "$(caption "$d/$fig")"
	fi
	doc_raw '</div>'
	if [ -f "$d/targets.json" ] && ! jq -e 'type == "array"' "$d/targets.json" >/dev/null 2>&1; then
		doc_p "warning: targets.json is not a JSON array."
	elif [ -f "$d/targets.json" ]; then
		targets_tsv "$w" targets >"$tmp/targets"
		targets_tsv "$w" targets-folded >"$tmp/targets-folded"
		if [ ! -s "$tmp/targets" ]; then
			doc_p "No targets in targets.json."
		elif cmp -s "$tmp/targets" "$tmp/targets-folded"; then
			doc_table <"$tmp/targets"
		else
			# the targets of a kind in one line each, unless one is NOT MET or undecided
			doc_table <"$tmp/targets-folded"
			doc_details_begin "All $(($(wc -l <"$tmp/targets") - 1)) targets of $w"
			doc_table <"$tmp/targets"
			doc_details_end
		fi
	elif [ -f "$d/summary.json" ]; then
		doc_p "No targets.json: the workload judged no targets."
	fi
done

# --- figures ----------------------------------------------------------------------
if compgen -G "$run/*/*.png" >/dev/null || [ -s "$tmp/plots.err" ]; then
	doc_h 2 "Figures"
	if [ -s "$tmp/plots.err" ]; then
		doc_p "warning: some figures could not be drawn:"
		doc_pre <"$tmp/plots.err"
	fi
	for w in "${workloads[@]}"; do
		figs=$(find "$run/$w" -maxdepth 1 -name '*.png' 2>/dev/null | sort)
		[ -n "$figs" ] || continue
		doc_h 3 "$w"
		while IFS= read -r f; do
			doc_img "$f" "$run" "$(caption "$f")"
		done <<<"$figs"
	done
fi

# --- details per workload ----------------------------------------------------------
doc_h 2 "Details"
for w in "${workloads[@]}"; do
	d=$run/$w
	doc_h 3 "Workload $w"
	doc_p "Status: $(workload_state "$d")"
	[ -d "$d" ] || continue
	if jq -e '.metrics | length > 0' "$d/summary.json" >/dev/null 2>&1; then
		details_tables "$w"
		all_metrics "$w" >"$tmp/all"
		doc_details_begin "All metrics of $w: $(($(wc -l <"$tmp/all") - 1)) rows with n, 95% interval and spread"
		doc_table <"$tmp/all"
		doc_details_end
	elif [ -f "$d/summary.json" ]; then
		doc_p "No metrics in summary.json."
	fi
	if [ -f "$d/notes.md" ]; then
		doc_h 4 "Notes"
		doc_pre <"$d/notes.md"
	fi
	if [ -f "$d/conformance.tap" ]; then
		doc_h 4 "Conformance"
		doc_p "$(conformance_summary "$d/conformance.tap") (conformance.tap)"
		bad=$(conformance "$d/conformance.tap" | tail -n +2)
		if [ -n "$bad" ]; then
			doc_p "Failing lines:"
			printf '%s\n' "$bad" | doc_pre
		fi
	fi
	files=$(find "$d" -maxdepth 1 -type f ! -name '*.png' ! -name '*.svg' -printf '%f\n' | sort | paste -sd ' ')
	[ -z "$files" ] || doc_p "Files: $files"
done

# --- the run -----------------------------------------------------------------------
doc_h 2 "The run"
doc_h 3 "Workloads"
if [ "${#workloads[@]}" -eq 0 ]; then
	doc_p "warning: no workloads: meta.json names none and no workload directory has results."
else
	{
		printf 'workload\tstatus\tmetrics\tconformance\tfigures\n'
		i=0
		for w in "${workloads[@]}"; do
			d=$run/$w
			m=$(jq -r '.metrics | length' "$d/summary.json" 2>/dev/null || echo -)
			c=-
			[ -f "$d/conformance.tap" ] && c=$(conformance_summary "$d/conformance.tap")
			p=$(find "$d" -maxdepth 1 -name '*.png' 2>/dev/null | wc -l)
			note=
			[ "$i" -lt "$expected" ] || note=" (not listed in meta.json)"
			printf '%s%s\t%s\t%s\t%s\t%s\n' "$w" "$note" "$(workload_state "$d")" "$m" "$c" "$p"
			i=$((i + 1))
		done
	} | doc_table
fi

doc_h 3 "Kernel warnings (console.log)"
if [ ! -f "$run/console.log" ]; then
	doc_p "warning: console.log is missing."
else
	nwarn=$(tr -d '\r' <"$run/console.log" | grep -acE "$WARN_RE" || true)
	if [ "$nwarn" -eq 0 ]; then
		doc_p "None: no line of console.log ($(wc -l <"$run/console.log") lines) matches $WARN_RE."
	else
		doc_p "warning: $nwarn console line(s) show kernel trouble (matching $WARN_RE)$([ "$nwarn" -le "$WARN_MAX" ] || echo "; the first $WARN_MAX are shown")."
		tr -d '\r' <"$run/console.log" | grep -anE "$WARN_RE" | head -n "$WARN_MAX" | doc_pre
	fi
fi

doc_h 3 "Guest commands"
if ! compgen -G "$run/guest/*.rc" >/dev/null; then
	doc_p "No exit statuses recorded (no guest/*.rc files)."
else
	{
		printf 'step\texit status\tresult\n'
		for f in "$run"/guest/*.rc; do
			rc=$(tr -d '[:space:]' <"$f")
			case $rc in
			0) r=ok ;;
			'') r="failed: empty status file"; rc=- ;;
			*) r=failed ;;
			esac
			printf '%s\t%s\t%s\n' "$(basename -- "$f" .rc)" "$rc" "$r"
		done
	} | doc_table
fi

if compgen -G "$run/compare-*/compare.html" >/dev/null; then
	doc_h 3 "Comparisons"
	{
		printf 'comparison\tMarkdown\tHTML\n'
		for c in "$run"/compare-*/compare.html; do
			c=$(basename -- "$(dirname -- "$c")")
			printf '%s\t%s\t%s\n' "$c" "$c/compare.md" "$c/compare.html"
		done
	} | doc_table
fi

# --- metadata, last ----------------------------------------------------------------
doc_h 2 "Metadata"
if [ ! -f "$run/meta.json" ]; then
	doc_p "warning: meta.json is missing: the run did not get far enough to write it."
elif ! jq -e 'type == "object"' "$run/meta.json" >/dev/null 2>&1; then
	doc_p "warning: meta.json is not a valid JSON object."
else
	{
		printf 'key\tvalue\n'
		report_jq metadata "$run/meta.json"
	} | doc_table
fi

doc_end
atomic_write "$run/report.md" <"$tmp/report.md"
atomic_write "$run/report.html" <"$tmp/report.html"
printf '%s\n' "$run/report.md" "$run/report.html"

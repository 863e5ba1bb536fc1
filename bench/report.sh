#!/bin/bash
# Write RUN_DIR/report.md and RUN_DIR/report.html (self-contained, figures
# embedded): run status, metadata, kernel warnings of the console, guest
# command exit statuses, and per workload its status, metrics, targets
# (targets.json: MET, NOT MET or not judged), figures and conformance results. Workloads that failed or are missing are shown as such.
# Works on interrupted runs: whatever is there is reported.
# usage: bench/report.sh [--no-plots] RUN   (a run folder, or a run id of results/)
#   --no-plots  do not run bench/plots.sh first
set -eu
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
LAB_PROG=bench/report.sh

# console lines that mean kernel trouble
WARN_RE='WARNING:|BUG:|Oops|Kernel panic|rcu: INFO: rcu_.*stall|Call Trace'
WARN_MAX=200

draw=1
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		sed -n '2,8s/^# \{0,1\}//p' "$0"
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
	tr -d '\r' <"$1" | awk '
		function directive(s) { return s ~ /#[ \t]*([Ss][Kk][Ii][Pp]|[Tt][Oo][Dd][Oo])/ }
		/^[ \t]*(not )?ok([ \t]|$)/ {
			top = $0 !~ /^[ \t]/
			if (directive($0)) { if (top) s++; next }
			if ($0 ~ /^[ \t]*not ok/) { bad[++nb] = NR ": " $0; if (top) f++ }
			else if (top) p++
			next
		}
		/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
		/^[ \t]*Bail out!/ { bad[++nb] = NR ": " $0 }
		END {
			printf "%d %d %d %s %d\n", p, f, s, plan == "" ? "-" : plan, p + f + s
			for (i = 1; i <= nb; i++) print bad[i]
		}'
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

# --- run status ---------------------------------------------------------------
doc_h 2 "Run status"
status=
[ -f "$run/status" ] && status=$(head -n 1 "$run/status" | tr -d '[:space:]')
[ -n "$status" ] || status=$(meta_get "$run" status)
n_ok=0 n_bad=0
for w in "${workloads[@]}"; do
	case $(workload_state "$run/$w") in ok) n_ok=$((n_ok + 1)) ;; *) n_bad=$((n_bad + 1)) ;; esac
done
case $status in
ok) doc_p "Run status: ok." ;;
'') doc_p "warning: the run has no status (no status file, none in meta.json): it may have been interrupted." ;;
*) doc_p "FAILED: run status '$status'." ;;
esac
if [ -s "$run/failure.txt" ]; then
	doc_p "Failure reason (failure.txt):"
	doc_pre <"$run/failure.txt"
fi
if [ "$n_bad" -gt 0 ]; then
	doc_p "failed: $n_bad of ${#workloads[@]} workloads failed or are missing; $n_ok ok."
else
	doc_p "Workloads: all ${#workloads[@]} ok."
fi

# --- metadata -----------------------------------------------------------------
doc_h 2 "Metadata"
if [ ! -f "$run/meta.json" ]; then
	doc_p "warning: meta.json is missing: the run did not get far enough to write it."
elif ! jq -e 'type == "object"' "$run/meta.json" >/dev/null 2>&1; then
	doc_p "warning: meta.json is not a valid JSON object."
else
	{
		printf 'key\tvalue\n'
		jq -r 'to_entries[] | [.key, (.value | if type == "array" then join(" ")
			elif type == "string" then . else tojson end)] | @tsv' "$run/meta.json"
	} | doc_table
fi

# --- kernel warnings ---------------------------------------------------------
doc_h 2 "Kernel warnings (console.log)"
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

# --- guest commands ----------------------------------------------------------
doc_h 2 "Guest commands"
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

# --- workloads overview --------------------------------------------------------
doc_h 2 "Workloads"
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

if [ -s "$tmp/plots.err" ]; then
	doc_p "warning: some figures could not be drawn:"
	doc_pre <"$tmp/plots.err"
fi

# --- each workload -------------------------------------------------------------
for w in "${workloads[@]}"; do
	d=$run/$w
	doc_h 2 "Workload $w"
	state=$(workload_state "$d")
	doc_p "$([ "$state" = ok ] && echo "Status: ok" || echo "$state")"
	[ -d "$d" ] || continue

	if jq -e '.metrics | length > 0' "$d/summary.json" >/dev/null 2>&1; then
		doc_h 3 "Metrics"
		{
			printf 'metric\tparams\tunit\tn\tmedian\t95%% interval\tstddev%%\tmin\tmax\tp99\n'
			jq -r '.metrics[] | [.name, ((.params // {}) | to_entries | sort_by(.key)
				| map("\(.key)=\(.value)") | join(" ")), .unit, .n, .median,
				(.ci95 | if . == null then null else "\(.lo)\u001f\(.hi)" end),
				(if .stddev == null or .mean == null then null
				 elif .stddev == 0 then 0
				 elif .mean == 0 then null
				 else .stddev / (if .mean < 0 then -.mean else .mean end) * 100 end),
				.min, .max, .p99] | map(if . == null then "null" else tostring end) | @tsv' \
				"$d/summary.json" |
				awk -F '\t' -v OFS='\t' "$AWK_FMT"'
					{
						for (i = 4; i <= NF; i++) if (i != 6 && i != 7) $i = fmt($i)
						if ($6 == "null") $6 = "-"
						else { split($6, ci, "\037"); $6 = fmt(ci[1]) " to " fmt(ci[2]) }
						$7 = $7 == "null" ? "-" : sprintf("%.1f%%", $7)
						print
					}'
		} | doc_table
	elif [ -f "$d/summary.json" ]; then
		doc_p "No metrics in summary.json."
	fi

	# The workload's targets against what it measured (written by its C code)
	if [ -f "$d/targets.json" ]; then
		doc_h 3 "Targets"
		if ! jq -e 'type == "array"' "$d/targets.json" >/dev/null 2>&1; then
			doc_p "warning: targets.json is not a JSON array."
		elif jq -e 'length == 0' "$d/targets.json" >/dev/null; then
			doc_p "No targets in targets.json."
		else
			{
				printf 'target\tmeasured\tlimit\tunit\tverdict\twhy\n'
				jq -r '.[] | [.target, .measured, .limit, .unit,
					(if .met == true then "MET" elif .met == false then "NOT MET"
					 else "not judged" end), .why]
					| map(if . == null then "null" else tostring end) | @tsv' "$d/targets.json" |
					awk -F '\t' -v OFS='\t' "$AWK_FMT"'{ $2 = fmt($2); $3 = fmt($3); print }'
			} | doc_table
		fi
	elif [ -f "$d/summary.json" ]; then
		doc_p "No targets.json: the workload judged no targets."
	fi

	# Notes of the workload on what its figures cannot say
	if [ -f "$d/notes.md" ]; then
		doc_h 3 "Notes"
		doc_pre <"$d/notes.md"
	fi

	figs=$(find "$d" -maxdepth 1 -name '*.png' | sort)
	if [ -n "$figs" ]; then
		doc_h 3 "Figures"
		while IFS= read -r f; do
			doc_img "$f" "$run"
		done <<<"$figs"
	fi

	if [ -f "$d/conformance.tap" ]; then
		doc_h 3 "Conformance"
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

# --- comparisons made against this run -----------------------------------------
if compgen -G "$run/compare-*/compare.html" >/dev/null; then
	doc_h 2 "Comparisons"
	{
		printf 'comparison\tMarkdown\tHTML\n'
		for c in "$run"/compare-*/compare.html; do
			c=$(basename -- "$(dirname -- "$c")")
			printf '%s\t%s\t%s\n' "$c" "$c/compare.md" "$c/compare.html"
		done
	} | doc_table
fi

doc_end
atomic_write "$run/report.md" <"$tmp/report.md"
atomic_write "$run/report.html" <"$tmp/report.html"
printf '%s\n' "$run/report.md" "$run/report.html"

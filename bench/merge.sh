#!/bin/bash
# The merge of a matrix, after its cells (the local engine runs it after the
# last cell, the slurm engine as a job depending on the array with
# afterany): every cell's state, by name (done, failed with the reason,
# never finished, never ran: nothing is silently missing); the comparisons
# (bench/compare.sh): an ab matrix as ./run-lab.sh ab compares (compare.*
# in the matrix folder), any other matrix each arm (kernel x variant)
# against the first one within each group of the same workloads, profile
# and schedule, into compare/<group>/<arm>-vs-<first arm>/; with
# tune-bound-us, the tuning recommendation of the schedule sweep
# (taprio tune-report over the cells' taprio results) in tune-taprio-b<boot>/.
# Writes merge.txt (printed) and merge.json; exits 0 when every cell is
# done and every comparison was made, else 1.
# usage: bench/merge.sh MATRIX_DIR
set -eu

# shellcheck source=bench/matrix-lib.sh
. "$(dirname "$0")/matrix-lib.sh"
cd "$LAB_ROOT"

[ $# -eq 1 ] || usage_error "usage: bench/merge.sh MATRIX_DIR"
[ -f "$1/cells.tsv" ] || usage_error "'$1' is not a matrix folder (no cells.tsv)"
mdir=$(cd -P -- "$1" && pwd)
id=$(basename -- "$mdir")
kind=$(env_get "$mdir/matrix.env" kind)
bound=$(env_get "$mdir/matrix.env" tune_bound_us)
log merge "merging matrix $id (${kind:-matrix})"

work=$(mktemp -d "$mdir/.merge.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
txt=$work/merge.txt
cells_json=$work/cells.jsonl
comps_json=$work/comparisons.jsonl
: >"$cells_json"
: >"$comps_json"
ok=1

# --- every cell's state ------------------------------------------------------
total=0 n_done=0
failed=() unfinished=() never=()
while IFS= read -r line; do
	[ -n "$line" ] || continue
	total=$((total + 1))
	cell=$(cell_field "$line" name)
	st=$mdir/status/$cell
	state=$(cell_state "$mdir" "$cell")
	reason=$(env_get "$st" reason)
	host=$(env_get "$st" host)
	case "$state" in
	done) n_done=$((n_done + 1)) ;;
	failed) failed+=("$cell: ${reason:-failed} (run: $mdir/$cell, log: logs/$cell.log)") ;;
	running)
		reason="started on $host at $(env_get "$st" started)${host:+ }but never finished (its task was killed or lost)"
		unfinished+=("$cell: $reason")
		;;
	pending)
		reason="never ran (no task started it)"
		never+=("$cell")
		;;
	esac
	jq -nc --arg name "$cell" --arg arm "$(cell_field "$line" arm)" --arg group "$(cell_field "$line" group)" \
		--arg boot "$(cell_field "$line" boot)" --arg state "$state" --arg reason "$reason" \
		--arg host "$host" --arg job "$(env_get "$st" job)" --arg run "$mdir/$cell" \
		--arg has_run "$([ -f "$mdir/$cell/meta.json" ] && echo 1 || echo 0)" \
		'{name: $name, arm: $arm, group: $group, boot: ($boot | tonumber), state: $state,
		  reason: (if $reason == "" then null else $reason end),
		  host: (if $host == "" then null else $host end),
		  job: (if $job == "" then null else $job end),
		  run: (if $has_run == "1" then $run else null end)}' >>"$cells_json"
done <"$mdir/cells.tsv"
[ "$n_done" -eq "$total" ] || ok=0

{
	echo "matrix $id (${kind:-matrix}): $total cells: $n_done done, ${#failed[@]} failed, ${#unfinished[@]} never finished, ${#never[@]} never ran"
	if [ "${#failed[@]}" -gt 0 ]; then
		echo "FAILED cells:"
		printf '  %s\n' "${failed[@]}"
	fi
	if [ "${#unfinished[@]}" -gt 0 ]; then
		echo "cells that NEVER FINISHED:"
		printf '  %s\n' "${unfinished[@]}"
	fi
	if [ "${#never[@]}" -gt 0 ]; then
		echo "cells that NEVER RAN:"
		printf '  %s\n' "${never[@]}"
	fi
} >"$txt"

# runs_of GROUP ARM: the run folders (with meta.json) of the cells of GROUP
# and ARM, comma-separated, by boot
runs_of() {
	awk -F '\t' -v g="$1" -v a="$2" '$3 == g && $2 == a {print $10 "\t" $1}' "$mdir/cells.tsv" |
		sort -n | cut -f2 | while IFS= read -r c; do
		[ ! -f "$mdir/$c/meta.json" ] || echo "$mdir/$c"
	done | paste -sd,
}

# --- comparisons ---------------------------------------------------------------
# compare_into WHAT [GROUP ARM]: bench/compare.sh and its verdict lines: of
# an ab matrix, side B against side A, into the matrix folder itself; of any
# other, arm ARM against the first arm within GROUP, into
# compare/GROUP/ARM-vs-FIRST/, told the meta.json keys the arms differ in
compare_into() {
	local what=$1 a b out='' asked='' logf status=ok dir
	if [ $# -eq 1 ]; then
		a=$(runs_of - a)
		b=$(runs_of - b)
	else
		a=$(runs_of "$2" "${arms[0]}")
		b=$(runs_of "$2" "$3")
		out=$mdir/compare/${2/#-/all}/$3-vs-${arms[0]}
		rm -rf -- "$out"
		asked=$(asked_of "${arms[0]}" "$3")
	fi
	logf=$work/compare-$(printf '%s' "$what" | tr -c 'A-Za-z0-9._-' '_').log
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "  $what: NOT COMPARED: a side has no run (see the cells above)" >>"$txt"
		status="no runs"
		ok=0
	elif if [ -n "$out" ]; then
		bench/compare.sh --asked "$asked" "$a" "$b" "$out"
	else
		bench/compare.sh "$mdir"
	fi >"$logf" 2>&1; then
		dir=${out#"$mdir"/}
		echo "  $what: ${dir:+$dir/}compare.txt" >>"$txt"
		sed -n '/^A: /,$p' "$logf" | grep -v '^comparison: ' | sed -n '3,6p' | sed 's/^/    /' >>"$txt"
	else
		echo "  $what: the comparison FAILED: $(tail -2 "$logf" | tr '\n' ' ')" >>"$txt"
		status=failed
		ok=0
	fi
	jq -nc --arg what "$what" --arg a "$a" --arg b "$b" --arg status "$status" \
		--arg dir "${out:-$mdir}" \
		'{what: $what, a: ($a | split(",")), b: ($b | split(",")), status: $status,
		  compare: (if $status == "ok" then "\($dir)/compare.json" else null end)}' >>"$comps_json"
}

# asked_of ARM_A ARM_B: the meta.json keys in which the two arms are meant to
# differ (kernel, command line, sysctls), comma-separated
asked_of() {
	local a b asked=''
	a=$(awk -F '\t' -v x="$1" '$2 == x {print $4 "\t" $5 "\t" $6; exit}' "$mdir/cells.tsv")
	b=$(awk -F '\t' -v x="$2" '$2 == x {print $4 "\t" $5 "\t" $6; exit}' "$mdir/cells.tsv")
	[ "${a%%$'\t'*}" = "${b%%$'\t'*}" ] || asked+=kernel_flavour,kernel_key,series_hash,config_hash,kernel_version,
	[ "$(cut -f2 <<<"$a")" = "$(cut -f2 <<<"$b")" ] || asked+=cmdline_extra,
	[ "$(cut -f3 <<<"$a")" = "$(cut -f3 <<<"$b")" ] || asked+=sysctls,
	printf '%s\n' "${asked%,}"
}

echo "comparisons:" >>"$txt"
if [ "$kind" = ab ]; then
	compare_into "B against A (as ./run-lab.sh ab)"
else
	mapfile -t groups < <(cut -f3 "$mdir/cells.tsv" | awk '!seen[$0]++')
	mapfile -t arms < <(cut -f2 "$mdir/cells.tsv" | awk '!seen[$0]++')
	if [ "${#arms[@]}" -lt 2 ]; then
		echo "  none: the matrix has one kernel and variant (nothing to compare)" >>"$txt"
	fi
	for g in "${groups[@]}"; do
		for ((i = 1; i < ${#arms[@]}; i++)); do
			compare_into "${g/#-/all}: ${arms[$i]} against ${arms[0]}" "$g" "${arms[$i]}"
		done
	done
fi

# --- the tuning recommendation of a schedule sweep --------------------------------
if [ -n "$bound" ]; then
	echo "tuning (taprio tune-report, p99 gate lateness bound $bound us):" >>"$txt"
	make -s build/taprio >/dev/null 2>&1 || true
	while IFS= read -r b; do
		tdir=$mdir/tune-taprio-b$b
		rm -rf -- "$tdir"
		mkdir -p "$tdir/tune"
		while IFS= read -r line; do
			[ "$(cell_field "$line" boot)" = "$b" ] || continue
			cell=$(cell_field "$line" name)
			v=$(basename -- "$(cell_field "$line" schedule)" .sched)
			[[ "$v" =~ ^[a-z]+-tc[0-9a-z]+-x[0-9.]+$ ]] || continue
			mkdir -p "$tdir/tune/$v"
			[ ! -f "$mdir/$cell/taprio.sched" ] || cp -- "$mdir/$cell/taprio.sched" "$tdir/tune/$v/schedule.sched"
			[ ! -f "$mdir/$cell/taprio/summary.json" ] || cp -- "$mdir/$cell/taprio/summary.json" "$tdir/tune/$v/"
			echo "$cell" >"$tdir/tune/$v/cell"
		done <"$mdir/cells.tsv"
		# the schedule swept around: tune-taprio's own, else the matrix's first
		tuned=$(env_get "$mdir/matrix.env" tune_schedule)
		[ -n "$tuned" ] || tuned=$(cut -f9 "$mdir/cells.tsv" | head -1)
		if build/taprio tune-report --out "$tdir" --bound-us "$bound" --name "$(basename -- "$tuned")" \
			"$tuned" >"$work/tune.log" 2>&1 </dev/null; then
			echo "  boot $b: ${tdir#"$mdir"/}/tune-recommendation.txt" >>"$txt"
			sed 's/^/    /' "$tdir/tune-recommendation.txt" >>"$txt"
		else
			echo "  boot $b: taprio tune-report FAILED: $(tail -2 "$work/tune.log" | tr '\n' ' ')" >>"$txt"
			ok=0
		fi
	done < <(cut -f10 "$mdir/cells.tsv" | sort -un)
fi

jq -n --arg id "$id" --arg kind "${kind:-matrix}" --arg merged "$(date -u +%FT%TZ)" \
	--argjson ok "$([ "$ok" = 1 ] && echo true || echo false)" \
	--slurpfile cells "$cells_json" --slurpfile comps "$comps_json" \
	'{id: $id, kind: $kind, merged: $merged, complete: $ok,
	  counts: ($cells | group_by(.state) | map({key: .[0].state, value: length}) | from_entries),
	  cells: $cells, comparisons: $comps}' | atomic_write "$mdir/merge.json"
atomic_write "$mdir/merge.txt" <"$txt"
cat "$mdir/merge.txt"
[ "$ok" = 1 ]

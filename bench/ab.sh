#!/bin/bash
# Replicated A/B: BOOTS boots a side, in ABBA order (A B, B A, A B, ...) so
# that host load drifting over the minutes, even steadily, falls on both
# sides alike, each boot a full run folder
# (a1, b1, a2, ...) inside results/<ab-id>/; then bench/compare.sh
# over the per-boot medians of every metric (the boot is the unit of
# replication), which writes compare.txt and compare.json beside the runs.
# usage: bench/ab.sh SPEC_FILE
# SPEC_FILE is a run spec (bench/spec.sh) with ab's keys: ab.boots, ab.a and
# ab.b (the kernels of the sides), ab.b_cmdline (added to the B side's
# kernel command line) and ab.b_sysctls (KEY=VALUE words set in the B side's
# guest before the workloads start); each boot runs with a run spec of its
# own made from it (ab_boot_spec), in the boot's run folder as run.spec.
set -eu

. "$(dirname "$0")/lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
cd "$LAB_ROOT"

[ $# -eq 1 ] || usage_error "usage: bench/ab.sh SPEC_FILE"
spec_load "$1" || exit 2
boots=$(spec_get ab.boots)
ka=$(spec_get ab.a) kb=$(spec_get ab.b)
b_cmdline=$(spec_get ab.b_cmdline) b_sysctls=$(spec_get ab.b_sysctls)
if [ -z "$boots" ]; then
	boots=3
	[ "$(spec_get profile)" = quick ] || boots=5
	spec_set ab.boots "$boots"
fi

results=$(spec_get results "$LAB_ROOT/results")
mkdir -p "$results"
ab_id=$(date -u +%Y%m%d-%H%M%S)-ab
n=1
while ! mkdir "$results/$ab_id" 2>/dev/null; do
	n=$((n + 1))
	ab_id=$(date -u +%Y%m%d-%H%M%S)-ab-$n
done
abdir=$results/$ab_id

# What the comparison is meant to change: meta.json keys that may differ
ab_write_env "$abdir"
log ab "$boots boots a side, A: $ka kernel, B: $kb kernel${b_cmdline:+ with command line \"$b_cmdline\"}${b_sysctls:+ and sysctl $b_sysctls}; runs in $abdir"
bootspec=$abdir/.boot.spec
trap 'rm -f -- "$bootspec"' EXIT

a_runs=()
b_runs=()
failed=()
t0=$(date +%s)
done_boots=0
for i in $(seq "$boots"); do
	for side in $(ab_order "$i"); do
		k=$ka
		[ "$side" = a ] || k=$kb
		eta=
		if [ "$done_boots" -gt 0 ]; then
			eta=", about $((($(date +%s) - t0) * (2 * boots - done_boots) / done_boots / 60)) min left"
		fi
		log ab "boot $((done_boots + 1)) of $((2 * boots)): $side$i ($k kernel)$eta"
		(
			ab_boot_spec "$side" "$i" "$abdir"
			spec_write "$bootspec"
		)
		if ! bench/run.sh "$bootspec"; then
			failed+=("$side$i")
		fi
		done_boots=$((done_boots + 1))
		if [ -f "$abdir/$side$i/meta.json" ]; then
			if [ "$side" = a ]; then a_runs+=("$abdir/$side$i"); else b_runs+=("$abdir/$side$i"); fi
		fi
	done
done
ln -sfn "$ab_id" "$results/.latest.tmp.$$"
mv -T "$results/.latest.tmp.$$" "$results/latest"

if [ "${#a_runs[@]}" -eq 0 ] || [ "${#b_runs[@]}" -eq 0 ]; then
	die "ab: a side has no run to compare (see above)"
fi
[ "${#failed[@]}" -eq 0 ] ||
	log ab "runs that failed (their metrics are compared where their summaries exist): ${failed[*]}"
bench/compare.sh "$abdir"
[ "${#failed[@]}" -eq 0 ]

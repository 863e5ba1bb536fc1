#!/bin/bash
# Replicated A/B: BOOTS boots a side, interleaved A B A B ... so that
# drifting host load falls on both sides alike, each boot a full run folder
# (a1, b1, a2, ...) inside results/<ab-id>/; then bench/compare.sh
# over the per-boot medians of every metric (the boot is the unit of
# replication), which writes compare.txt and compare.json beside the runs.
# usage: bench/ab.sh BOOTS A_KERNEL B_KERNEL PROFILE TRACE B_CMDLINE B_SYSCTLS WORKLOAD...
# Called by run-lab.sh, which has checked the arguments. B_CMDLINE is added
# to the B side's kernel command line; B_SYSCTLS is a space-separated list of
# KEY=VALUE set in the B side's guest before the workloads start.
set -eu

. "$(dirname "$0")/lib.sh"
cd "$LAB_ROOT"

boots=$1 ka=$2 kb=$3 profile=$4 trace=$5 b_cmdline=$6 b_sysctls=$7
shift 7

results=${LAB_RESULTS:-$LAB_ROOT/results}
mkdir -p "$results"
ab_id=$(date -u +%Y%m%d-%H%M%S)-ab
n=1
while ! mkdir "$results/$ab_id" 2>/dev/null; do
	n=$((n + 1))
	ab_id=$(date -u +%Y%m%d-%H%M%S)-ab-$n
done
abdir=$results/$ab_id

# What the comparison is meant to change: meta.json keys that may differ
ab_write_env "$abdir" "$boots" "$ka" "$kb" "$b_cmdline" "$b_sysctls" "$profile" "$@"
log ab "$boots boots a side, A: $ka kernel, B: $kb kernel${b_cmdline:+ with command line \"$b_cmdline\"}${b_sysctls:+ and sysctl $b_sysctls}; runs in $abdir"

a_runs=()
b_runs=()
failed=()
t0=$(date +%s)
for i in $(seq "$boots"); do
	for side in a b; do
		k=$ka cl='' sc='' done_boots=$(((i - 1) * 2))
		if [ "$side" = b ]; then
			k=$kb cl=$b_cmdline sc=$b_sysctls done_boots=$((done_boots + 1))
		fi
		eta=
		if [ "$done_boots" -gt 0 ]; then
			eta=", about $((($(date +%s) - t0) * (2 * boots - done_boots) / done_boots / 60)) min left"
		fi
		log ab "boot $((done_boots + 1)) of $((2 * boots)): $side$i ($k kernel)$eta"
		if ! LAB_RESULTS="$abdir" LAB_RUN_NAME="$side$i" LAB_CMDLINE_EXTRA="$cl" \
			LAB_SYSCTLS="$sc" bench/run.sh run "$k" "$profile" "$trace" "$@"; then
			failed+=("$side$i")
		fi
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

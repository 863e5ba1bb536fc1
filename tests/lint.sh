#!/bin/bash
# Lint, as TAP: shellcheck on every shell script of the repository, and
# scripts/checkpatch.pl --strict (from the cached kernel tree) on every patch
# of the series.
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"

mapfile -t scripts < <(git ls-files | while read -r f; do
	[ -f "$f" ] || continue
	head -1 "$f" | grep -qE '^#!.*(ba)?sh|shellcheck shell=' && echo "$f"
done)
for f in "${scripts[@]}"; do
	check_cmd "shellcheck $f" shellcheck -x "$f"
done

# A script with a #! line is run, not sourced: it must be executable in git
for f in "${scripts[@]}"; do
	head -1 "$f" | grep -q '^#!' || continue
	if [ "$(git ls-files -s "$f" | cut -c1-6)" = 100755 ]; then
		tap_result ok "$f is executable"
	else
		tap_result "not ok" "$f has a #! line but is not executable (git mode $(git ls-files -s "$f" | cut -c1-6))"
	fi
done

# Each version's series (kernel/patches/<version>/), checked by the
# checkpatch.pl of that version's tree
for dir in kernel/patches/*/; do
	dir=${dir%/}
	flavour=lab
	[ "${dir##*/}" = 6.1 ] || flavour=lab-${dir##*/}
	checkpatch=$(kernel/build.sh --key "$flavour" | sed -n 's/^dir=//p')/linux/scripts/checkpatch.pl
	for p in "$dir"/*.patch; do
		[ -f "$p" ] || continue
		if [ ! -x "$checkpatch" ]; then
			skip "checkpatch $p" "no kernel tree in $LAB_CACHE yet (make kernel)"
			continue
		fi
		check_cmd "checkpatch --strict $p" \
			env -C "$(dirname "$checkpatch")/.." scripts/checkpatch.pl --strict -q "$LAB_ROOT/$p"
		# Run from this repository, checkpatch finds the patch tracked by git
		# and checks it as a file: a blank context line " " is trailing
		# whitespace then (blank context lines are written empty instead)
		check_cmd "checkpatch --strict --no-tree $p, run from the repository" \
			"$checkpatch" --strict -q --no-tree "$p"
	done
	# Every patch of the directory is in the series, and the other way round
	if [ -f "$dir/series" ]; then
		for p in "$dir"/*.patch; do
			[ -f "$p" ] || continue
			if grep -qxF "$(basename "$p")" "$dir/series"; then
				tap_result ok "$p is in $dir/series"
			else
				tap_result "not ok" "$p is not in $dir/series"
			fi
		done
	fi
	# The series reads as a posting: the cover letter 0000-* first (the build
	# skips it), then the patches, each file numbered by its place in the series
	# and its subject "[PATCH n/N]"
	if [ -f "$dir/series" ]; then
		mapfile -t order < <(sed -e 's/[[:space:]].*//' -e '/^#/d' -e '/^$/d' "$dir/series")
		total=$((${#order[@]} - 1))
		for i in "${!order[@]}"; do
			p=${order[$i]}
			num=$(printf '%04d' "$i")
			subj=$(sed -n 's/^Subject: \(\[PATCH [0-9]*\/[0-9]*\]\).*/\1/p' "$dir/$p" 2>/dev/null | head -1)
			if [[ "$p" == "$num"-* ]] && [ "$subj" = "[PATCH $i/$total]" ]; then
				tap_result ok "$dir/$p is $num and [PATCH $i/$total] of the series"
			else
				tap_result "not ok" "$dir/$p, number $i of the series: expected $num-* with subject [PATCH $i/$total], got subject '$subj'"
			fi
		done
	fi
done
echo "1..$n"

# shellcheck shell=bash
# What tests/guest/taprio.sh and tests/guest/ptp.sh share, sourced after
# tests/tap.sh and bench/guest-lib.sh (tap_fold):
#   fold_suite WHAT FILE RC   fold the TAP of a C suite (FILE, its exit code
#                             RC) into the caller's stream, then one case
#                             more: the suite ran to its end (no crash, no
#                             bail-out, as many results as its plan says)

fold_suite() {
	local what=$1 file=$2 rc=$3 plan results bad why=
	tap_fold "$file"
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$file" | tail -1)
	results=$(grep -cE '^(not )?ok ' "$file" || true)
	bad=$(grep -c '^not ok ' "$file" || true)
	if grep -q '^Bail out!' "$file"; then
		why="it bailed out ($(grep -m1 '^Bail out!' "$file"))"
	elif [ -z "$plan" ]; then
		why="it printed no plan (1..N): it stopped before its end, exit code $rc"
	elif [ "$results" != "$plan" ]; then
		why="$results results for a plan of $plan, exit code $rc"
	elif [ "$rc" != 0 ] && [ "$bad" = 0 ]; then
		why="exit code $rc with no failed case"
	fi
	check "$what ran to its end (no crash, no bail-out, its plan met)" yes "${why:-yes}"
}

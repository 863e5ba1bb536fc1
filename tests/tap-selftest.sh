#!/bin/bash
# Tests of tap_fold (tests/tap.sh), the one fold of a suite's TAP into
# another stream (tests/run.sh, tests/guest.sh and the guest's suites and
# drivers use it): fixture streams that pass, fail, bail out, stop short of
# their plan, run past it, have no plan, or come from a suite that exited
# non-zero or did not finish. Prints TAP.
# usage: tests/tap-selftest.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$root/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT

# fold_file NAME FILE RC: fold FILE as a suite that exited RC, in a stream
# of its own counted from 0 (another bash); its output in $tmp/NAME.out, its
# counters printed as "passed failed skipped incomplete bad"
fold_file() {
	# shellcheck disable=SC2016 # expanded by that bash
	bash -c '. "$1" && tap_fold "$2" "$3" "s: " >"$4" &&
		echo "$tap_passed $tap_failed $tap_skipped $tap_fold_incomplete $tap_fold_bad"' \
		_ "$root/tests/tap.sh" "$2" "$3" "$tmp/$1.out"
}
# fold NAME RC STREAM: fold_file of STREAM (backslash escapes as printf %b)
fold() {
	printf '%b' "$3" >"$tmp/$1.tap"
	fold_file "$1" "$tmp/$1.tap" "$2"
}
# last NAME: the last line a fold printed
last() { tail -n 1 "$tmp/$1.out"; }

ok3='TAP version 13\n1..3\nok 1 - a\nok 2 - b # SKIP no LED\n# a comment\nok 3 c\n'
check "a complete passing stream: 2 passed, 1 skipped, complete" "2 0 1 0 0" "$(fold good 0 "$ok3")"
check "results are renumbered from the caller's count and prefixed" \
	"ok 1 - s: a|ok 2 - s: b # SKIP no LED|# a comment|ok 3 - s: c" "$(paste -sd '|' "$tmp/good.out")"

check "a stream with a failed result that exits 1: that result fails, complete" "1 1 0 0 1" \
	"$(fold failing 1 '1..2\nok 1 - a\nnot ok 2 - b: expected 1, got 2\n')"

check "a stream that bails out fails" "1 1 0 1 0" \
	"$(fold bail 0 '1..3\nok 1 - a\nBail out! no netlink socket\n')"
check "the bail-out is named" "not ok 2 - s: the suite is incomplete: bailed out: no netlink socket" "$(last bail)"
check "the bail-out line is kept as a comment, not passed on" "# Bail out! no netlink socket" \
	"$(grep -F 'Bail out!' "$tmp/bail.out")"

check "a stream that stops short of its plan fails" "2 1 0 1 0" \
	"$(fold short 0 '1..5\nok 1 - a\nok 2 - b\n')"
check "the short stream's failure counts results against the plan" \
	"not ok 3 - s: the suite is incomplete: 2 results against the plan 1..5" "$(last short)"

check "a stream with more results than its plan fails" "3 1 0 1 0" \
	"$(fold long 0 '1..2\nok 1\nok 2\nok 3\n')"

check "a stream without a plan (a suite that died before it) fails" "1 1 0 1 0" \
	"$(fold noplan 0 'ok 1 - a\n')"
check "an empty stream fails" "0 1 0 1 0" "$(fold empty 0 '')"
check "an empty plan 1..0 with no results is complete" "0 0 0 0 0" "$(fold skipall 0 '1..0 # SKIP no LED class\n')"

check "a passing stream from a suite that exited 1 fails" "1 1 0 1 0" \
	"$(fold exit1 1 '1..1\nok 1 - a\n')"
check "the exit status is named" "not ok 2 - s: the suite is incomplete: exited 1" "$(last exit1)"
check "a suite that crashed (exit 139) after a failed result fails once more" "0 2 0 1 1" \
	"$(fold crash 139 '1..1\nnot ok 1 - a\n')"
check "a suite without an exit status (it did not finish) fails" "1 1 0 1 0" \
	"$(fold unfinished none '1..1\nok 1 - a\n')"
check "a missing file fails" "0 1 0 1 0" "$(fold_file missing "$tmp/no-such.tap" 0)"
check "CRLF line ends and a last line without a newline are read" "2 0 0 0 0" \
	"$(fold crlf 0 '1..2\r\nok 1 - a\r\nok 2 - b')"
check "indented subtest lines are kept and not counted" "1 0 0 0 0" \
	"$(fold nested 0 '1..1\n    not ok 1 - detail\nok 1 - a\n')"

# Two folds in one stream number on
# shellcheck disable=SC2016 # expanded by that bash
bash -c '. "$1" && tap_fold "$2" 0 && tap_fold "$3" 0' _ "$root/tests/tap.sh" \
	"$tmp/good.tap" "$tmp/short.tap" >"$tmp/two.out"
check "two folds number on: 3 + 2 results + 1 failure" "1 2 3 4 5 6" \
	"$(sed -nE 's/^(not )?ok ([0-9]+).*/\2/p' "$tmp/two.out" | paste -sd ' ')"

# The check helpers, each its pass and its fail, WHAT first in all of them
printf 'alpha\nbeta\n' >"$tmp/text"
# shellcheck disable=SC2016 # expanded by that bash
bash -c '. "$1"
	check w 1 1; check w 1 2
	check_cmd c true; check_cmd c sh -c "echo out; exit 3"
	check_has h "$2" beta; check_has h "$2" gamma
	check_lacks l "$2" gamma; check_lacks l "$2" alpha
	skip s why
	echo "$tap_passed $tap_failed $tap_skipped"' _ "$root/tests/tap.sh" "$tmp/text" >"$tmp/helpers.out"
check "check, check_cmd, check_has, check_lacks and skip: a result each, failures say why" \
	"ok 1 - w|not ok 2 - w: expected '1', got '2'|ok 3 - c|not ok 4 - c: command failed: sh -c echo out; exit 3|# out|ok 5 - h|not ok 6 - h: expected 'gamma' in $tmp/text, not found|ok 7 - l|not ok 8 - l: did not expect 'alpha' in $tmp/text|ok 9 - s # SKIP why|4 4 1" \
	"$(paste -sd '|' "$tmp/helpers.out")"

# The runner of LAB_TEST() tests (tap_main of bench/lib/tap.c) on its
# fixture (tests/tap-fixture.c): each test in a child of its own, so that a
# crash, an exit, a bail-out, a silent test or a hang costs one "not ok"
# naming the test, and the tests after it run; one stream numbered on, its
# plan at the end. The hanging test's child holds stdout for 30 s: the
# output ends at once only when the timeout killed both.
fixture=$root/build/tap-fixture
if [ -x "$fixture" ]; then
	t0=$SECONDS rc=0
	out=$(timeout 60 "$fixture" --timeout 1 2>&1) || rc=$?
	check "tap_main: a timeout kills the hanging test and its child (within 10 s)" yes \
		"$([ $((SECONDS - t0)) -lt 10 ] && echo yes || echo "no: $((SECONDS - t0)) s")"
	check "tap_main: every test of the fixture, what went wrong once each, numbered on" "TAP version 13
ok 1 - passes: one
ok 2 - passes: skipped # SKIP on purpose
ok 3 - sets_state: a global set in this test
ok 4 - crashes: before the crash
not ok 5 - crashes: killed by signal 11 (Segmentation fault)
ok 6 - isolated: the global another test set is not set here
not ok 7 - fails: expected 2, got 1
ok 8 - exits: before exit(3)
not ok 9 - exits: exited 3 without a failed result
not ok 10 - silent: gave no result
not ok 11 - bails: bailed out: no fixture
ok 12 - hangs: before hanging
not ok 13 - hangs: did not finish within 1 s: killed
ok 14 - last: the tests after those that went wrong ran
1..14
# 7 passed, 6 failed, 1 skipped" "$out"
	check "tap_main: exit 1 when a test failed" 1 "$rc"
	printf '%s\n' "$out" >"$tmp/runner.tap"
	check "tap_main's stream folds complete, its 6 failures counted" "7 6 1 0 6" \
		"$(fold_file runner "$tmp/runner.tap" "$rc")"
	rc=0
	out=$("$fixture" last passes 2>&1) || rc=$?
	check "tap_main TEST...: only those tests, in the order of the source, exit 0" \
		"ok 1 - passes: one|ok 2 - passes: skipped # SKIP on purpose|ok 3 - last: the tests after those that went wrong ran|1..3|0" \
		"$(grep -E '^(ok|not ok|1\.\.)' <<<"$out" | paste -sd '|')|$rc"
	check "tap_main --list: the tests' names in the order of the source" \
		"passes sets_state crashes isolated fails exits silent bails hangs last" \
		"$("$fixture" --list | paste -sd ' ')"
	rc=0
	out=$("$fixture" nope 2>&1) || rc=$?
	check "tap_main with an unknown test: exit 2, the name said" "2 yes" \
		"$rc $(grep -qF "no test 'nope'" <<<"$out" && echo yes || echo "no: $out")"
	rc=0
	"$fixture" --timeout 0 >/dev/null 2>&1 || rc=$?
	check "tap_main --timeout 0: exit 2" 2 "$rc"
else
	tap_result "not ok" "tap_main: $fixture is not built (make all)"
fi

# The guest's drivers get tap_fold from bench/guest-lib.sh, also in a source
# tree of a test's own that links only bench/ to the lab's
mkdir -p "$tmp/src"
ln -s "$root/bench" "$tmp/src/bench"
# shellcheck disable=SC2016 # expanded by that bash
check "bench/guest-lib.sh in a tree that links only bench/ defines tap_fold" yes \
	"$(LAB_SRC=$tmp/src bash -c '. "$LAB_SRC/bench/guest-lib.sh" && declare -F tap_fold >/dev/null && echo yes' 2>&1)"

# probe_stop does not wait for ever on a bpftrace that ignores SIGINT: it
# kills it after LAB_PROBE_STOP_SECONDS and fails, naming the probe
mkdir -p "$tmp/wl"
# shellcheck disable=SC2016 # expanded by that bash
out=$(LAB_SRC=$root LAB_WL_OUT=$tmp/wl LAB_PROBE_STOP_SECONDS=1 bash -c '
	. "$LAB_SRC/bench/guest-lib.sh"
	bash -c "trap \"\" INT; touch \"$LAB_WL_OUT/ready\"; sleep 60" &
	PROBE_PID_stuck=$!
	for _ in $(seq 100); do [ ! -f "$LAB_WL_OUT/ready" ] || break; sleep 0.1; done
	t0=$SECONDS rc=0
	probe_stop stuck 2>"$LAB_WL_OUT/err" || rc=$?
	gone=yes
	! kill -0 "$PROBE_PID_stuck" 2>/dev/null || gone=no
	echo "$rc $((SECONDS - t0 < 10)) $gone $(grep -c "probe stuck: bpftrace still running 1 s after SIGINT: killed" "$LAB_WL_OUT/err")"
' 2>&1)
check "probe_stop kills a bpftrace that ignores SIGINT: fails, within 10 s, process gone, message names it" \
	"1 1 yes 1" "$out"
echo "1..$n"
[ "$tap_failed" -eq 0 ]

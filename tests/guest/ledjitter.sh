#!/bin/bash
# The LED pattern lab's tests in the guest, as TAP (issue 7): the pattern
# trigger's ABI conformance suite (`ledjitter conform`, for pattern and, on
# the lab kernel, hr_pattern), then the workload's handling of bad input: a
# pattern the kernel refuses is passed through and its error shown, invalid
# step durations and repeat counts are usage errors (exit 2) naming the
# value. About 30 s under TCG.
set -eu

bin=$LAB_SRC/build/ledjitter
# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

if [ ! -x "$bin" ]; then
	echo "not ok 1 - ledjitter: no $bin (make all)"
	echo "1..1"
	exit 1
fi

# 1. The conformance suite, renumbered into this stream
out=$(mktemp -d /tmp/ledjitter-test.XXXXXX)
trap 'rm -rf -- "$out"' EXIT
rc=0
"$bin" conform >"$out/conform.tap" 2>"$out/conform.err" || rc=$?
tap_fold "$out/conform.tap" "$rc"
check "ledjitter conform printed results and no errors" "" "$(cat "$out/conform.err")"

# 2. Bad input
# run_bad WHAT EXPECTED_RC TEXT ARGS...: ledjitter exits EXPECTED_RC and says TEXT
run_bad() {
	local what=$1 want=$2 text=$3 rc=0 err
	shift 3
	err=$("$bin" "$@" --out "$out" 2>&1 >/dev/null) || rc=$?
	check "$what: exit $want" "$want" "$rc"
	check "$what: the message names '$text'" yes \
		"$(grep -qF -- "$text" <<<"$err" && echo yes || echo "no: $err")"
}
run_bad "a step duration of 0 ms" 2 "'0'" run --step-ms 0
run_bad "a step duration that is no number" 2 "'ten'" run --step-ms 10,ten
run_bad "a step duration above 60000 ms" 2 "'60001'" run --step-ms 60001
run_bad "an odd step count" 2 "'7'" run --steps 7
run_bad "a repeat count of 0" 2 "'0'" run --pattern '0 10 255 10' --repeat 0
run_bad "a repeat count of -2" 2 "'-2'" run --pattern '0 10 255 10' --repeat -2
run_bad "a pattern the kernel refuses (a word)" 1 \
	"the kernel refused the pattern '0 10 abc 10'" run --mode pattern --pattern '0 10 abc 10'
run_bad "a pattern the kernel refuses shows the kernel's error" 1 "Invalid argument" \
	run --mode pattern --pattern '0 10 255'
echo "1..$n"

#!/bin/bash
# make test: every suite of the lab, as one TAP stream with a closing line
# "N passed, N failed".
# usage: tests/run.sh [unit|lint|host|slurm|guest|guest-debug|guest-6.12]...
#        (default: all of them but guest-6.12)
#
#   unit   host unit tests of the C code (build/tests/*), the TAP fold's
#          tests, labfuzz's kernel log checker, the console check's tests
#          and the report tests
#   lint   shellcheck on every shell script, checkpatch --strict on the patches,
#          the README against the tree (tests/docs.sh)
#   host   the command line of run-lab.sh and the kernel build's cache; run
#          matrices with the local engine on FAKE-guest cells (tests/matrix.sh)
#   slurm  the slurm engine on a single-node Slurm cluster the test starts
#          and stops itself (tests/slurm.sh; FAKE-guest cells)
#   guest  the tests in the booted lab kernel (tests/guest.sh)
#   guest-debug  the debug kernel (kernel/debug.config: lockdep, UBSAN,
#          KFENCE, lockup detectors) built, and the suites of the interfaces
#          the patches add run in it (LAB_KERNEL=debug tests/guest.sh)
#   guest-6.12  the lab kernel of Linux 6.12 built (kernel/patches/6.12/),
#          and the guest suites run in it (LAB_KERNEL=lab-6.12
#          tests/guest.sh); not in the default groups: its build from
#          scratch and its suites do not fit make test's budget beside the
#          6.1 kernels (docs/kernel-6.12.md)
#
# Each suite prints TAP; this script numbers the results of all suites in one
# stream, names the suite in every line, and fails a suite that bails out,
# stops short of its plan or exits non-zero (tap_fold of tests/tap.sh).
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"

logdir=$LAB_ROOT/build/test-logs
mkdir -p "$logdir"
echo "TAP version 13"

# suite NAME COMMAND...: run a TAP-printing command and fold its results in
# (tap_fold: a suite that bails out, stops short of its plan or exits
# non-zero without a failed result fails)
suite() {
	local name=$1 rc=0 log
	shift
	log=$logdir/${name//\//-}.log
	echo "# suite $name: $*"
	"$@" >"$log" 2>&1 || rc=$?
	tap_fold "$log" "$rc" "$name: "
	if [ "$tap_fold_incomplete" = 1 ]; then
		echo "# $name: the last lines of $log:"
		tail -15 "$log" | sed 's/^/#   /'
	fi
}

# build: make all, as a single result (compiler output in the log)
build() {
	if make -s all >"$logdir/build.log" 2>&1; then
		tap_result ok "build: make all (C with -Wall -Wextra -Werror, BPF objects, skeletons)"
	else
		tap_result "not ok" "build: make all failed (log: $logdir/build.log)"
		tail -20 "$logdir/build.log" | sed 's/^/# /'
		return 1
	fi
}

want=("$@")
[ "${#want[@]}" -gt 0 ] || want=(unit host lint slurm guest guest-debug)
# build_kernel FLAVOUR: kernel/build.sh with its progress lines shown as
# TAP comments; its exit status
build_kernel() {
	(kernel/build.sh "$1" 2>&1 >/dev/null | sed -u 's/^/# /' && exit "${PIPESTATUS[0]}")
}

# The debug kernel's build status when it was built beside the slurm suite
debug_built=
for w in "${want[@]}"; do
	case "$w" in
	unit)
		if build; then
			for t in build/tests/*; do
				[ -x "$t" ] && suite "unit/$(basename "$t")" "$t"
			done
		fi
		suite tap tests/tap-selftest.sh
		suite fuzz-selftest tests/fuzz/selftest.sh
		suite console tests/console-selftest.sh
		suite report tests/report/run.sh
		;;
	lint)
		suite lint tests/lint.sh
		suite docs tests/docs.sh
		;;
	host)
		# The kernel first, its progress shown (a fresh build takes minutes)
		echo "# building the lab kernel (cached in $LAB_CACHE)"
		if build_kernel lab; then
			tap_result ok "build: the lab kernel (kernel/build.sh lab)"
		else
			tap_result "not ok" "build: kernel/build.sh lab failed (its lines above)"
		fi
		suite host tests/host.sh
		suite host/matrix tests/matrix.sh
		;;
	slurm)
		# The slurm suite mostly waits for its daemons and jobs (39 CPU s in
		# its 166 s): the debug kernel builds beside it when that group is
		# asked for, and is waited for here, so that no guest boots beside
		# the build (a build beside the guests slowed them by a third)
		debug_pid=
		if one_of guest-debug "${want[@]}"; then
			echo "# building the debug kernel beside the slurm suite (cached in $LAB_CACHE)"
			build_kernel debug &
			debug_pid=$!
		fi
		suite slurm tests/slurm.sh
		if [ -n "$debug_pid" ]; then
			debug_built=0
			wait "$debug_pid" || debug_built=$?
		fi
		;;
	guest) suite guest tests/guest.sh ;;
	guest-debug)
		# its build first (unless done beside the slurm suite), its progress shown
		if [ -z "$debug_built" ]; then
			echo "# building the debug kernel (cached in $LAB_CACHE)"
			debug_built=0
			build_kernel debug || debug_built=$?
		fi
		if [ "$debug_built" = 0 ]; then
			tap_result ok "build: the debug kernel (kernel/build.sh debug)"
			suite guest-debug env LAB_KERNEL=debug tests/guest.sh
		else
			tap_result "not ok" "build: kernel/build.sh debug failed (its lines above)"
		fi
		;;
	guest-6.12)
		echo "# building the lab kernel of Linux 6.12 (cached in $LAB_CACHE)"
		if build_kernel lab-6.12; then
			tap_result ok "build: the lab kernel of Linux 6.12 (kernel/build.sh lab-6.12)"
			suite guest-6.12 env LAB_KERNEL=lab-6.12 tests/guest.sh
		else
			tap_result "not ok" "build: kernel/build.sh lab-6.12 failed (its lines above)"
		fi
		;;
	*) usage_error "unknown test group '$w' (expected unit, lint, host, slurm, guest, guest-debug or guest-6.12)" ;;
	esac
done

echo "1..$n"
if [ "$tap_skipped" -gt 0 ]; then
	echo "$tap_passed passed, $tap_failed failed, $tap_skipped skipped"
else
	echo "$tap_passed passed, $tap_failed failed"
fi
[ "$tap_failed" -eq 0 ]

#!/bin/bash
# Tests of bench/console-check.sh, the verdict on a guest's console: each
# fixture in tests/console/ is an excerpt of a console showing one kind of
# kernel trouble (most of them printed by the debug flavour's checkers) and
# must fail the check with its report line; clean-*.log are consoles of
# clean boots (the debug kernel's banners of lockdep, KFENCE and the lockup
# detectors among them) and must pass. Prints TAP.
# usage: tests/console-selftest.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$root/tests/tap.sh"
dir=$root/tests/console

# fixture: the line console-check must print for it (the first match)
declare -A want=(
	[panic]='Kernel panic - not syncing: sysrq triggered crash'
	[warning]='WARNING: CPU: 1 PID: 640 at net/sched/sch_taprio.c:1160'
	[lockdep-circular]='WARNING: possible circular locking dependency detected'
	[lockdep-recursive]='WARNING: possible recursive locking detected'
	[lockdep-inconsistent]='WARNING: inconsistent lock state'
	[lockdep-nonstatic-key]='INFO: trying to register non-static key.'
	[atomic-sleep]='BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580'
	[ubsan-shift]='UBSAN: shift-out-of-bounds in net/sched/sch_taprio.c:1121:29'
	[ubsan-bounds]='UBSAN: array-index-out-of-bounds in drivers/ptp/ptp_lab.c:310:18'
	[kfence-uaf]='BUG: KFENCE: use-after-free read in lab_output_fire+0x2a/0x110'
	[soft-lockup]='watchdog: BUG: soft lockup - CPU#1 stuck for 22s!'
	[hard-lockup]='NMI watchdog: Watchdog detected hard LOCKUP on cpu 2'
	[hung-task]='INFO: task testptp:530 blocked for more than 61 seconds.'
	[rcu-stall]='rcu: INFO: rcu_sched self-detected stall on CPU'
	[rcu-cpus-stall]='rcu: INFO: rcu_sched detected stalls on CPUs/tasks:'
	[rcu-tasks-stall]='INFO: rcu_tasks detected stalls on tasks:'
	[workqueue-lockup]='BUG: workqueue lockup - pool cpus=1'
)

for f in "$dir"/*.log; do
	name=$(basename "$f" .log)
	rc=0
	out=$("$root/bench/console-check.sh" "$f") || rc=$?
	case "$name" in
	clean-*)
		check "console-check passes the clean console $name.log (exit)" 0 "$rc"
		check "console-check prints nothing for $name.log" "" "$out"
		continue
		;;
	esac
	if [ -z "${want[$name]+set}" ]; then
		tap_result "not ok" "tests/console/$name.log has no expected line in tests/console-selftest.sh"
		continue
	fi
	check "console-check fails the console $name.log (exit)" 1 "$rc"
	first=$(head -1 <<<"$out")
	check "console-check prints the report line of $name.log" yes \
		"$(grep -qF -- "${want[$name]}" <<<"$first" && echo yes || echo "no: '$first'")"
	unset "want[$name]"
done
# every expected report has its fixture
for name in "${!want[@]}"; do
	tap_result "not ok" "tests/console/$name.log, named in tests/console-selftest.sh, does not exist"
done
check "a console log that does not exist passes (no boot, no trouble)" 0 \
	"$(
		rc=0
		"$root/bench/console-check.sh" "$dir/no-such.log" >/dev/null || rc=$?
		echo "$rc"
	)"
echo "1..$n"

#!/bin/bash
# Print the lines of a guest console log that show kernel trouble, and exit 1
# when there are any: a panic, an Oops, a BUG (including KFENCE's reports, a
# sleep in atomic context, soft lockups, workqueue lockups), a WARNING
# (including lockdep's circular, recursive and inconsistent locking reports),
# a UBSAN report, lockdep's unannotated key, a hard lockup, a hung task, an
# RCU CPU or tasks stall. The debug flavour's checkers (kernel/debug.config)
# print these; tests/console/ holds a console excerpt of each.
# usage: bench/console-check.sh CONSOLE_LOG
set -eu

pattern='Kernel panic|Oops|BUG:|WARNING:|UBSAN:'
pattern+='|INFO: trying to register non-static key'
pattern+='|Watchdog detected hard LOCKUP'
pattern+='|INFO: task .* blocked for more than [0-9]+ seconds'
pattern+='|INFO: rcu_[a-z_]+ (self-)?detected (expedited )?stall'
[ -f "$1" ] || exit 0
if grep -aE -m 20 "$pattern" "$1"; then
	exit 1
fi
exit 0

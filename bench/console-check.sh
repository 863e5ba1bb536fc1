#!/bin/bash
# Print the lines of a guest console log that show kernel trouble: a panic,
# an Oops, a BUG, a WARNING or an RCU stall. Exits 1 when there are any.
# usage: bench/console-check.sh CONSOLE_LOG
set -eu

pattern='Kernel panic|Oops|BUG:|WARNING:|rcu: INFO: rcu_[a-z]+ (self-)?detected (expedited )?stall|watchdog: BUG'
[ -f "$1" ] || exit 0
if grep -aE -m 20 "$pattern" "$1"; then
	exit 1
fi
exit 0

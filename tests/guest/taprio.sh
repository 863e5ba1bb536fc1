#!/bin/bash
# Conformance of the taprio lab in the guest, as TAP: schedule files in tc's
# syntax configure taprio over netlink (and with tc itself); malformed
# schedules are refused with the file, the line and the reason (the kernel's
# extack where the kernel refused) and leave no taprio configured; the
# taprio:taprio_advance tracepoint (kernel patch 0012) follows the schedule
# entry by entry.
set -eu

. "$LAB_SRC/bench/guest-lib.sh"

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"
root_kind() {
	tc qdisc show dev eth0 root | awk 'NR == 1 {print $2}'
}

taprio=$LAB_SRC/build/taprio
good=$LAB_SRC/workloads/taprio/schedules/three-class-10ms.sched
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; "$taprio" clear --dev eth0 >/dev/null 2>&1 || true' EXIT

# A good schedule, over netlink and with tc
out=$("$taprio" apply "$good" 2>&1) && rc=0 || rc=$?
check "taprio apply configures $(basename "$good") over netlink (output: $out)" 0 "$rc"
check "the root qdisc of eth0 is taprio" taprio "$(root_kind)"
# shellcheck disable=SC2046 # the file's words are tc's arguments
tc qdisc replace dev eth0 parent root taprio $(cut -d'#' -f1 "$good") 2>"$tmp/tc.err" && rc=0 || rc=$?
check "the same file configures taprio with tc qdisc replace ... taprio \$(cut -d'#' -f1 FILE) ($(cat "$tmp/tc.err"))" 0 "$rc"
"$taprio" clear --dev eth0
check "taprio clear removes it" mq "$(root_kind)"

# Long schedules: 400 entries of 2.5 ms (a netlink request of about 11 KB,
# more than a page), then 1,000 of 1 ms, whose dump no longer fits in a
# netlink message: tc qdisc show prints nothing for eth0 then, and taprio
# clear must not depend on reading it back
long_schedule() { # long_schedule ENTRIES INTERVAL_NS
	grep -E '^(num_tc|map|queues|base-time) ' "$good"
	for ((i = 0; i < $1; i++)); do
		echo "sched-entry S 0$((1 << (i % 3))) $2"
	done
	echo "clockid CLOCK_TAI"
}
long_schedule 400 2500000 >"$tmp/long.sched"
out=$("$taprio" apply "$tmp/long.sched" 2>&1) && rc=0 || rc=$?
check "a schedule of 400 entries is configured over netlink (output: $out)" 0 "$rc"
check "tc shows its 400 entries" 400 "$(tc qdisc show dev eth0 root | grep -c 'index [0-9]* cmd S')"
"$taprio" clear --dev eth0
long_schedule 1000 1000000 >"$tmp/longer.sched"
out=$("$taprio" apply "$tmp/longer.sched" 2>&1) && rc=0 || rc=$?
check "a schedule of 1000 entries is configured over netlink (output: $out)" 0 "$rc"
"$taprio" clear --dev eth0
check "taprio clear removes it, though tc cannot show it" mq "$(root_kind)"

# Malformed schedules: each file says what it expects
cd "$LAB_SRC/tests/guest/taprio-bad"
for f in *.sched; do
	want=$(sed -n 's/^# expect: //p' "$f")
	read -r -a opts <<<"$(sed -n 's/^# options: //p' "$f")"
	"$taprio" apply "$good" >/dev/null 2>&1 || true
	"$taprio" apply "${opts[@]}" "$f" >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
	check "$f is refused (exit 1)" 1 "$rc"
	check "$f: the error names the file, the line and the reason" "$want" "$(head -1 "$tmp/err")"
	check "$f: no taprio is left configured after the failure" mq "$(root_kind)"
done
cd "$LAB_SRC"

# The advance tracepoint follows the schedule entry by entry
"$taprio" trace-check "$good" --seconds 1 >"$tmp/trace.tap" 2>&1 || true
tap_fold "$tmp/trace.tap"
check "no taprio is left configured after trace-check" mq "$(root_kind)"
echo "1..$n"

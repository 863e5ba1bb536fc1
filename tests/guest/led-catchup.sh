#!/bin/bash
# What a pattern of many tuples without duration costs the other tasks, as
# TAP with the figures in comments: the absolute-time LED pattern (the lab's
# abs_pattern, named hr_pattern before its rename) with "255 1 0 1" and 999
# "0 0" tuples, a 2 ms cycle whose tuples without duration the trigger steps
# through in its softirq every cycle, and after a stall for every cycle it
# missed (a stall of L ms cost L/2 x 1001 steps before the trigger skipped
# whole cycles at once). Passes of cyclictest (one SCHED_FIFO thread per CPU,
# 1 ms interval) alternate without and with the pattern; a pass of its own
# then times the trigger's callback with bpftrace (its duration against its
# lateness). The guest must keep running throughout.
#
# LAB_CATCHUP_REPS (3) pairs of passes of LAB_CATCHUP_SECONDS (15) each.
# Runnable with LAB_GUEST_TESTS=led-catchup; a measurement, not in make test:
# guest-suite: on request
set -eu

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

reps=${LAB_CATCHUP_REPS:-3}
secs=${LAB_CATCHUP_SECONDS:-15}
led=lab-catchup
dir=/sys/class/leds/$led

# The uleds LED lives while fd 3 is open: struct uleds_user_dev (name[64],
# max_brightness) in one write
fmt=$led
for ((i = ${#led}; i < 64; i++)); do
	fmt+='\0'
done
exec 3<>/dev/uleds
# shellcheck disable=SC2059 # the format is the binary struct
printf "$fmt\\377\\0\\0\\0" >&3
echo pattern >"$dir/trigger"
attr=abs_pattern
[ -e "$dir/$attr" ] || attr=hr_pattern
check "the LED has the absolute-time pattern ($attr)" yes "$(yes_no test -e "$dir/$attr")"
pattern="255 1 0 1"
for ((i = 0; i < 999; i++)); do
	pattern+=" 0 0"
done

# cyclictest_pass: one pass; prints "samples max_us mean_avg_us"
cyclictest_pass() {
	cyclictest -q -m -a -t "$(nproc)" -p 95 -i 1000 -D "${secs}s" 2>/dev/null |
		awk '/^T:/ {for (i = 1; i <= NF; i++) {if ($i == "C:") c += $(i + 1); if ($i == "Avg:") {a += $(i + 1); k++}
			if ($i == "Max:" && $(i + 1) > m) m = $(i + 1)}} END {printf "%d %d %.0f\n", c, m, k ? a / k : -1}'
}
for ((r = 1; r <= reps; r++)); do
	echo 0 >"$dir/brightness"
	echo pattern >"$dir/trigger"
	read -r c m a <<<"$(cyclictest_pass)"
	echo "# pass $r without the pattern: cyclictest max $m us, mean of the threads' averages $a us, n = $c"
	echo "$pattern" >"$dir/$attr"
	read -r c m a <<<"$(cyclictest_pass)"
	echo "# pass $r with the pattern: cyclictest max $m us, mean of the threads' averages $a us, n = $c"
	check "pass $r with the pattern: cyclictest ran its samples" yes "$([ "${c:-0}" -gt 0 ] && echo yes || echo no)"
done

# The callback timed, in a pass of its own: its duration and its lateness
# (now - its hrtimer's expiry) at each run, each late run (over 2 ms) printed.
# Under TCG a run's wall time also holds the host's stalls of the vCPU; what
# tells the trigger's cost from them is how the duration grows with the
# lateness, in bins of lateness (n and median duration of each)
echo "$pattern" >"$dir/$attr"
# shellcheck disable=SC2016 # bpftrace's own $variables
timeout $((secs + 150)) bpftrace -e '
kprobe:pattern_trig_hrtimer_function {
	@t[tid] = nsecs;
	@late[tid] = (int64)nsecs - (int64)((struct hrtimer *)arg0)->node.expires;
}
kretprobe:pattern_trig_hrtimer_function /@t[tid]/ {
	$d = nsecs - @t[tid];
	@runs = count();
	@duration_us = hist($d / 1000);
	if (@late[tid] > 2000000) {
		printf("late %lld %llu\n", @late[tid] / 1000, $d / 1000);
	}
	delete(@t[tid]);
	delete(@late[tid]);
}
interval:s:'"$secs"' { exit(); }
END { clear(@t); clear(@late); }' >/tmp/catchup-bpf.txt 2>&1 || :
grep -v '^late ' /tmp/catchup-bpf.txt | grep -v '^$' | sed 's/^/# bpftrace: /'
awk '/^late / {l = $2; print (l < 10000 ? "1:2-10" : l < 50000 ? "2:10-50" : l < 200000 ? "3:50-200" : "4:200-"), $3}' \
	/tmp/catchup-bpf.txt | sort -k1,1 -k2,2n |
	awk 'function out() {if (k) printf "# runs late by %s ms: n = %d, median duration %d us, max %d us\n", substr(bin, 3), k, d[int((k + 1) / 2)], d[k]}
		$1 != bin {out(); bin = $1; k = 0} {d[++k] = $2} END {out()}'
echo none >"$dir/trigger"
stuck=
for ((c = 0; c < $(nproc); c++)); do
	timeout 20 taskset -c "$c" true || stuck+=" CPU$c"
done
check "every CPU runs a task after it" "" "$stuck"
exec 3>&-
echo "1..$n"

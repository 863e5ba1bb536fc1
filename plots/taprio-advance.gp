# taprio: lateness of the schedule's advances (the timer's run minus the
# entry's scheduled start) as a cumulative distribution, from the probe's
# in-kernel histograms, which count every advance (@advance_late_us_fine,
# _mid, _coarse: 10 us buckets below 1 ms, 100 us below 10 ms, 1 ms above);
# each bucket at its upper end (the overflow bucket at its lower).
# `taprio report` writes the CDF (advance.csv; advances: the kernel's count).
# caption: every gate advance the kernel made: how late the schedule's timer ran; the tail is what a tight schedule must absorb
# input: taprio/advance.csv
load 'plots/common.gp'
data = rundir.'/taprio/advance.csv'
stats data using "advances" nooutput
nadv = STATS_max
set title sprintf('taprio: gate advance lateness, all %.0f advances (in-kernel histograms, taprio_advance tracepoint)', nadv)
set xlabel 'lateness [µs] (log scale; resolution 10 µs below 1 ms, 100 µs below 10 ms, 1 ms above)'
set ylabel 'fraction of advances at most this late'
set logscale x
set yrange [0:1.02]
set key bottom right
plot data using "late_us":"fraction" with steps ls 1 title 'advances (cumulative)'
out = rundir.'/taprio/advance'
@save

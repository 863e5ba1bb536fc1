# taprio: lateness of the schedule's advances (the timer's run minus the
# entry's scheduled start) as a cumulative distribution, from the probe's
# in-kernel histograms, which count every advance (@advance_late_us_fine,
# _mid, _coarse: 10 us buckets below 1 ms, 100 us below 10 ms, 1 ms above);
# each bucket plotted at its upper end (the overflow bucket at its lower).
# input: taprio/probe-taprio_gate-maps.csv
load 'plots/common.gp'
set datafile columnheaders
maps = rundir.'/taprio/probe-taprio_gate-maps.csv'
late(m) = strstrt(m, '@advance_late_us_') == 1
stats maps using (strcol(1) eq '@advances' ? $5 : NaN) nooutput
nadv = STATS_max
set title sprintf('taprio: gate advance lateness, all %.0f advances (in-kernel histograms, taprio_advance tracepoint)', nadv)
set xlabel 'lateness [µs] (log scale; resolution 10 µs below 1 ms, 100 µs below 10 ms, 1 ms above)'
set ylabel 'fraction of advances at most this late'
set logscale x
set yrange [0:1.02]
set key bottom right
plot maps using (late(strcol(1)) ? (strcol(4) eq '' ? $3 : $4 + 1) : NaN):($5) \
	smooth cnormal with steps ls 1 title 'advances (cumulative)'
out = rundir.'/taprio/advance'
@save

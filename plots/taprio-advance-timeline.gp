# taprio: the advances' lateness over the measurement, from the probe's
# printf lines, which bpftrace's reader may lose: the title gives how many of
# the advances the kernel counted (@advances) were printed, and bpftrace's
# own lost-event count. The distribution of all advances is advance.png.
# `taprio report` writes the points and the counts (advance-timeline.csv).
# caption: late advances over time: clusters are host stalls; the title says how many advances the probe could print
# input: taprio/advance-timeline.csv
load 'plots/common.gp'
data = rundir.'/taprio/advance-timeline.csv'
stats data using "printed" nooutput
nprint = STATS_max
stats data using "advances" nooutput
nadv = STATS_max
stats data using "lost" nooutput
nlost = STATS_records > 0 ? STATS_max : NaN
set title sprintf("taprio: advance lateness over time: %d of %.0f advances printed (%.0f lost from the timeline; bpftrace reported %s)", \
	nprint, nadv, nadv - nprint, nlost == nlost ? sprintf('%.0f lost', nlost) : 'no loss count')
set xlabel 'time from the start of the run the probe watched (probe-pass/) [s]'
set ylabel 'lateness [µs] (log scale)'
set logscale y
set key top right
plot data using "t_s":"late_us" with points ls 1 pt 7 ps 0.3 title 'advance (printed events only)'
out = rundir.'/taprio/advance-timeline'
@save

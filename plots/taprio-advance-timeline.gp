# taprio: the advances' lateness over the measurement, from the probe's
# printf lines (probe-taprio_gate.csv), which bpftrace's reader may lose:
# the title gives how many of the advances the kernel counted (@advances)
# were printed, and bpftrace's own lost-event count (row lost_events of the
# maps). The distribution of all advances is advance.png.
# input: taprio/probe-taprio_gate.csv
# input: taprio/probe-taprio_gate-maps.csv
# input: taprio/run-info.csv
load 'plots/common.gp'
set datafile columnheaders
ev = rundir.'/taprio/probe-taprio_gate.csv'
maps = rundir.'/taprio/probe-taprio_gate-maps.csv'
stats maps using (strcol(1) eq '@advances' ? $5 : NaN) nooutput
nadv = STATS_max
stats maps using (strcol(1) eq 'lost_events' ? $5 : NaN) nooutput
nlost = STATS_records > 0 ? STATS_max : NaN
stats ev using (strcol(1) eq 'advance' ? $9 : NaN) nooutput
nprint = STATS_records
stats rundir.'/taprio/run-info.csv' using (strcol(1) eq 'start_ns' ? column(2) : NaN) nooutput
t0 = STATS_max
set title sprintf("taprio: advance lateness over time: %d of %.0f advances printed (%.0f lost from the timeline; bpftrace reported %s)", \
	nprint, nadv, nadv - nprint, nlost == nlost ? sprintf('%.0f lost', nlost) : 'no loss count')
set xlabel 'time from the start of the measurement [s]'
set ylabel 'lateness [µs] (log scale)'
set logscale y
set key top right
plot ev using (strcol(1) eq 'advance' ? ($9 - t0) / 1e9 : NaN):($10 > 0 ? $10 / 1000 : NaN) \
	with points ls 1 pt 7 ps 0.3 title 'advance (printed events only)'
out = rundir.'/taprio/advance-timeline'
@save

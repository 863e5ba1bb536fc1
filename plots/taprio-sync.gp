# taprio: clock sync over time (the servo's self-consistency: the emulated PHC and
# CLOCK_TAI share one oscillator): phc2sys's offset of CLOCK_REALTIME from the
# PHC, and the workload's own PHC - CLOCK_TAI readings during the run, as
# magnitudes on a log scale (the first phc2sys sample is the error given to
# the PHC, milliseconds; the steady state is nanoseconds).
# input: taprio/sync-phc2sys.csv
load 'plots/common.gp'
set datafile columnheaders
p2s = rundir.'/taprio/sync-phc2sys.csv'
wl = rundir.'/taprio/sync-workload.csv'
set title 'taprio: servo self-consistency over time (emulated PHC and CLOCK_TAI share one oscillator: not sync quality)'
set xlabel 'time [s] (phc2sys: from its start; workload: from the first packet)'
set ylabel '|offset| [ns] (log scale)'
set logscale y
set xrange [0:*]
set key top right
# |offset| + 1: an offset of 0 ns stays on the log scale
plot p2s using 1:(abs($2) + 1) with linespoints ls 1 ps 0.4 title 'phc2sys: |CLOCK_REALTIME - PHC|', \
	wl using 1:(abs($2) + 1) with points ls 2 ps 0.5 title 'workload: |PHC - CLOCK_TAI|'
out = rundir.'/taprio/sync'
@save

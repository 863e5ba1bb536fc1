# taprio: clock sync over time (the servo's self-consistency: the emulated PHC and
# CLOCK_TAI share one oscillator): phc2sys's offset of CLOCK_REALTIME from the
# PHC, and the workload's own PHC - CLOCK_TAI readings during the run, as
# magnitudes on a log scale (the first phc2sys sample is the error given to
# the PHC, milliseconds; the steady state is nanoseconds). `taprio report`
# writes both (sync.csv, from phc2sys.log and sync-workload.csv).
# caption: the servo agreeing with itself (one oscillator): near zero by construction, not a measure of sync quality
# input: taprio/sync.csv
load 'plots/common.gp'
data = rundir.'/taprio/sync.csv'
sel(s) = strcol("source") eq s ? column("t_s") : NaN
set title 'taprio: servo self-consistency over time (emulated PHC and CLOCK_TAI share one oscillator: not sync quality)'
set xlabel 'time [s] (phc2sys: from its start; workload: from the first packet)'
set ylabel '|offset| [ns] (log scale)'
set logscale y
set xrange [0:*]
set key top right
# |offset| + 1: an offset of 0 ns stays on the log scale
plot data using (sel('phc2sys')):(abs(column("offset_ns")) + 1) with linespoints ls 1 ps 0.4 title 'phc2sys: |CLOCK_REALTIME - PHC|', \
	data using (sel('workload')):(abs(column("offset_ns")) + 1) with points ls 2 ps 0.5 title 'workload: |PHC - CLOCK_TAI|'
out = rundir.'/taprio/sync'
@save

# taprio: clock sync over time: phc2sys's offset of CLOCK_REALTIME from the
# PHC, and the workload's own PHC - CLOCK_TAI readings during the run.
# input: taprio/sync-phc2sys.csv
load 'plots/common.gp'
set datafile columnheaders
p2s = rundir.'/taprio/sync-phc2sys.csv'
wl = rundir.'/taprio/sync-workload.csv'
set title 'taprio: clock sync offset over time'
set xlabel 'time [s] (phc2sys: from its start; workload: from the first packet)'
set ylabel 'offset [ns]'
set key top right
plot p2s using 1:2 with linespoints ls 1 ps 0.4 title 'phc2sys: CLOCK_REALTIME - PHC', \
	wl using 1:2 with points ls 2 ps 0.5 title 'workload: PHC - CLOCK_TAI'
out = rundir.'/taprio/sync'
@save

# taprio: ptp4l between eth0 (master) and rx/eth1 (free-running slave) with
# software timestamps over the lab wire: the offset it measures and the path
# delay (both ends share the guest's CLOCK_REALTIME, so the offset is the
# timestamping error).
# input: taprio/sync-ptp4l.csv
load 'plots/common.gp'
set datafile columnheaders
f = rundir.'/taprio/sync-ptp4l.csv'
set title 'ptp4l over the lab wire (software timestamps; both ends on one clock: self-consistency, not sync quality)'
set xlabel 'time [s] (from the first offset the slave reported)'
set ylabel 'µs'
set key top right
plot f using 1:($2 / 1000) with linespoints ls 1 ps 0.4 title 'master offset (the timestamping error here)', \
	f using 1:($3 / 1000) with linespoints ls 2 ps 0.4 title 'path delay'
out = rundir.'/taprio/ptp4l'
@save

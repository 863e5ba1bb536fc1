# taprio: ptp4l between eth0 (master) and rx/eth1 (free-running slave) with
# software timestamps over the lab wire: the offset it measures and the path
# delay (both ends share the guest's CLOCK_REALTIME, so the offset is the
# timestamping error). `taprio report` writes them from the slave's log
# (sync-ptp4l.csv).
# caption: the offset is the timestamping error on the lab wire (both ends share one clock), not synchronisation quality
# input: taprio/sync-ptp4l.csv
load 'plots/common.gp'
f = rundir.'/taprio/sync-ptp4l.csv'
set title 'ptp4l over the lab wire (software timestamps; both ends on one clock: self-consistency, not sync quality)'
set xlabel 'time [s] (from the first offset the slave reported)'
set ylabel 'µs'
set key top right
plot f using "t_s":(column("offset_ns") / 1000) with linespoints ls 1 ps 0.4 title 'master offset (the timestamping error here)', \
	f using "t_s":(column("path_delay_ns") / 1000) with linespoints ls 2 ps 0.4 title 'path delay'
out = rundir.'/taprio/ptp4l'
@save

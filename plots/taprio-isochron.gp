# taprio: class 0's sender latency (wake-up to the driver's TX timestamp) of
# the three senders that alternate in short rounds: isochron, our sender
# with its TX timestamps read after each send (like-isochron), and read by a
# second thread as isochron reads them (like-isochron-errq, the one the
# target compares), as CDFs. The target's ratio and interval are in
# targets.json (isochron_latency_ratio in summary.json).
# input: taprio/isochron.csv
# input: taprio/packets-like-isochron.csv
# input: taprio/packets-like-isochron-errq.csv
# (isochron.csv columns by number: 4 wake_ns, 6 tx_ns; CLOCK_TAI ns as doubles
# lose about 0.25 µs, nothing at this scale; packets-*.csv: 11 sender_latency_us)
load 'plots/common.gp'
set datafile columnheaders
iso = rundir.'/taprio/isochron.csv'
li = rundir.'/taprio/packets-like-isochron.csv'
le = rundir.'/taprio/packets-like-isochron-errq.csv'
set title "taprio: class 0 sender latency of the three senders, alternating rounds"
set xlabel 'sender latency: wake-up to driver TX timestamp [µs] (log scale)'
set ylabel 'fraction of frames'
set logscale x
set yrange [0:1.02]
set key bottom right
plot iso using ($4 > 0 && $6 > 0 ? ($6 - $4) / 1000 : NaN):(1) smooth cnormal with lines ls 1 title 'isochron', \
	li using (column(11) > 0 ? column(11) : NaN):(1) smooth cnormal with lines ls 2 title 'ours, TX timestamp read after each send', \
	le using (column(11) > 0 ? column(11) : NaN):(1) smooth cnormal with lines ls 3 title 'ours, read by a second thread as isochron reads'
out = rundir.'/taprio/isochron'
@save

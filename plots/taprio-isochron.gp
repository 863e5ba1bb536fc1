# taprio: class 0's sender latency (wake-up to the driver's TX timestamp) of
# the three senders that alternate in short rounds: isochron, our sender
# with its TX timestamps read after each send (like-isochron), and read by a
# second thread as isochron reads them (like-isochron-errq, the one the
# target compares), as CDFs. The target's ratio and interval are in
# targets.json (isochron_latency_ratio in summary.json). `taprio report`
# writes the CDFs (isochron-latency.csv).
# caption: the three senders' latency from wake-up to TX: the errq curve against isochron's is the like-for-like comparison
# input: taprio/isochron-latency.csv
load 'plots/common.gp'
data = rundir.'/taprio/isochron-latency.csv'
sel(s) = strcol("sender") eq s ? column("latency_us") : NaN
set title "taprio: class 0 sender latency of the three senders, alternating rounds"
set xlabel 'sender latency: wake-up to driver TX timestamp [µs] (log scale)'
set ylabel 'fraction of frames'
set logscale x
set yrange [0:1.02]
set key bottom right
plot data using (sel('isochron')):"fraction" with steps ls 1 title 'isochron', \
	data using (sel('like-isochron')):"fraction" with steps ls 2 title 'ours, TX timestamp read after each send', \
	data using (sel('like-isochron-errq')):"fraction" with steps ls 3 title 'ours, read by a second thread as isochron reads'
out = rundir.'/taprio/isochron'
@save

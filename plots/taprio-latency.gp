# taprio: latency CDFs per traffic class: gate lateness (driver TX minus the
# first opening of the class's gate at or after enqueue) and path delay
# (driver TX to the receiver's software RX timestamp), as fractions of all
# packets sent: a packet without the timestamps a latency needs is counted
# and never reached, so a curve that ends below 1 has lost packets.
# `taprio report` writes the CDFs (latency.csv).
# caption: a curve that ends below 1 has packets without timestamps; gate lateness beyond the window length means a missed window
# input: taprio/latency.csv
load 'plots/common.gp'
data = rundir.'/taprio/latency.csv'
stats data using "tc" nooutput
ntc = int(STATS_max) + 1
sel(t, m) = column("tc") == t && strcol("measure") eq m
set title 'taprio: latency CDFs per traffic class (fractions of all packets sent)'
set xlabel 'latency [µs] (log scale)'
set ylabel 'fraction of packets sent'
set logscale x
set yrange [0:1.02]
set key bottom right
plot for [t=0:ntc-1] data using (sel(t, 'gate_lateness') ? column("latency_us") : NaN):"fraction" \
		with steps ls (t + 1) title sprintf('class %d: gate lateness', t), \
	for [t=0:ntc-1] data using (sel(t, 'path_delay') ? column("latency_us") : NaN):"fraction" \
		with steps ls (t + 1) dt 2 title sprintf('class %d: path delay', t)
out = rundir.'/taprio/latency'
@save

# taprio: latency CDFs per traffic class: gate lateness (driver TX minus the
# first opening of the class's gate at or after enqueue) and path delay
# (driver TX to the receiver's software RX timestamp).
# input: taprio/packets.csv
# (columns by number: 1 tc, 9 in_window, 13 gate_lateness_us, 14 path_delay_us,
# 15 tx_rel_ms; gnuplot 5.4 loses the column names when @save replots a smoothed plot)
load 'plots/common.gp'
set datafile columnheaders
pk = rundir.'/taprio/packets.csv'
stats pk using 1 nooutput
ntc = int(STATS_max) + 1
set title 'taprio: latency CDFs per traffic class'
set xlabel 'latency [µs] (log scale)'
set ylabel 'fraction of packets'
set logscale x
set yrange [0:1.02]
set key bottom right
plot for [t=0:ntc-1] pk using (column(1) == t && column(13) > 0 ? column(13) : NaN):(1) \
		skip 1 smooth cnormal with lines ls (t + 1) title sprintf('class %d: gate lateness', t), \
	for [t=0:ntc-1] pk using (column(1) == t && column(14) > 0 ? column(14) : NaN):(1) \
		skip 1 smooth cnormal with lines ls (t + 1) dt 2 title sprintf('class %d: path delay', t)
out = rundir.'/taprio/latency'
@save

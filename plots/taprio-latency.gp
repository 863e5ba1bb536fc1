# taprio: latency CDFs per traffic class: gate lateness (driver TX minus the
# first opening of the class's gate at or after enqueue) and path delay
# (driver TX to the receiver's software RX timestamp), as fractions of all
# packets sent: a packet without the timestamps a latency needs is counted
# and never reached, so a curve that ends below 1 has lost packets.
# input: taprio/packets.csv
# (columns by number: 1 tc, 9 in_window, 13 gate_lateness_us, 14 path_delay_us,
# 15 tx_rel_ms; gnuplot 5.4 loses the column names when @save replots a smoothed plot)
load 'plots/common.gp'
set datafile columnheaders
pk = rundir.'/taprio/packets.csv'
stats pk using 1 nooutput
ntc = int(STATS_max) + 1
array sent[ntc]
do for [t=0:ntc-1] {
	stats pk using (column(1) == t ? 1 : NaN) nooutput
	sent[t + 1] = STATS_records
}
set title 'taprio: latency CDFs per traffic class (fractions of all packets sent)'
set xlabel 'latency [µs] (log scale)'
set ylabel 'fraction of packets sent'
set logscale x
set yrange [0:1.02]
set key bottom right
plot for [t=0:ntc-1] pk using (column(1) == t && column(13) > 0 ? column(13) : NaN):(1.0 / sent[t + 1]) \
		skip 1 smooth cumulative with lines ls (t + 1) title sprintf('class %d: gate lateness', t), \
	for [t=0:ntc-1] pk using (column(1) == t && column(14) > 0 ? column(14) : NaN):(1.0 / sent[t + 1]) \
		skip 1 smooth cumulative with lines ls (t + 1) dt 2 title sprintf('class %d: path delay', t)
out = rundir.'/taprio/latency'
@save

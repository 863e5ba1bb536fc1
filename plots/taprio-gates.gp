# taprio: the gate timeline of the first cycles measured, one lane per
# traffic class, open windows as bars, each packet's driver TX as a mark
# (circles inside the window of its class, crosses outside), and, when the
# probe saw them (lab kernel), taprio's gate decisions (tracepoint
# taprio_dequeue, start_ns of the probe's tx lines) as triangles just under
# the lane. Three cycles a second
# into the measurement (gates.csv says which).
# caption: crosses are packets sent outside their class's window; triangles below a lane are taprio's own gate decisions
# input: taprio/gates.csv
# input: taprio/packets.csv
load 'plots/common.gp'
set datafile columnheaders
gates = rundir.'/taprio/gates.csv'
pk = rundir.'/taprio/packets.csv'
stats gates using 3 nooutput
tbeg = STATS_min
stats gates using 4 nooutput
tend = STATS_max
stats gates using 1 nooutput
ntc = int(STATS_max) + 1
# taprio's gate decisions: start_ns of the probe's tx lines, on the packets' time axis
deq = rundir.'/taprio/probe-taprio_gate.csv'
have_deq = system(sprintf("grep -qs '^tx,' '%s' && echo 1 || echo 0", deq)) + 0
stats rundir.'/taprio/run-info.csv' using (strcol(1) eq 'start_ns' ? column(2) : NaN) nooutput
t0 = STATS_max
set title sprintf('taprio: gates and packet TX over %.0f ms of the measurement', tend - tbeg)
set xlabel 'time from the first cycle measured [ms]'
set ylabel 'traffic class'
set xrange [tbeg:tend]
set yrange [-0.6:ntc - 0.4]
set ytics 1
set key outside bottom center horizontal
set bmargin 6
set style fill solid 0.35 noborder
plot gates using (($3 + $4) / 2):1:(($4 - $3) / 2):(0.3) with boxxyerror ls 1 title 'gate open', \
	pk using (column(15) >= tbeg && column(15) <= tend && column(9) == 1 ? column(15) : NaN):(column(1)) \
		with points ls 3 pt 6 ps 1.2 title 'TX inside the window', \
	pk using (column(15) >= tbeg && column(15) <= tend && column(9) == 0 ? column(15) : NaN):(column(1)) \
		with points ls 2 pt 2 ps 1.5 title 'TX outside the window', \
	(have_deq ? deq : gates) using (have_deq && strcol(1) eq 'tx' && column(7) > 0 ? (column(7) - t0) / 1e6 : NaN):(column(11) - 0.18) \
		with points ls 1 pt 9 ps 1.0 title "taprio's gate decision"
out = rundir.'/taprio/gates'
@save

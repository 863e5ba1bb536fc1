# taprio: the tuning sweep as a heatmap: per traffic class (rows) and window
# scale (columns), the p99 gate lateness; cells with violations are marked.
# input: taprio/tune.csv
load 'plots/common.gp'
set datafile columnheaders
f = rundir.'/taprio/tune.csv'
set title 'taprio tuning sweep: p99 gate lateness by class and window scale'
set xlabel 'window scale (1 = the schedule as given)'
set ylabel 'traffic class'
set cblabel 'p99 gate lateness [µs]'
set logscale cb
set palette defined (0 '#ffffcc', 1 '#fd8d3c', 2 '#800026')
set xrange [0:1.75]
stats f using 2 nooutput
set yrange [-0.6:STATS_max + 0.6]
set format cb '%.0f'
set ytics 1
set key outside bottom center horizontal
# columns: 1 kind, 2 tc, 3 scale, 4 window_us, 5 cycle_us, 6 packets, 7 violations,
# 8 in_window_pct, 9 p99_lateness_us
plot f using (strcol(1) eq 'window' ? $3 : NaN):2:(0.12):(0.45):9 with boxxyerror fc palette fs solid 1.0 notitle, \
	f using (strcol(1) eq 'window' && $7 > 0 ? $3 : NaN):2 with points ls 6 pt 2 ps 2 title 'violations > 0', \
	f using (strcol(1) eq 'window' ? $3 : NaN):2:(sprintf('%.0f µs', $4)) with labels offset 0,1.6 font ',8' notitle
out = rundir.'/taprio/tune'
@save

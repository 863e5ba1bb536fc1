# taprio: lateness of the schedule's advances (the timer's run minus the
# entry's scheduled start), the probe's histogram (power-of-two buckets).
# input: taprio/probe-taprio_gate-maps.csv
load 'plots/common.gp'
set datafile columnheaders
maps = rundir.'/taprio/probe-taprio_gate-maps.csv'
set title 'taprio: gate advance lateness (taprio_advance tracepoint)'
set xlabel 'lateness [µs] (bucket lower bound, log scale)'
set ylabel 'advances'
set logscale x 2
set style fill solid 0.6 border lc rgb '#333333'
set boxwidth 0.8 relative
set offsets graph 0.04, graph 0.04, 0, 0
set key top right
plot maps using (strcol(1) eq '@advance_late_us' ? ($3 > 0 ? $3 : 0.5) : NaN):($5) \
	with boxes ls 1 title 'advances per bucket'
out = rundir.'/taprio/advance'
@save

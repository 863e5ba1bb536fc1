# Comparison of runs: %change of metric B against A, one bar per parameter
# set, error bars the 95 % bootstrap interval over the boots (none with one
# boot a side); red bars are the metrics found changed.
# Run by bench/compare.sh once per metric name:
#	gnuplot -e "rundir='OUTDIR'; metric='taprio.latency'; boots='3 boot(s) in A, 3 in B'" \
#		plots/compare.gp
# input: OUTDIR/compare-<metric>.csv, header "params,change,lo,hi,changed"
# output: OUTDIR/compare-<metric>.png and .svg
if (!exists("metric") || !exists("boots")) {
	print "error: compare.gp needs metric and boots set with -e"
	exit status 2
}
if (!exists("runid")) runid = 'B against A'
load 'plots/common.gp'
data = rundir.'/compare-'.metric.'.csv'

set title metric.': %change of B against A ('.boots.'; bars: 95 % interval)'
set ylabel '%change of the median, B against A'
set xlabel 'parameters'
set style fill solid 0.75 border -1
set boxwidth 0.6
set xtics rotate by -25 left
set key off
set xzeroaxis lt 1 lc rgb '#444444'
stats data using "change" nooutput
set xrange [-0.6:STATS_records - 0.4]
set offsets 0, 0, graph 0.1, graph 0.1
lbl(m) = m == m ? sprintf('%+.1f%%', m) : ''
# the invisible points at 0 keep 0 inside the autoscaled y range
plot data using 0:"change":(column("changed") > 0 ? 0xee6677 : 0x4477aa):xtic(strcol("params")) with boxes lc rgb variable, \
     '' using 0:(0) with points pt -1, \
     '' using 0:"change":"lo":"hi" with yerrorbars lc rgb '#222222' lw 1.5 ps 0, \
     '' using 0:"change":(lbl(column("change"))) with labels offset 0, 0.8 font ',8'

out = rundir.'/compare-'.metric
@save

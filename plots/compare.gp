# Comparison of runs: %change of metric B against A, one horizontal bar per
# parameter set (the figure as tall as they need), on a B/A ratio axis (log)
# unless an interval reaches -100 %, error bars the 95 % interval over the
# boots (none with one boot a side); red bars are the metrics found changed.
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

set title metric.': B against A ('.boots.')'
set ylabel ''
set style fill solid 0.75 border -1
set key off
set grid xtics noytics lc rgb '#dddddd' lt 1
set border 1
stats data using "change" nooutput
rows = STATS_records
lomin = STATS_min
himax = STATS_max
# (with one run a side there is no interval, and no valid point in "lo")
stats data using "lo" nooutput
if (exists("STATS_min")) { if (STATS_min < lomin) { lomin = STATS_min } }
stats data using "hi" nooutput
if (exists("STATS_max")) { if (STATS_max > himax) { himax = STATS_max } }
# (a label placed at an undefined x, as the end of a missing interval,
# crashes gnuplot 5.4: the labels sit in a column of their own, at labx)
# one row a parameter set, as many as there are; a ratio axis (log) when
# every interval stays above -100 %, so that +3800 % and -20 % both show
fig_h = rows * 16 + 140 > 600 ? rows * 16 + 140 : 600
set yrange [rows - 0.5:-0.5]
set ytics font ',8'
lbl(m) = m == m ? sprintf('%+.1f%%', m) : ''
if (lomin > -100) {
	set logscale x
	set xlabel 'B / A (log scale; the label: %change; bars: 95 % interval; red: changed)'
	x(c) = 1 + c / 100
	base = 1
	labx = (x(himax) > 1 ? x(himax) : 1) * 1.25
	set xrange [*:labx * 2]
} else {
	set xlabel '%change of the median, B against A (bars: 95 % interval; red: changed)'
	x(c) = c
	base = 0
	labx = (himax > 0 ? himax : 0) + (himax - lomin) * 0.05 + 1
	set xrange [*:labx + (himax - lomin) * 0.25 + 10]
}
set arrow 1 from base, graph 0 to base, graph 1 nohead lc rgb '#444444' front
plot data using (x(column("change"))):0:(base):(x(column("change"))):($0 - 0.3):($0 + 0.3):(column("changed") > 0 ? 0xee6677 : 0x4477aa):ytic(strcol("params")) \
	with boxxyerror lc rgb variable, \
     '' using (x(column("change"))):0:(x(column("lo"))):(x(column("hi"))) with xerrorbars lc rgb '#222222' lw 1.2 ps 0, \
     '' using (labx):0:(lbl(column("change"))) with labels left font ',7'

out = rundir.'/compare-'.metric
@save

# Comparison of two runs: the medians of one metric in run A and run B, one
# pair of bars per parameter set, error bars of +-1 sample stddev.
# Run by bench/compare.sh once per metric name:
#	gnuplot -e "rundir='OUTDIR'; runid='A vs B'; metric='taprio.latency'; \
#		unit='ns'; alabel='RUN_A'; blabel='RUN_B'" plots/compare.gp
# input: OUTDIR/compare-<metric>.csv, header "params,a_median,a_stddev,b_median,b_stddev"
# output: OUTDIR/compare-<metric>.png and .svg
load 'plots/common.gp'
if (!exists("metric") || !exists("unit") || !exists("alabel") || !exists("blabel")) {
	print "error: compare.gp needs metric, unit, alabel and blabel set with -e"
	exit status 2
}
data = rundir.'/compare-'.metric.'.csv'

set title metric.': run A against run B (median, error bars +-1 stddev)'
set ylabel metric.' ['.unit.']'
set xlabel 'parameters'
set style data histograms
set style histogram errorbars gap 1 lw 1.5
set style fill solid 0.75 border -1
set boxwidth 0.9
set yrange [0:*]
set xtics rotate by -25 left
set key top left
set offsets 0, 0, graph 0.15, 0
stats data using 2 skip 1 nooutput
set xrange [-0.6:STATS_records - 0.4]
# bar j (0, 1) of cluster i is centred at i + (j - 0.5) * w, w = 1 / (2 + gap)
w = 1.0 / 3
lbl(m) = m == m ? sprintf('%.4g', m) : ''
plot data using 2:3:xtic(1) skip 1 title 'A: '.alabel ls 1, \
     '' using 4:5 skip 1 title 'B: '.blabel ls 2, \
     '' using ($0 - w / 2):($2 + $3):(lbl($2)) skip 1 with labels offset 0, 0.7 font ',8' notitle, \
     '' using ($0 + w / 2):($4 + $5):(lbl($4)) skip 1 with labels offset 0, 0.7 font ',8' notitle

out = rundir.'/compare-'.metric
@save

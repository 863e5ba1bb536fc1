# taprio: the tuning sweep as a heatmap: per traffic class (rows), each
# variant of the schedule (columns: the class's own window scaled, then every
# window scaled, which scales the cycle), coloured by the class's p99 gate
# lateness; each cell names the class's window, its p99 with the 95 %
# interval (ms) and the share outside's 95 % upper bound; a cross marks
# packets outside their window (violations).
# caption: per class, the shortest window that works is the leftmost cell without a cross, its p99 interval within the bound, with no cross to its right; overlapping intervals cannot be told apart
# input: taprio/tune.csv
load 'plots/common.gp'
f = rundir.'/taprio/tune.csv'
wpos(s) = s == 0.25 ? 1 : s == 0.5 ? 2 : s == 0.75 ? 3 : s == 1 ? 4 : s == 1.5 ? 5 : NaN
cpos(s) = s == 0.5 ? 7 : s == 1 ? 8 : s == 2 ? 9 : NaN
pos(k, s) = k eq 'window' ? wpos(s) : cpos(s)
set title 'taprio tuning sweep: p99 gate lateness per class and variant'
set xlabel "the class's window scaled (left), every window scaled: the cycle (right)"
set ylabel 'traffic class'
set cblabel 'p99 gate lateness [ms] (log scale)' offset 2.5,0
set logscale cb
set cbrange [0.1:*]
set cbtics ('0.1' 0.1, '0.2' 0.2, '0.5' 0.5, '1' 1, '2' 2, '5' 5, '10' 10, '20' 20, '50' 50, \
	'100' 100, '200' 200, '500' 500, '1000' 1000)
set palette defined (0 '#ffffcc', 1 '#fd8d3c', 2 '#800026')
set xrange [0.4:9.6]
set xtics ('×0.25' 1, '×0.5' 2, '×0.75' 3, '×1' 4, '×1.5' 5, 'cycle ×0.5' 7, 'cycle ×1' 8, 'cycle ×2' 9)
set grid noytics
stats f using "tc" nooutput
set yrange [-0.6:STATS_max + 0.6]
set ytics 1
set arrow 1 from 6, graph 0 to 6, graph 1 nohead lc rgb '#999999' dt 2
set key outside bottom center horizontal
set bmargin 6
x = 'pos(strcol("kind"), column("scale"))'
has(c) = column(c) == column(c)
plot f using (@x):"tc":(0.48):(0.45):(column("p99_lateness_us") / 1000) with boxxyerror fc palette fs solid 1.0 notitle, \
	f using (@x):(column("violations") > 0 ? column("tc") + 0.32 : NaN) with points ls 6 pt 2 ps 1.5 title 'violations > 0', \
	f using (@x):(column("tc") + 0.17):(sprintf('%.0f µs', column("window_us"))) with labels font ',8' notitle, \
	f using (@x):(column("tc") + 0.01):(has("p99_lateness_us") ? sprintf('p99 %.1f', \
		column("p99_lateness_us") / 1000) : 'too few') with labels font ',7' notitle, \
	f using (@x):(column("tc") - 0.13):(has("p99_lateness_us") ? sprintf('[%.1f, %.1f]', \
		column("p99_lo") / 1000, column("p99_hi") / 1000) : 'for a p99') with labels font ',7' notitle, \
	f using (@x):(column("tc") - 0.29):(has("outside_max_pct") ? sprintf('out ≤ %.1f%%', \
		column("outside_max_pct")) : '') with labels font ',7' notitle
out = rundir.'/taprio/tune'
@save

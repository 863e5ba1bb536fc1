# ledjitter: histogram of |interval error| (observed interval between two
# consecutive changes minus the interval asked; kernel observer, 10 ms
# steps), pattern against abs_pattern, idle and busy guest. Bins double in
# width (log2 of microseconds), so a point is the count of intervals whose
# |error| lies between the bin's bounds; x is the bin's geometric centre.
# caption: how far the error distributions reach: abs_pattern's mass should sit bins left of pattern's, busy against idle shows load sensitivity
# input: ledjitter/error-hist.csv
load 'plots/common.gp'
data = rundir.'/ledjitter/error-hist.csv'
sel(mode, load) = (strcol(1) eq mode && column(2) == 10 && strcol(3) eq load && strcol(4) eq 'kernel')
centre(lo, hi) = (lo > 0 ? sqrt(lo * hi) / 1000.0 : hi / 2000.0)
set title 'ledjitter: histogram of |interval error|, 10 ms steps, kernel observer'
set xlabel '|interval error| [ms] (log scale, bins double in width)'
set ylabel 'intervals in the bin'
set logscale x
set format x '%g'
set xrange [0.0005:2000]
set yrange [0:*]
set key top center
plot data skip 1 using (centre(column(5), column(6))):(sel('pattern', 'idle') ? column(7) : NaN) \
	with linespoints ls 2 title 'pattern, idle', \
     data skip 1 using (centre(column(5), column(6))):(sel('pattern', 'busy') ? column(7) : NaN) \
	with linespoints ls 4 title 'pattern, busy', \
     data skip 1 using (centre(column(5), column(6))):(sel('abs_pattern', 'idle') ? column(7) : NaN) \
	with linespoints ls 1 title 'abs_pattern, idle', \
     data skip 1 using (centre(column(5), column(6))):(sel('abs_pattern', 'busy') ? column(7) : NaN) \
	with linespoints ls 5 title 'abs_pattern, busy'
out = rundir.'/ledjitter/histogram'
@save

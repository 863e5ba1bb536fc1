# ledjitter: histogram of |interval error| (observed interval between two
# consecutive changes minus the interval asked; kernel observer, 10 ms
# steps), pattern against abs_pattern, idle and busy guest. Bins double in
# width (log2 of microseconds), so a point is the count of intervals whose
# |error| lies between the bin's bounds; x is the bin's geometric centre.
# caption: how far the error distributions reach: abs_pattern's mass should sit bins left of pattern's, busy against idle shows load sensitivity
# input: ledjitter/error-hist.csv
load 'plots/common.gp'
data = rundir.'/ledjitter/error-hist.csv'
sel(mode, load) = (strcol("mode") eq mode && column("step_ms") == 10 && strcol("load") eq load && strcol("observer") eq 'kernel')
centre(lo, hi) = (lo > 0 ? sqrt(lo * hi) / 1000.0 : hi / 2000.0)
set title 'ledjitter: histogram of |interval error|, 10 ms steps, kernel observer'
set xlabel '|interval error| [ms] (log scale, bins double in width)'
set ylabel 'intervals in the bin'
set logscale x
set format x '%g'
set xrange [0.0005:2000]
set yrange [0:*]
set key top center
plot data using (centre(column("low_us"), column("high_us"))):(sel('pattern', 'idle') ? column("count") : NaN) \
	with linespoints ls 2 title 'pattern, idle', \
     data using (centre(column("low_us"), column("high_us"))):(sel('pattern', 'busy') ? column("count") : NaN) \
	with linespoints ls 4 title 'pattern, busy', \
     data using (centre(column("low_us"), column("high_us"))):(sel('abs_pattern', 'idle') ? column("count") : NaN) \
	with linespoints ls 1 title 'abs_pattern, idle', \
     data using (centre(column("low_us"), column("high_us"))):(sel('abs_pattern', 'busy') ? column("count") : NaN) \
	with linespoints ls 5 title 'abs_pattern, busy', \
     data using (centre(column("low_us"), column("high_us"))):(sel('hr_pattern', 'idle') ? column("count") : NaN) \
	with linespoints ls 3 title 'hr_pattern (mainline), idle', \
     data using (centre(column("low_us"), column("high_us"))):(sel('hr_pattern', 'busy') ? column("count") : NaN) \
	with linespoints ls 6 title 'hr_pattern (mainline), busy'
out = rundir.'/ledjitter/histogram'
@save

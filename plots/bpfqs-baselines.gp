# The baselines of the same run: array map update/lookup and hash map
# update/lookup-and-delete, ns per operation against the value size, from
# user space (syscalls) and in-program (helpers; the hash's in-program
# lookup_delete is a lookup then a delete), with the queue's push and pop
# in grey for reference. Median of all batches, error bars its 95 % interval.
# caption: queue and stack against array and hash maps of the same value size: the grey queue lines should sit near the array's, far below the hash's
# input: bpfqs/ns-per-op.csv
load 'plots/common.gp'
data = rundir.'/bpfqs/ns-per-op.csv'

stats data using "n" nooutput
nmin = STATS_min
sel(p, m, o) = strcol("path") eq p && strcol("map") eq m && strcol("op") eq o
pos(y) = y > 0 ? y : NaN
stats data using (pos(column("ci_lo"))) nooutput name 'LO'
stats data using (pos(column("ci_hi"))) nooutput name 'HI'

set title 'Baselines: array and hash maps against the queue, per operation by value size, user space against in-program'
set xlabel 'value size [bytes]'
set ylabel 'time per operation [ns] (log scale)'
set logscale x 2
set logscale y 10
set format x '%g'
set xrange [*:*] noextend
set yrange [(LO_min > 1 ? LO_min / 1.5 : 0.5) : HI_max * 30]
set offsets graph 0.03, graph 0.03, 0, 0
set key top left maxrows 6
set label 1 sprintf('median of all %d batches per point; bars: 95 %% interval of the median; in-program: empty loop subtracted, values <= 0 (below the resolution: the verifier inlines array lookups) not drawn', nmin) \
	at screen 0.01, 0.015 left font ',8' tc rgb '#444444'
set bmargin 5
set style line 7 lc rgb '#999999' lw 1.5 pt 1 ps 0.6
maps = 'array array hash hash'
ops = 'update lookup update lookup_delete'
plot for [i=1:4] data using "value_size":(sel('user', word(maps, i), word(ops, i)) ? pos(column("median")) : NaN):(pos(column("ci_lo"))):(pos(column("ci_hi"))) \
	with yerrorlines ls i title 'user space: '.word(maps, i).' '.word(ops, i), \
     for [i=1:4] data using "value_size":(sel('prog', word(maps, i), word(ops, i)) ? pos(column("median")) : NaN):(pos(column("ci_lo"))):(pos(column("ci_hi"))) \
	with yerrorlines ls i dt 2 title 'in-program: '.word(maps, i).' '.word(ops, i), \
     data using "value_size":(sel('user', 'queue', 'push') ? pos(column("median")) : NaN) with linespoints ls 7 title 'user space: queue push', \
     data using "value_size":(sel('prog', 'queue', 'push') ? pos(column("median")) : NaN) with linespoints ls 7 dt 2 title 'in-program: queue push'

out = rundir.'/bpfqs/baselines'
@save

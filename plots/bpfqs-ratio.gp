# How much the syscall path costs against the in-program path: user-space
# ns per operation over in-program ns per operation, per operation and map,
# against the value size. Ratio of the medians, error bars its 95 % bootstrap
# interval. Figures whose in-program cost is below the resolution are left
# out (see ratio.csv's note column).
# caption: how many times the syscall path costs the in-program path: large for small values, near 1 where copying the value dominates
# input: bpfqs/ratio.csv
load 'plots/common.gp'
data = rundir.'/bpfqs/ratio.csv'

stats data using (column("n") > 0 ? column("n") : NaN) nooutput
nmin = STATS_min
sel(m, o) = strcol("map") eq m && strcol("op") eq o
pos(y) = y > 0 ? y : NaN
stats data using (pos(column("ratio_lo"))) nooutput name 'LO'
stats data using (pos(column("ratio_hi"))) nooutput name 'HI'

set title 'Syscall path against in-program path: ratio of the ns per operation, by value size'
set xlabel 'value size [bytes]'
set ylabel 'user space / in-program (log scale)'
set logscale x 2
set logscale y 10
set format x '%g'
set xrange [*:*] noextend
set yrange [LO_min / 1.5 : HI_max * 6]
set offsets graph 0.03, graph 0.03, 0, 0
set key top right maxrows 5
set label 1 sprintf('median of %d user-space batches over median of the in-program ones per point; bars: 95 %% bootstrap interval', nmin) \
	at screen 0.01, 0.015 left font ',8' tc rgb '#444444'
set label 2 'hash lookup_delete: in-program it is a lookup and a delete, which copy no value; the syscall copies the value out, so its ratio grows with the value size' \
	at screen 0.01, 0.04 left font ',8' tc rgb '#444444'
set bmargin 6
qsops = 'push peek pop'
bmaps = 'array hash hash'
bops = 'update update lookup_delete'
plot for [i=1:3] data using "value_size":(sel('queue', word(qsops, i)) ? pos(column("ratio")) : NaN):(pos(column("ratio_lo"))):(pos(column("ratio_hi"))) \
	with yerrorlines ls i title 'queue '.word(qsops, i), \
     for [i=1:3] data using "value_size":(sel('stack', word(qsops, i)) ? pos(column("ratio")) : NaN):(pos(column("ratio_lo"))):(pos(column("ratio_hi"))) \
	with yerrorlines ls i dt 2 title 'stack '.word(qsops, i), \
     for [i=1:3] data using "value_size":(sel(word(bmaps, i), word(bops, i)) ? pos(column("ratio")) : NaN):(pos(column("ratio_lo"))):(pos(column("ratio_hi"))) \
	with yerrorlines ls (i + 3) dt 3 title word(bmaps, i).' '.word(bops, i)

out = rundir.'/bpfqs/ratio'
@save

# BPF stack map: ns per push, peek and pop against the value size, from user
# space (bpf syscalls) and from a program (helpers in a bpf_loop, the empty
# loop subtracted), and the in-program push+pop pair. Median of all batches,
# error bars its 95 % interval (bpfqs).
# caption: as for the queue: the stack's push and pop should cost what the queue's do, peek may differ
# input: bpfqs/ns-per-op.csv
load 'plots/common.gp'
data = rundir.'/bpfqs/ns-per-op.csv'
map = 'stack'

stats data using "n" nooutput
nmin = STATS_min
sel(p, o) = strcol("path") eq p && strcol("map") eq map && strcol("op") eq o
pos(y) = y > 0 ? y : NaN
# y range: the drawn values, with room for the legend above
stats data using (strcol("map") eq map ? pos(column("ci_lo")) : NaN) nooutput name 'LO'
stats data using (strcol("map") eq map ? pos(column("ci_hi")) : NaN) nooutput name 'HI'
set yrange [LO_min / 1.5 : HI_max * 8]

set title 'BPF '.map.' map: cost per operation by value size, user space (syscall) against in-program (helper)'
set xlabel 'value size [bytes]'
set ylabel 'time per operation [ns] (log scale)'
set logscale x 2
set logscale y 10
set format x '%g'
set xrange [*:*] noextend
set offsets graph 0.03, graph 0.03, 0, 0
set key top left
set label 1 sprintf('median of all %d batches per point (none left out); bars: 95 %% interval of the median (within this boot); in-program: empty loop subtracted', nmin) \
	at screen 0.01, 0.015 left font ',8' tc rgb '#444444'
set bmargin 5
ops = 'push peek pop'
plot for [i=1:3] data using "value_size":(sel('user', word(ops, i)) ? pos(column("median")) : NaN):(pos(column("ci_lo"))):(pos(column("ci_hi"))) \
	with yerrorlines ls i title 'user space: '.word(ops, i), \
     for [i=1:3] data using "value_size":(sel('prog', word(ops, i)) ? pos(column("median")) : NaN):(pos(column("ci_lo"))):(pos(column("ci_hi"))) \
	with yerrorlines ls i dt 2 title 'in-program: '.word(ops, i), \
     data using "value_size":(sel('prog', 'push_pop') ? pos(column("median")) : NaN):(pos(column("ci_lo"))):(pos(column("ci_hi"))) \
	with yerrorlines ls 4 dt 3 title 'in-program: push+pop pair'

out = rundir.'/bpfqs/stack'
@save

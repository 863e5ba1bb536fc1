# Contention while the vCPUs run: the sum over the P threads of each
# thread's rate in its median BPF_PROG_TEST_RUN call (2 K operations per run
# over the kernel's mean ns per run), which leaves out the calls the host
# stretched by taking the vCPU away. One shared map against a map per
# thread; grey: P times the single thread. Median of the windows, error
# bars min to max.
# input: bpfqs/contention.csv
load 'plots/common.gp'
data = rundir.'/bpfqs/contention.csv'

stats data using 4 skip 1 nooutput
nmin = STATS_min
stats data using 2 skip 1 nooutput name 'P'
sel(m, s) = strcol(1) eq m && strcol(3) eq s
# the single thread of the per-thread-map queue, for the ideal line
stats data using (sel('queue', 'no') && $2 == 1 ? $14 : NaN) skip 1 nooutput name 'ONE'
ideal(x) = x * ONE_max

set title 'Contention while running: push+pop throughput against threads, shared map against a map per thread'
set xlabel 'threads (one per vCPU)'
set ylabel 'throughput while running [million operations/s]'
set xtics 1
set xrange [0.7 : P_max + 0.3]
set yrange [0:*]
set offsets 0, graph 0.05, graph 0.2, 0
set key top left
set label 1 sprintf('median of %d windows per point; bars: min to max; per thread: 2 K operations over the kernel-timed ns per run of its median call', nmin) \
	at screen 0.01, 0.015 left font ',8' tc rgb '#444444'
set bmargin 5
set style line 7 lc rgb '#999999' lw 1 dt 3
plot data using 2:(sel('queue', 'yes') ? $14 : NaN):16:17 skip 1 with yerrorlines ls 1 title 'queue, shared map', \
     data using 2:(sel('queue', 'no') ? $14 : NaN):16:17 skip 1 with yerrorlines ls 1 dt 2 title 'queue, a map per thread', \
     data using 2:(sel('stack', 'yes') ? $14 : NaN):16:17 skip 1 with yerrorlines ls 2 title 'stack, shared map', \
     data using 2:(sel('stack', 'no') ? $14 : NaN):16:17 skip 1 with yerrorlines ls 2 dt 2 title 'stack, a map per thread', \
     data using 2:(sel('queue', 'no') ? ideal($2) : NaN) skip 1 with lines ls 7 title 'P x one thread (queue, own map)'

out = rundir.'/bpfqs/contention-running'
@save

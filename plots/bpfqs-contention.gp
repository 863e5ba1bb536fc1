# Contention: P threads, each pinned to its own vCPU, each running the
# in-program push+pop loop, on one shared map or on a map per thread.
# Operations per second against P: the aggregate (all completed operations
# over the window's wall time) and the median thread. Median of the windows,
# error bars its 95 % interval. P goes up to min(vCPUs, host CPUs).
# caption: the aggregate line should rise with threads on own maps and stay flat on a shared map; below linear on own maps is host oversubscription
# input: bpfqs/contention.csv
load 'plots/common.gp'
data = rundir.'/bpfqs/contention.csv'

stats data using "n" nooutput
nmin = STATS_min
stats data using "threads" nooutput name 'P'
sel(m, s) = strcol("map") eq m && strcol("shared") eq s

set title 'Contention: push+pop throughput against threads, one shared map against a map per thread (wall clock)'
set xlabel 'threads (one per vCPU, at most the host CPUs)'
set ylabel 'throughput [million operations/s]'
set xtics 1
set xrange [0.7 : P_max + 0.3]
set yrange [0:*]
set offsets 0, graph 0.05, graph 0.25, 0
set key top left maxrows 4
set label 1 sprintf('median of %d windows per point; bars: 95 %% interval of the median; push and pop count one operation each; wall clock includes the time the host takes the vCPUs away', nmin) \
	at screen 0.01, 0.015 left font ',8' tc rgb '#444444'
set bmargin 5
plot data using "threads":(sel('queue', 'yes') ? column("median") : NaN):"ci_lo":"ci_hi" with yerrorlines ls 1 title 'queue, shared: all threads', \
     data using "threads":(sel('queue', 'no') ? column("median") : NaN):"ci_lo":"ci_hi" with yerrorlines ls 1 dt 2 title 'queue, per-thread maps: all threads', \
     data using "threads":(sel('stack', 'yes') ? column("median") : NaN):"ci_lo":"ci_hi" with yerrorlines ls 2 title 'stack, shared: all threads', \
     data using "threads":(sel('stack', 'no') ? column("median") : NaN):"ci_lo":"ci_hi" with yerrorlines ls 2 dt 2 title 'stack, per-thread maps: all threads', \
     data using "threads":(sel('queue', 'yes') ? column("thread_median") : NaN) with linespoints ls 3 title 'queue, shared: per thread (median)', \
     data using "threads":(sel('queue', 'no') ? column("thread_median") : NaN) with linespoints ls 3 dt 2 title 'queue, per-thread maps: per thread', \
     data using "threads":(sel('stack', 'yes') ? column("thread_median") : NaN) with linespoints ls 4 title 'stack, shared: per thread (median)', \
     data using "threads":(sel('stack', 'no') ? column("thread_median") : NaN) with linespoints ls 4 dt 2 title 'stack, per-thread maps: per thread'

out = rundir.'/bpfqs/contention'
@save

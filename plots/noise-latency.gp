# noise: the platform's timer latency, from the kernel's timerlat tracer: a
# SCHED_FIFO 95 kernel thread per vCPU arms an absolute hrtimer every 1 ms;
# "IRQ" is the timer interrupt's lateness against the time it was armed
# for, "thread" the thread's wake-up lateness. Every vCPU's activations
# pooled, idle guest against the lab's load; drawn as the fraction of
# activations later than a latency (a CCDF, both axes log), so the tail
# reads off directly: at 0.01 on the y axis lies the p99. Intervals of the
# quantiles are in summary.json and platform-latency.csv.
# caption: the gap between the irq and thread curves is the scheduler's share; a tail that flattens far to the right is stalls of the vCPUs, which every timing workload of this boot inherits
# input: noise/latency-cdf.csv
load 'plots/common.gp'
data = rundir.'/noise/latency-cdf.csv'
sel(l, c) = strcol("load") eq l && strcol("context") eq c
set title 'noise: timer latency of the platform (timerlat, every vCPU pooled)'
set xlabel 'latency [µs] (log scale)'
set ylabel 'fraction of activations later (log scale)'
set logscale xy
set format x '%g'
set format y '%g'
set key bottom left
plot data using (sel('idle', 'irq') ? column("latency_us") : NaN):"exceed" with steps ls 1 title 'idle guest: timer IRQ', \
     data using (sel('idle', 'thread') ? column("latency_us") : NaN):"exceed" with steps ls 3 title 'idle guest: thread wake-up', \
     data using (sel('busy', 'irq') ? column("latency_us") : NaN):"exceed" with steps ls 2 title 'under the lab load: timer IRQ', \
     data using (sel('busy', 'thread') ? column("latency_us") : NaN):"exceed" with steps ls 4 title 'under the lab load: thread wake-up'
out = rundir.'/noise/latency'
@save

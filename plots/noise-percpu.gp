# noise: the p99 of timer latency on each vCPU (timerlat), IRQ and thread
# context, idle guest against the lab's load, with 95 % intervals from a
# bootstrap that resamples half-second blocks of the vCPU's activations
# (a stall delays every activation it covers: the samples of a block are
# not independent). `noise report` writes the quantiles
# (platform-latency.csv).
# caption: one vCPU far above the others is a vCPU the host leaves out more often; intervals that do not overlap differ
# input: noise/platform-latency.csv
load 'plots/common.gp'
data = rundir.'/noise/platform-latency.csv'
sel(l, c) = strcol("load") eq l && strcol("context") eq c && strcol("cpu") ne 'all' && column("quantile") == 0.99
set title 'noise: p99 timer latency per vCPU (timerlat)'
set xlabel 'vCPU'
set ylabel 'p99 latency [µs] (log scale; 95 % interval)'
set logscale y
set format y '%g'
set xtics 0, 1
set offsets 0.5, 0.5, 0, 0
set key top left
plot data using (sel('idle', 'irq') ? column("cpu") - 0.15 : NaN):"latency_us":"lo_us":"hi_us" with yerrorbars ls 1 title 'idle guest: timer IRQ', \
     data using (sel('idle', 'thread') ? column("cpu") - 0.05 : NaN):"latency_us":"lo_us":"hi_us" with yerrorbars ls 3 title 'idle guest: thread wake-up', \
     data using (sel('busy', 'irq') ? column("cpu") + 0.05 : NaN):"latency_us":"lo_us":"hi_us" with yerrorbars ls 2 title 'under the lab load: timer IRQ', \
     data using (sel('busy', 'thread') ? column("cpu") + 0.15 : NaN):"latency_us":"lo_us":"hi_us" with yerrorbars ls 4 title 'under the lab load: thread wake-up'
out = rundir.'/noise/percpu'
@save

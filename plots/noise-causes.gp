# noise: what took the CPU away from the kernel's osnoise thread, in µs per
# second of its runtime, by cause: the median over 1-second periods (every
# vCPU's period averaged; a period whose events the ring buffer lost is left
# out) with its 95 % interval (order statistics of the periods). "total" is
# osnoise's own sum of gaps of 5 µs or more; IRQ, softirq, thread and NMI
# are the net durations of those interferences; the last cause is the part
# of the gaps no interference explains, named by the accelerator (under
# TCG: the vCPU not running guest code, the host or QEMU busy elsewhere).
# A median of 0 is drawn at the bottom line.
# caption: under TCG the host's share (the last cause) is the noise no guest setting removes; under load the thread share is the hogs taking the CPU from osnoise
# input: noise/causes.csv
load 'plots/common.gp'
data = rundir.'/noise/causes.csv'
floor = 0.1
max(v) = v < floor ? floor : v
sel(l) = strcol("load") eq l && strcol("cpu") eq 'all'
set title 'noise: noise per second by cause (osnoise, mean of the vCPUs per 1 s period)'
unset xlabel
set ylabel 'noise [µs per s] (log scale; median of the periods, 95 % interval)'
set logscale y
set format y '%g'
set yrange [floor:*]
set xrange [-0.5:5.5]
set key below
# (the causes' names under their places, from the idle guest's rows of all
# vCPUs, the other rows out of range; the points themselves are invisible)
plot data using (sel('idle') ? column("cause_index") : -10):(floor):xtic(strcol("cause")) \
		with points pt -1 notitle, \
     data using (sel('idle') ? column("cause_index") - 0.12 : NaN):(max(column("median_us_per_s"))):(max(column("lo_us_per_s"))):(max(column("hi_us_per_s"))) \
		with yerrorbars ls 1 title 'idle guest', \
     data using (sel('busy') ? column("cause_index") + 0.12 : NaN):(max(column("median_us_per_s"))):(max(column("lo_us_per_s"))):(max(column("hi_us_per_s"))) \
		with yerrorbars ls 2 title 'under the lab load'
out = rundir.'/noise/causes'
@save

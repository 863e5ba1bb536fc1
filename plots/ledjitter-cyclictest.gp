# ledjitter: cyclictest's histogram of timer wake-up latency (SCHED_FIFO 80,
# 1 ms interval, a thread per vCPU), idle against busy guest, from the same
# boot as the LED measurements: the reference for the user observer's
# wake-up latency. cyclictest counts in 1 us buckets; they are summed here
# into quarter-octave bins (4 per doubling), drawn at the bin's lower bound.
# The histogram ends at 100 ms (cyclictest -h 100000): wake-ups later than
# that are cyclictest's overflows, counted in summary.json at the thread's max.
# caption: the tail of the busy curve against the idle one is the wake-up latency the user observer and abs_pattern cannot beat in this guest
# input: ledjitter/cyclictest-idle.csv
# input: ledjitter/cyclictest-busy.csv
load 'plots/common.gp'
bin(x) = 2 ** (floor(4 * log(x < 1 ? 1 : x) / log(2)) / 4.0)
set title 'ledjitter: cyclictest wake-up latency, same boot as the LED runs'
set xlabel 'latency [us] (log scale, quarter-octave bins)'
set ylabel 'wake-ups in the bin (log scale)'
set logscale xy
set format x '%g'
set format y '%g'
set key top right
plot rundir.'/ledjitter/cyclictest-idle.csv' using (bin(column("latency_us"))):"count" smooth frequency \
	with steps ls 1 title 'idle guest', \
     rundir.'/ledjitter/cyclictest-busy.csv' using (bin(column("latency_us"))):"count" smooth frequency \
	with steps ls 2 title 'busy guest (a CPU hog per vCPU + iperf3)'
out = rundir.'/ledjitter/cyclictest'
@save

# ledjitter: step error against time, pattern against hr_pattern (10 ms
# steps, idle guest), both observers. The error is the observed time of a
# step minus its ideal time from the pattern's start; log scale, since the
# jiffies pattern falls seconds behind while hr_pattern stays within ms.
# input: ledjitter/errors.csv
load 'plots/common.gp'
data = rundir.'/ledjitter/errors.csv'
sel(mode, obs) = (strcol(1) eq mode && column(2) == 10 && strcol(3) eq 'idle' && strcol(4) eq obs)
clamp(x) = (abs(x) < 0.01 ? 0.01 : abs(x))
set title 'ledjitter: step error against time, 10 ms steps, idle guest'
set xlabel 'ideal time of the step from the pattern start [s]'
set ylabel '|step error| [ms] (log scale)'
set logscale y
set yrange [0.01:1e6]
set format y '%g'
set key top left
plot data skip 1 using (sel('pattern', 'kernel') ? column(6) : NaN):(clamp(column(7))) \
	with lines ls 2 title 'pattern (jiffies timer), kernel observer', \
     data skip 1 using (sel('pattern', 'user') ? column(6) : NaN):(clamp(column(7))) \
	with points ls 2 pt 1 ps 0.4 title 'pattern, user observer (uleds reads)', \
     data skip 1 using (sel('hr_pattern', 'kernel') ? column(6) : NaN):(clamp(column(7))) \
	with lines ls 1 title 'hr_pattern (absolute hrtimer), kernel observer', \
     data skip 1 using (sel('hr_pattern', 'user') ? column(6) : NaN):(clamp(column(7))) \
	with points ls 1 pt 1 ps 0.4 title 'hr_pattern, user observer (uleds reads)'
out = rundir.'/ledjitter/error'
@save

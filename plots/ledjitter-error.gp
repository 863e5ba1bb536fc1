# ledjitter: interval error against time, pattern against abs_pattern (10 ms
# steps, idle guest), both observers: each observed interval between two
# consecutive changes minus the 10 ms asked for (the headline metric
# interval_error_us). pattern's intervals sit a tick-rounding above 0 (the
# jiffies model: +6 ms at HZ=250); abs_pattern's scatter around 0 by its
# lateness jitter. Mainline's hr_pattern (Linux 6.10 and later, kernel
# observer) is drawn where the run has it. Drift is not here: see
# ledjitter/drift.
# caption: each interval minus the 10 ms asked: pattern sits a tick-rounding above 0, abs_pattern should scatter around 0; spikes are host stalls
# input: ledjitter/errors.csv
load 'plots/common.gp'
data = rundir.'/ledjitter/errors.csv'
sel(mode, obs) = (strcol("mode") eq mode && column("step_ms") == 10 && strcol("load") eq 'idle' && strcol("observer") eq obs)
set title 'ledjitter: interval error (observed - asked) against time, 10 ms steps, idle guest'
set xlabel 'ideal time of the step from the pattern start [s]'
set ylabel 'interval error [ms] (observed interval - 10 ms)'
set yrange [-10:30]
set key top right
set label 1 'points outside -10..30 ms are clipped; summary.json has the max' \
	at graph 0.01, graph 0.03 font ',8' tc rgb '#666666'
plot data using (sel('pattern', 'kernel') ? column("t_ideal_s") : NaN):"interval_err_ms" \
	with points ls 2 pt 7 ps 0.4 title 'pattern (jiffies timer), kernel observer', \
     data using (sel('pattern', 'user') ? column("t_ideal_s") : NaN):"interval_err_ms" \
	with points ls 4 pt 1 ps 0.5 title 'pattern, user observer (uleds reads)', \
     data using (sel('abs_pattern', 'kernel') ? column("t_ideal_s") : NaN):"interval_err_ms" \
	with points ls 1 pt 7 ps 0.4 title 'abs_pattern (absolute hrtimer), kernel observer', \
     data using (sel('abs_pattern', 'user') ? column("t_ideal_s") : NaN):"interval_err_ms" \
	with points ls 5 pt 1 ps 0.5 title 'abs_pattern, user observer (uleds reads)', \
     data using (sel('hr_pattern', 'kernel') ? column("t_ideal_s") : NaN):"interval_err_ms" \
	with points ls 3 pt 6 ps 0.4 title 'hr_pattern (mainline, relative hrtimer), kernel observer'
out = rundir.'/ledjitter/error'
@save

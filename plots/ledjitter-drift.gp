# ledjitter: cumulative drift over cycles (kernel observer, idle guest): the
# error of the first step of every cycle of the square wave, for each step
# duration that ran, pattern against abs_pattern. pattern's error grows with
# every cycle; abs_pattern's stays at its lateness. Mainline's hr_pattern
# (Linux 6.10 and later, dashed) is drawn where the run has it. The slope of
# each, with its interval, is drift_ms_per_1000_steps in summary.json.
# caption: pattern climbs with every cycle (drift), abs_pattern should stay flat; a slope in abs_pattern means the timeline slipped
# input: ledjitter/drift.csv
load 'plots/common.gp'
data = rundir.'/ledjitter/drift.csv'
sel(mode, step) = (strcol("mode") eq mode && column("step_ms") == step && strcol("load") eq 'idle' && strcol("observer") eq 'kernel')
clamp(x) = (abs(x) < 0.01 ? 0.01 : abs(x))
colour(s) = (s eq '1' ? '#ee6677' : s eq '5' ? '#aa3377' : s eq '10' ? '#ccbb44' : \
	     s eq '50' ? '#228833' : '#4477aa')
# the step durations in the run (the quick profile has 1, 10 and 100 ms)
steps = ''
do for [s in '1 5 10 50 100'] {
	undefine STATS_records
	stats data using (strcol("load") eq 'idle' && column("step_ms") == s + 0 ? 1 : NaN) nooutput
	if (exists("STATS_records") && STATS_records > 0) { steps = steps.' '.s }
}
set title 'ledjitter: cumulative drift over cycles, idle guest, kernel observer'
set xlabel 'cycle (2 steps each)'
set ylabel '|error| at the cycle start [ms] (log scale)'
set logscale y
set format y '%g'
set yrange [0.01:1e6]
set key top left maxrows 5
plot for [s in steps] data \
	using (sel('pattern', s + 0) ? column("cycle") : NaN):(clamp(column("err_ms"))) with lines \
	lw 2 dt 1 lc rgb colour(s) title sprintf('pattern, %s ms', s), \
     for [s in steps] data \
	using (sel('abs_pattern', s + 0) ? column("cycle") : NaN):(clamp(column("err_ms"))) with lines \
	lw 1 dt 1 lc rgb colour(s) title sprintf('abs_pattern, %s ms (thin line)', s), \
     for [s in steps] data \
	using (sel('hr_pattern', s + 0) ? column("cycle") : NaN):(clamp(column("err_ms"))) with lines \
	lw 1 dt 2 lc rgb colour(s) title sprintf('hr_pattern, %s ms (dashed)', s)
out = rundir.'/ledjitter/drift'
@save

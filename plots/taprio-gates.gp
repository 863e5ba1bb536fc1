# taprio: the gate timeline of three cycles of the measurement, one lane per
# traffic class, open windows as bars, each packet's driver TX as a mark
# (circles inside the window of its class, crosses outside), and, when the
# probe saw them (lab kernel), taprio's gate decisions (tracepoint
# taprio_dequeue) as triangles just under the lane. The three cycles around
# the middle TX of class 0; `taprio report` writes both inputs from the
# run's record (gates.csv: the windows; gate-marks.csv: the marks).
# caption: crosses are packets sent outside their class's window; triangles below a lane are taprio's own gate decisions
# input: taprio/gates.csv
# input: taprio/gate-marks.csv
load 'plots/common.gp'
gates = rundir.'/taprio/gates.csv'
marks = rundir.'/taprio/gate-marks.csv'
stats gates using "start_ms" nooutput
tbeg = STATS_min
stats gates using "end_ms" nooutput
tend = STATS_max
stats gates using "tc" nooutput
ntc = int(STATS_max) + 1
kind(k) = strcol("kind") eq k
set title sprintf('taprio: gates and packet TX over %.0f ms of the run the printing probe watched (probe-pass/)', tend - tbeg)
set xlabel 'time from the first cycle measured [ms]'
set ylabel 'traffic class'
set xrange [tbeg:tend]
set yrange [-0.6:ntc - 0.4]
set ytics 1
set key outside bottom center horizontal
set bmargin 6
set style fill solid 0.35 noborder
plot gates using ((column("start_ms") + column("end_ms")) / 2):"tc":((column("end_ms") - column("start_ms")) / 2):(0.3) \
		with boxxyerror ls 1 title 'gate open', \
	marks using (kind('inside') ? column("t_ms") : NaN):"tc" with points ls 3 pt 6 ps 1.2 title 'TX inside the window', \
	marks using (kind('outside') ? column("t_ms") : NaN):"tc" with points ls 2 pt 2 ps 1.5 title 'TX outside the window', \
	marks using (kind('decision') ? column("t_ms") : NaN):(column("tc") - 0.18) \
		with points ls 1 pt 9 ps 1.0 title "taprio's gate decision"
out = rundir.'/taprio/gates'
@save

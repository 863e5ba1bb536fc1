# Route dump lab: speed-up of each kernel-side filter over
# legacy_userfilter (a full dump without strict checking, filtered in user
# space to the same answer): median wall time of legacy_userfilter / median
# of the mode, at the same selectivity point. Left: against the filter's
# selectivity (share of the table in the answer) at the largest table size;
# right: against the table size, at the 1 % point (strict_oif at its one
# point, strict_all at 100 %). Bars: the 95 % bootstrap interval of the
# ratio of medians.
# caption: the bars are 95% intervals: a filter helps where its whole bar is above 1; the gain falls as the answer grows
# input: routedump/speedup.csv
load 'plots/common.gp'
data = rundir.'/routedump/speedup.csv'
if (!exists("bufsize")) bufsize = 32768
modes = 'legacy_userfilter strict_all strict_table strict_protocol strict_oif strict_table_protocol'
stats data using 'routes' nooutput
size = STATS_max
xlo = STATS_min / 2.0
xhi = STATS_max * 2.0
dodge(i, f) = 1.06 ** (2 * (i - 4) + (f eq 'ipv6' ? 0.5 : -0.5))
one(m) = column('point') == 1 || m eq 'strict_all' || m eq 'strict_oif'
selx(f, m, big) = (strcol('family') eq f && strcol('mode') eq m && column('bufsize') == bufsize && (big ? column('routes') == size : one(m))) ? 1 : 0
set logscale y
set grid xtics ytics lc rgb '#dddddd'
set key font ',8' spacing 0.9
ttl = sprintf('routedump: speed-up of kernel-side filters over legacy_userfilter (recvmsg buffer %d B; ratio of medians, bars 95%% bootstrap interval)', bufsize)
draw = "set multiplot layout 1, 2 title ttl; unset label 1000; \
set logscale x; set xrange [0.02:150]; set format x '%g'; \
set xlabel sprintf('selectivity: routes in the answer / routes in the table [%%], at %d routes', size); \
set ylabel 'speed-up over legacy_userfilter [x]'; set key top right; \
plot for [i=2:6] data using (selx('ipv4', word(modes, i), 1) ? 100 * column('selectivity') : NaN):'speedup':'speedup_lo':'speedup_hi' with yerrorbars ls i pt 7 ps 1.2 title word(modes, i), \
     for [i=2:6] data using (selx('ipv6', word(modes, i), 1) ? 100 * column('selectivity') : NaN):'speedup':'speedup_lo':'speedup_hi' with yerrorbars ls i pt 6 ps 1.2 notitle, \
     10 with lines lc rgb '#999999' dt 3 title 'the target for strict_table at 1%: 10x', 1 with lines lc rgb '#999999' dt 1 notitle, \
     NaN with points lc rgb 'black' pt 7 title 'IPv4', NaN with points lc rgb 'black' pt 6 title 'IPv6'; \
set xrange [xlo:xhi]; set format x '%.0f'; set xlabel 'routes in the table, per family'; set key top left; \
set label 1000 runid at screen 0.99, 0.975 right font ',8' tc rgb '#666666' front; \
plot for [i=2:6] data using (selx('ipv4', word(modes, i), 0) ? column('routes') * dodge(i, 'ipv4') : NaN):'speedup':'speedup_lo':'speedup_hi' with yerrorlines ls i dt 1 pt 7 title word(modes, i), \
     for [i=2:6] data using (selx('ipv6', word(modes, i), 0) ? column('routes') * dodge(i, 'ipv6') : NaN):'speedup':'speedup_lo':'speedup_hi' with yerrorlines ls i dt 2 pt 6 notitle, \
     10 with lines lc rgb '#999999' dt 3 notitle, 1 with lines lc rgb '#999999' dt 1 notitle, \
     NaN with linespoints lc rgb 'black' dt 1 pt 7 title 'IPv4', NaN with linespoints lc rgb 'black' dt 2 pt 6 title 'IPv6'; \
unset multiplot"

out = rundir.'/routedump/speedup'
set terminal pngcairo size 1280,600 font 'DejaVu Sans,10' noenhanced background rgb 'white'
set output out.'.png.tmp'
@draw
set output
mv_ = system(mvout('png'))
set terminal svg size 1280,600 font 'DejaVu Sans,10' noenhanced background rgb 'white'
set output out.'.svg.tmp'
@draw
set output
mv_ = system(mvout('svg'))

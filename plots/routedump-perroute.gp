# Route dump lab: what a dump costs per route, against its selectivity
# (routes of the answer / routes in the table, at the points of about 1, 10,
# 50 and 100 %), at the largest table size and one recvmsg buffer size
# (bufsize, default 32768). Left: ns per route returned (the answer; for
# legacy_userfilter what the user filter kept); right: ns per route the
# kernel walked (the table asked for with a table filter, every table
# otherwise). strict_protocol walks everything and copies the answer only:
# what not copying saves; strict_table walks one table: what skipping
# tables saves. At 100 % the strict dump is strict_all (no filter). Medians
# of the measured dumps; bars their 95 % interval (order statistics).
# caption: right panel: strict_protocol's ns per walked route against legacy's is what not copying saves; left: strict_table's low cost per returned route is what skipping tables saves
# input: routedump/dump-stats.csv
load 'plots/common.gp'
data = rundir.'/routedump/dump-stats.csv'
if (!exists("bufsize")) bufsize = 32768
modes = 'legacy_userfilter strict_all strict_table strict_protocol strict_oif strict_table_protocol'
stats data using 'routes' nooutput
size = STATS_max
stats data using 'n' nooutput
nmin = STATS_min
sel(f, m) = strcol('family') eq f && strcol('mode') eq m && column('bufsize') == bufsize && column('routes') == size
# strict_all is the strict dump at 100 %: drawn with strict_table and strict_protocol
is(w) = strcol('mode') eq w || (strcol('mode') eq 'strict_all' && (w eq 'strict_table' || w eq 'strict_protocol'))
selw(f, w) = strcol('family') eq f && is(w) && column('bufsize') == bufsize && column('routes') == size
dodge(i, f) = 1.04 ** (2 * (i - 3.5) + (f eq 'ipv6' ? 0.5 : -0.5))
set logscale xy
set xrange [0.02:200]
set format x '%g'
set xlabel sprintf('selectivity: routes in the answer / routes in the table [%%], %d routes per family', size)
set grid xtics ytics lc rgb '#dddddd'
set key font ',8' spacing 0.9 top right
ttl = sprintf('routedump: cost per route against selectivity (recvmsg buffer %d B; medians of >= %d dumps, bars 95%% interval; at 100%% the strict dump is strict_all)', bufsize, nmin)
lines = 'legacy_userfilter strict_table strict_protocol strict_table_protocol'
draw = "set multiplot layout 1, 2 title ttl; unset label 1000; \
set ylabel 'wall time / routes returned [ns/route]'; \
plot for [i=1:4] data using (selw('ipv4', word(lines, i)) ? 100 * column('selectivity') * dodge(i, 'ipv4') : NaN):'ns_per_returned':'ns_per_returned_lo':'ns_per_returned_hi' with yerrorlines ls i dt 1 pt 7 title word(lines, i), \
     for [i=1:4] data using (selw('ipv6', word(lines, i)) ? 100 * column('selectivity') * dodge(i, 'ipv6') : NaN):'ns_per_returned':'ns_per_returned_lo':'ns_per_returned_hi' with yerrorlines ls i dt 2 pt 6 notitle, \
     data using (sel('ipv4', 'strict_oif') ? 100 * column('selectivity') : NaN):'ns_per_returned':'ns_per_returned_lo':'ns_per_returned_hi' with yerrorbars ls 5 pt 7 title 'strict_oif', \
     data using (sel('ipv6', 'strict_oif') ? 100 * column('selectivity') : NaN):'ns_per_returned':'ns_per_returned_lo':'ns_per_returned_hi' with yerrorbars ls 5 pt 6 notitle, \
     NaN with linespoints lc rgb 'black' dt 1 pt 7 title 'IPv4', NaN with linespoints lc rgb 'black' dt 2 pt 6 title 'IPv6'; \
set ylabel 'wall time / routes the kernel walked [ns/route]'; \
set label 1000 runid at screen 0.99, 0.975 right font ',8' tc rgb '#666666' front; \
plot for [i=1:4] data using (selw('ipv4', word(lines, i)) ? 100 * column('selectivity') * dodge(i, 'ipv4') : NaN):'ns_per_walked':'ns_per_walked_lo':'ns_per_walked_hi' with yerrorlines ls i dt 1 pt 7 title word(lines, i), \
     for [i=1:4] data using (selw('ipv6', word(lines, i)) ? 100 * column('selectivity') * dodge(i, 'ipv6') : NaN):'ns_per_walked':'ns_per_walked_lo':'ns_per_walked_hi' with yerrorlines ls i dt 2 pt 6 notitle, \
     data using (sel('ipv4', 'strict_oif') ? 100 * column('selectivity') : NaN):'ns_per_walked':'ns_per_walked_lo':'ns_per_walked_hi' with yerrorbars ls 5 pt 7 title 'strict_oif', \
     data using (sel('ipv6', 'strict_oif') ? 100 * column('selectivity') : NaN):'ns_per_walked':'ns_per_walked_lo':'ns_per_walked_hi' with yerrorbars ls 5 pt 6 notitle, \
     NaN with linespoints lc rgb 'black' dt 1 pt 7 title 'IPv4', NaN with linespoints lc rgb 'black' dt 2 pt 6 title 'IPv6'; \
unset multiplot"

out = rundir.'/routedump/perroute'
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

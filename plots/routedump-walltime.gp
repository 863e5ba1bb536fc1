# Route dump lab: dump wall time and routes per second against the
# table size, one line per dump mode, IPv4 solid and IPv6 dashed, at one
# recvmsg buffer size (bufsize, default 32768) and the 1 % point (strict_oif
# at its one point, strict_all at 100 %). Medians; bars their 95 % interval.
# caption: wall time should grow linearly with the table for a full walk and stay flat for strict_table; IPv6 dashed
# input: routedump/dump-stats.csv
load 'plots/common.gp'
data = rundir.'/routedump/dump-stats.csv'
if (!exists("bufsize")) bufsize = 32768
modes = 'legacy_userfilter strict_all strict_table strict_protocol strict_oif strict_table_protocol'
one(m) = column('point') == 1 || m eq 'strict_all' || m eq 'strict_oif'
sel(f, m, v) = (strcol('family') eq f && strcol('mode') eq m && column('bufsize') == bufsize && one(m)) ? v : NaN
stats data using 'n' nooutput
nmin = STATS_min
nmax = STATS_max
stats data using 'routes' nooutput
xlo = STATS_min / 2.0
xhi = STATS_max * 2.0

set logscale xy
# modes side by side around each table size, so that points at one size stay apart
dodge(i, f) = 1.06 ** (2 * (i - 3.5) + (f eq 'ipv6' ? 0.5 : -0.5))
set xrange [xlo:xhi]
set format x '%.0f'
set xlabel 'routes in the table, per family'
set grid xtics ytics lc rgb '#dddddd'
set key font ',8' spacing 0.9
ttl = sprintf('routedump: dump wall time and routes/s against table size (recvmsg buffer %d B; medians of %d-%d dumps, bars 95%% interval)', bufsize, nmin, nmax)
draw = "set multiplot layout 1, 2 title ttl; \
set ylabel 'dump wall time [ms]'; set key top left; unset label 1000; \
plot for [i=1:6] data using (column('routes') * dodge(i, 'ipv4')):(sel('ipv4', word(modes, i), column('wall_ms'))):(sel('ipv4', word(modes, i), column('wall_ms_lo'))):(sel('ipv4', word(modes, i), column('wall_ms_hi'))) with yerrorlines ls i dt 1 pt 7 title word(modes, i), \
     for [i=1:6] data using (column('routes') * dodge(i, 'ipv6')):(sel('ipv6', word(modes, i), column('wall_ms'))):(sel('ipv6', word(modes, i), column('wall_ms_lo'))):(sel('ipv6', word(modes, i), column('wall_ms_hi'))) with yerrorlines ls i dt 2 pt 6 notitle, \
     NaN with linespoints lc rgb 'black' dt 1 pt 7 title 'IPv4', NaN with linespoints lc rgb 'black' dt 2 pt 6 title 'IPv6'; \
set ylabel 'route messages received per second [routes/s]'; set key bottom right; set format y '%.0f'; \
set label 1000 runid at screen 0.99, 0.975 right font ',8' tc rgb '#666666' front; \
plot for [i=1:6] data using (column('routes') * dodge(i, 'ipv4')):(sel('ipv4', word(modes, i), column('routes_per_s'))) with linespoints ls i dt 1 pt 7 title word(modes, i), \
     for [i=1:6] data using (column('routes') * dodge(i, 'ipv6')):(sel('ipv6', word(modes, i), column('routes_per_s'))) with linespoints ls i dt 2 pt 6 notitle, \
     NaN with linespoints lc rgb 'black' dt 1 pt 7 title 'IPv4', NaN with linespoints lc rgb 'black' dt 2 pt 6 title 'IPv6'; \
unset multiplot"

out = rundir.'/routedump/walltime'
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

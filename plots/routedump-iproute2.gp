# Route dump lab: our dump against iproute2's `ip route show` with
# the same kernel filter (ip sets strict checking and sends the same
# filters), at the largest table size where iproute2 ran every filter.
# Medians; bars min to max. The dashed lines are ip's start-up baseline
# (`ip route show table 999`, a table of one route): what ip costs before
# it dumps anything.
# caption: our dump against ip route show with the same filter: above ip's dashed start-up line ip is dumping, below it ip is only starting
# input: routedump/iproute2-compare.csv
load 'plots/common.gp'
data = rundir.'/routedump/iproute2-compare.csv'
stats data using ((strcol("mode") eq 'strict_all') ? column("routes") : NaN) nooutput
size = STATS_records > 0 ? STATS_max : 0
if (size == 0) { stats data using "routes" nooutput; size = STATS_max }
stats data using ((column("routes") == size && strcol("family") eq 'ipv4') ? column("ip_startup_ms") : NaN) nooutput
su4 = STATS_records > 0 ? STATS_max : NaN
stats data using ((column("routes") == size && strcol("family") eq 'ipv6') ? column("ip_startup_ms") : NaN) nooutput
su6 = STATS_records > 0 ? STATS_max : NaN
stats data using "n_ip" nooutput
nip = STATS_max
ok(f) = strcol("family") eq f && column("routes") == size
w = 0.09
xp(f, k) = column("mode_index") - 1 + (f eq 'ipv4' ? -0.3 : 0.1) + 0.2 * k
set title sprintf('routedump: our dump against ip route show, same kernel filter, at %d routes (medians of %d, bars min-max)', size, nip)
set ylabel 'wall time per dump [ms]'
set xlabel 'filter (our mode)' offset 0, 1
set bmargin 8
set logscale y
set xrange [-0.6:4.6]
set xtics ('strict_all (table all)' 0, 'strict_table (table T)' 1, 'strict_protocol (proto P)' 2, 'strict_oif (dev D)' 3, 'strict_table_protocol' 4) rotate by -15 left font ',9'
set style fill solid 0.8 border -1
set key below font ',8' maxrows 2
set yrange [0.01:*]
plot data using (ok('ipv4') ? xp('ipv4', 0) : NaN):"ours_ms":(xp('ipv4', 0) - w):(xp('ipv4', 0) + w):(0.01):"ours_ms" with boxxyerror ls 1 title 'routedump, IPv4', \
     data using (ok('ipv4') ? xp('ipv4', 1) : NaN):"ip_ms":(xp('ipv4', 1) - w):(xp('ipv4', 1) + w):(0.01):"ip_ms" with boxxyerror ls 2 title 'ip route show, IPv4', \
     data using (ok('ipv6') ? xp('ipv6', 0) : NaN):"ours_ms":(xp('ipv6', 0) - w):(xp('ipv6', 0) + w):(0.01):"ours_ms" with boxxyerror ls 1 fs pattern 4 title 'routedump, IPv6', \
     data using (ok('ipv6') ? xp('ipv6', 1) : NaN):"ip_ms":(xp('ipv6', 1) - w):(xp('ipv6', 1) + w):(0.01):"ip_ms" with boxxyerror ls 2 fs pattern 4 title 'ip route show, IPv6', \
     data using (ok('ipv4') ? xp('ipv4', 0) : NaN):"ours_ms":"ours_min":"ours_max" with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     data using (ok('ipv4') ? xp('ipv4', 1) : NaN):"ip_ms":"ip_min":"ip_max" with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     data using (ok('ipv6') ? xp('ipv6', 0) : NaN):"ours_ms":"ours_min":"ours_max" with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     data using (ok('ipv6') ? xp('ipv6', 1) : NaN):"ip_ms":"ip_min":"ip_max" with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     su4 with lines ls 2 dt 2 title sprintf('ip start-up baseline, IPv4 (%.0f ms)', su4), \
     su6 with lines ls 4 dt 2 title sprintf('ip start-up baseline, IPv6 (%.0f ms)', su6)
out = rundir.'/routedump/iproute2'
@save

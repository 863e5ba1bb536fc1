# Route dump lab: our dump against iproute2's `ip route show` with
# the same kernel filter (ip sets strict checking and sends the same
# filters), at the largest table size where iproute2 ran every filter.
# Medians; bars min to max. The dashed lines are ip's start-up baseline
# (`ip route show table 999`, a table of one route): what ip costs before
# it dumps anything.
# input: routedump/iproute2-compare.csv
load 'plots/common.gp'
data = rundir.'/routedump/iproute2-compare.csv'
# columns: 1 family 2 routes 3 mode 4 mode_index 5 ours_ms 6 min 7 max 8 ip_ms 9 min 10 max 11 n_ours 12 n_ip 14 ip_startup_ms
stats data using ((strcol(3) eq 'strict_all') ? $2 : NaN) skip 1 nooutput
size = STATS_records > 0 ? STATS_max : 0
if (size == 0) { stats data using 2 skip 1 nooutput; size = STATS_max }
stats data using (($2 == size && strcol(1) eq 'ipv4') ? $14 : NaN) skip 1 nooutput
su4 = STATS_records > 0 ? STATS_max : NaN
stats data using (($2 == size && strcol(1) eq 'ipv6') ? $14 : NaN) skip 1 nooutput
su6 = STATS_records > 0 ? STATS_max : NaN
stats data using 12 skip 1 nooutput
nip = STATS_max
ok(f) = strcol(1) eq f && $2 == size
w = 0.09
xp(f, k) = $4 - 1 + (f eq 'ipv4' ? -0.3 : 0.1) + 0.2 * k
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
plot data skip 1 using (ok('ipv4') ? xp('ipv4', 0) : NaN):5:(xp('ipv4', 0) - w):(xp('ipv4', 0) + w):(0.01):5 with boxxyerror ls 1 title 'routedump, IPv4', \
     data skip 1 using (ok('ipv4') ? xp('ipv4', 1) : NaN):8:(xp('ipv4', 1) - w):(xp('ipv4', 1) + w):(0.01):8 with boxxyerror ls 2 title 'ip route show, IPv4', \
     data skip 1 using (ok('ipv6') ? xp('ipv6', 0) : NaN):5:(xp('ipv6', 0) - w):(xp('ipv6', 0) + w):(0.01):5 with boxxyerror ls 1 fs pattern 4 title 'routedump, IPv6', \
     data skip 1 using (ok('ipv6') ? xp('ipv6', 1) : NaN):8:(xp('ipv6', 1) - w):(xp('ipv6', 1) + w):(0.01):8 with boxxyerror ls 2 fs pattern 4 title 'ip route show, IPv6', \
     data skip 1 using (ok('ipv4') ? xp('ipv4', 0) : NaN):5:6:7 with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     data skip 1 using (ok('ipv4') ? xp('ipv4', 1) : NaN):8:9:10 with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     data skip 1 using (ok('ipv6') ? xp('ipv6', 0) : NaN):5:6:7 with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     data skip 1 using (ok('ipv6') ? xp('ipv6', 1) : NaN):8:9:10 with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
     su4 with lines ls 2 dt 2 title sprintf('ip start-up baseline, IPv4 (%.0f ms)', su4), \
     su6 with lines ls 4 dt 2 title sprintf('ip start-up baseline, IPv6 (%.0f ms)', su6)
out = rundir.'/routedump/iproute2'
@save

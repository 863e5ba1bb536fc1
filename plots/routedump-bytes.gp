# Route dump lab: bytes received per route of the answer, per
# mode and table size: what the kernel sends for each route the question
# needed. A legacy dump sends the whole table and the tool throws most of
# it away. recvmsg buffer size bufsize (default 32768); the 1 % point
# (strict_oif at its one point, strict_all at 100 %); medians.
# input: routedump/dump-stats.csv
load 'plots/common.gp'
data = rundir.'/routedump/dump-stats.csv'
if (!exists("bufsize")) bufsize = 32768
# columns: 1 family 2 routes 3 bufsize 4 mode 5 mode_index 6 point 14 bytes 15 answer 21 bytes_per_answer_route
stats data using 2 skip 1 nooutput
s1 = STATS_min
s2 = STATS_max
ok(f, s) = strcol(1) eq f && $2 == s && $3 == bufsize && $15 > 0 && ($6 == 1 || strcol(4) eq 'strict_all' || strcol(4) eq 'strict_oif')
xpos(f, s) = $5 + (f eq 'ipv4' ? -0.3 : 0.1) + (s == s2 && s1 != s2 ? 0.2 : 0)
w = s1 == s2 ? 0.18 : 0.09
set title sprintf('routedump: bytes received per route of the answer (recvmsg buffer %d B; 1%% point; medians)', bufsize)
set ylabel 'bytes received / routes in the answer [B/route]'
set xlabel 'dump mode'
set logscale y
set yrange [10:*]
set xrange [-0.6:5.6]
set xtics ('legacy_userfilter' 0, 'strict_all' 1, 'strict_table' 2, 'strict_protocol' 3, 'strict_oif' 4, 'strict_table_protocol' 5) rotate by -20 left font ',9'
set style fill solid 0.8 border -1
set key top right
lab(v) = sprintf('%.0f', v)
ok2(f) = ok(f, s2) && s1 != s2
plot data skip 1 using (ok('ipv4', s1) ? xpos('ipv4', s1) : NaN):21:(xpos('ipv4', s1) - w):(xpos('ipv4', s1) + w):(10):21 \
	with boxxyerror ls 1 title sprintf('IPv4, %d routes', s1), \
     data skip 1 using (ok('ipv6', s1) ? xpos('ipv6', s1) : NaN):21:(xpos('ipv6', s1) - w):(xpos('ipv6', s1) + w):(10):21 \
	with boxxyerror ls 3 title sprintf('IPv6, %d routes', s1), \
     data skip 1 using (ok2('ipv4') ? xpos('ipv4', s2) : NaN):21:(xpos('ipv4', s2) - w):(xpos('ipv4', s2) + w):(10):21 \
	with boxxyerror ls 1 fs pattern 4 title (s1 != s2 ? sprintf('IPv4, %d routes', s2) : ''), \
     data skip 1 using (ok2('ipv6') ? xpos('ipv6', s2) : NaN):21:(xpos('ipv6', s2) - w):(xpos('ipv6', s2) + w):(10):21 \
	with boxxyerror ls 3 fs pattern 4 title (s1 != s2 ? sprintf('IPv6, %d routes', s2) : ''), \
     data skip 1 using (ok('ipv4', s2) ? xpos('ipv4', s2) : NaN):21:(lab($21)) with labels offset 0, 0.6 font ',7' notitle, \
     data skip 1 using (ok('ipv6', s2) ? xpos('ipv6', s2) : NaN):21:(lab($21)) with labels offset 0, 0.6 font ',7' notitle
out = rundir.'/routedump/bytes'
@save

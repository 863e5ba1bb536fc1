# Route dump lab: bytes received per route of the answer, per
# mode and table size: what the kernel sends for each route the question
# needed. A legacy dump sends the whole table and the tool throws most of
# it away. recvmsg buffer size bufsize (default 32768); the 1 % point
# (strict_oif at its one point, strict_all at 100 %); medians.
# caption: bytes per answered route: legacy pays for the whole table, a kernel filter only for its answer; the gap is what strict checking saves on the wire
# input: routedump/dump-stats.csv
load 'plots/common.gp'
data = rundir.'/routedump/dump-stats.csv'
if (!exists("bufsize")) bufsize = 32768
stats data using "routes" nooutput
s1 = STATS_min
s2 = STATS_max
ok(f, s) = strcol("family") eq f && column("routes") == s && column("bufsize") == bufsize && column("answer") > 0 && (column("point") == 1 || strcol("mode") eq 'strict_all' || strcol("mode") eq 'strict_oif')
xpos(f, s) = column("mode_index") + (f eq 'ipv4' ? -0.3 : 0.1) + (s == s2 && s1 != s2 ? 0.2 : 0)
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
plot data using (ok('ipv4', s1) ? xpos('ipv4', s1) : NaN):"bytes_per_answer_route":(xpos('ipv4', s1) - w):(xpos('ipv4', s1) + w):(10):"bytes_per_answer_route" \
	with boxxyerror ls 1 title sprintf('IPv4, %d routes', s1), \
     data using (ok('ipv6', s1) ? xpos('ipv6', s1) : NaN):"bytes_per_answer_route":(xpos('ipv6', s1) - w):(xpos('ipv6', s1) + w):(10):"bytes_per_answer_route" \
	with boxxyerror ls 3 title sprintf('IPv6, %d routes', s1), \
     data using (ok2('ipv4') ? xpos('ipv4', s2) : NaN):"bytes_per_answer_route":(xpos('ipv4', s2) - w):(xpos('ipv4', s2) + w):(10):"bytes_per_answer_route" \
	with boxxyerror ls 1 fs pattern 4 title (s1 != s2 ? sprintf('IPv4, %d routes', s2) : ''), \
     data using (ok2('ipv6') ? xpos('ipv6', s2) : NaN):"bytes_per_answer_route":(xpos('ipv6', s2) - w):(xpos('ipv6', s2) + w):(10):"bytes_per_answer_route" \
	with boxxyerror ls 3 fs pattern 4 title (s1 != s2 ? sprintf('IPv6, %d routes', s2) : ''), \
     data using (ok('ipv4', s2) ? xpos('ipv4', s2) : NaN):"bytes_per_answer_route":(lab(column("bytes_per_answer_route"))) with labels offset 0, 0.6 font ',7' notitle, \
     data using (ok('ipv6', s2) ? xpos('ipv6', s2) : NaN):"bytes_per_answer_route":(lab(column("bytes_per_answer_route"))) with labels offset 0, 0.6 font ',7' notitle
out = rundir.'/routedump/bytes'
@save

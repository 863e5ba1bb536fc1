# Route dump lab: CPU time of one dump split into system (kernel)
# and user (the tool), per mode, at the largest table size of the run and
# one recvmsg buffer size (bufsize, default 32768). Medians of the measured
# dumps; the label is the user share of the total. User and system times
# come from getrusage, whose split the kernel samples at each tick (HZ).
# input: routedump/dump-stats.csv
load 'plots/common.gp'
data = rundir.'/routedump/dump-stats.csv'
if (!exists("bufsize")) bufsize = 32768
modes = 'legacy_userfilter strict_all strict_table strict_protocol strict_oif strict_table_protocol'
stats data using 2 skip 1 nooutput
size = STATS_max
# columns: 1 family 2 routes 3 bufsize 5 mode_index 7 n 12 user_ms 13 sys_ms
ok(f) = strcol(1) eq f && $2 == size && $3 == bufsize
xpos(f) = $5 + (f eq 'ipv4' ? -0.2 : 0.2)
w = 0.18
set title sprintf('routedump: CPU time per dump, system and user, at %d routes (recvmsg buffer %d B; medians)', size, bufsize)
set ylabel 'CPU time per dump [ms]'
set xlabel 'dump mode (left bar IPv4, right bar IPv6)'
set xrange [-0.6:5.6]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set xtics ('legacy_userfilter' 0, 'strict_all' 1, 'strict_table' 2, 'strict_protocol' 3, 'strict_oif' 4, 'strict_table_protocol' 5) rotate by -20 left font ',9'
set style fill solid 0.8 border -1
set key top right
share(u, s) = (u + s) > 0 ? sprintf('%.0f%%', 100 * u / (u + s)) : ''
plot data skip 1 using (ok('ipv4') ? xpos('ipv4') : NaN):13:(xpos('ipv4') - w):(xpos('ipv4') + w):(0):13 \
	with boxxyerror ls 1 fs solid 0.8 title 'system, IPv4', \
     data skip 1 using (ok('ipv4') ? xpos('ipv4') : NaN):($12 + $13):(xpos('ipv4') - w):(xpos('ipv4') + w):13:($12 + $13) \
	with boxxyerror ls 2 fs solid 0.8 title 'user, IPv4', \
     data skip 1 using (ok('ipv6') ? xpos('ipv6') : NaN):13:(xpos('ipv6') - w):(xpos('ipv6') + w):(0):13 \
	with boxxyerror ls 1 fs pattern 4 title 'system, IPv6', \
     data skip 1 using (ok('ipv6') ? xpos('ipv6') : NaN):($12 + $13):(xpos('ipv6') - w):(xpos('ipv6') + w):13:($12 + $13) \
	with boxxyerror ls 2 fs pattern 5 title 'user, IPv6', \
     data skip 1 using (ok('ipv4') ? xpos('ipv4') : NaN):($12 + $13):(share($12, $13)) with labels offset 0, 0.7 font ',8' notitle, \
     data skip 1 using (ok('ipv6') ? xpos('ipv6') : NaN):($12 + $13):(share($12, $13)) with labels offset 0, 0.7 font ',8' notitle
out = rundir.'/routedump/cpu'
@save

# Route dump lab: CPU time of one dump split into system (kernel) and
# user (the tool), for legacy_userfilter (at 1 %: it filters in user space)
# and strict_all, from the CPU pass: dumps repeated until the user share is
# known to a 95 % interval 0.05 wide (or the pass's time is up). The kernel
# splits CPU time by sampling once a tick, so the split of one dump of a
# few ms is noise; pooled over the pass, the ticks are the sample. Bars:
# mean CPU per dump over the pass; label: the user share and its Wilson
# interval, with the dumps and ticks it rests on.
# input: routedump/cpu-share.csv
load 'plots/common.gp'
data = rundir.'/routedump/cpu-share.csv'
# columns: 1 family 2 routes 3 mode 4 mode_index 6 dumps 7 ticks 9 share 10 lo 11 hi 12 user_ms 13 sys_ms
stats data using 2 skip 1 nooutput
size = STATS_max
ok(f) = strcol(1) eq f && $2 == size
x(f) = ($4 == 0 ? 0 : 1) + (f eq 'ipv4' ? -0.2 : 0.2)
w = 0.18
set title sprintf('routedump: CPU time per dump, system and user, at %d routes (the CPU pass; means per dump)', size)
set ylabel 'CPU time per dump [ms]'
set xlabel 'dump mode (left bar IPv4, right bar IPv6)'
set xrange [-0.6:1.6]
set yrange [0:*]
set offsets 0, 0, graph 0.2, 0
set xtics ('legacy_userfilter (1%%)' 0, 'strict_all' 1)
set style fill solid 0.8 border -1
set key top left
lab(s, lo, hi, d, t) = sprintf("user %.1f%%\n[%.1f, %.1f]\n%.0f dumps, %.0f ticks", 100 * s, 100 * lo, 100 * hi, d, t)
plot data skip 1 using (ok('ipv4') ? x('ipv4') : NaN):13:(x('ipv4') - w):(x('ipv4') + w):(0):13 \
	with boxxyerror ls 1 fs solid 0.8 title 'system, IPv4', \
     data skip 1 using (ok('ipv4') ? x('ipv4') : NaN):($12 + $13):(x('ipv4') - w):(x('ipv4') + w):13:($12 + $13) \
	with boxxyerror ls 2 fs solid 0.8 title 'user, IPv4', \
     data skip 1 using (ok('ipv6') ? x('ipv6') : NaN):13:(x('ipv6') - w):(x('ipv6') + w):(0):13 \
	with boxxyerror ls 1 fs pattern 4 title 'system, IPv6', \
     data skip 1 using (ok('ipv6') ? x('ipv6') : NaN):($12 + $13):(x('ipv6') - w):(x('ipv6') + w):13:($12 + $13) \
	with boxxyerror ls 2 fs pattern 5 title 'user, IPv6', \
     data skip 1 using (ok('ipv4') ? x('ipv4') : NaN):($12 + $13):(lab($9, $10, $11, $6, $7)) with labels offset 0, 2 font ',7' notitle, \
     data skip 1 using (ok('ipv6') ? x('ipv6') : NaN):($12 + $13):(lab($9, $10, $11, $6, $7)) with labels offset 0, 2 font ',7' notitle
out = rundir.'/routedump/cpu'
@save

# Route dump lab: CPU time of one dump split into system (kernel) and
# user (the tool), for legacy_userfilter (at 1 %: it filters in user space)
# and strict_all, from the CPU pass: dumps repeated until the user share is
# known to a 95 % interval 0.05 wide (or the pass's time is up). The kernel
# splits CPU time by sampling once a tick, so the split of one dump of a
# few ms is noise; pooled over the pass, the ticks are the sample. Bars:
# mean CPU per dump over the pass; label: the user share and its Wilson
# interval, with the dumps and ticks it rests on.
# caption: where a dump's CPU goes: a large user share for legacy means the tool filters what the kernel could have
# input: routedump/cpu-share.csv
load 'plots/common.gp'
data = rundir.'/routedump/cpu-share.csv'
stats data using "routes" nooutput
size = STATS_max
ok(f) = strcol("family") eq f && column("routes") == size
x(f) = (column("mode_index") == 0 ? 0 : 1) + (f eq 'ipv4' ? -0.2 : 0.2)
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
plot data using (ok('ipv4') ? x('ipv4') : NaN):"sys_ms_per_dump":(x('ipv4') - w):(x('ipv4') + w):(0):"sys_ms_per_dump" \
	with boxxyerror ls 1 fs solid 0.8 title 'system, IPv4', \
     data using (ok('ipv4') ? x('ipv4') : NaN):(column("user_ms_per_dump") + column("sys_ms_per_dump")):(x('ipv4') - w):(x('ipv4') + w):"sys_ms_per_dump":(column("user_ms_per_dump") + column("sys_ms_per_dump")) \
	with boxxyerror ls 2 fs solid 0.8 title 'user, IPv4', \
     data using (ok('ipv6') ? x('ipv6') : NaN):"sys_ms_per_dump":(x('ipv6') - w):(x('ipv6') + w):(0):"sys_ms_per_dump" \
	with boxxyerror ls 1 fs pattern 4 title 'system, IPv6', \
     data using (ok('ipv6') ? x('ipv6') : NaN):(column("user_ms_per_dump") + column("sys_ms_per_dump")):(x('ipv6') - w):(x('ipv6') + w):"sys_ms_per_dump":(column("user_ms_per_dump") + column("sys_ms_per_dump")) \
	with boxxyerror ls 2 fs pattern 5 title 'user, IPv6', \
     data using (ok('ipv4') ? x('ipv4') : NaN):(column("user_ms_per_dump") + column("sys_ms_per_dump")):(lab(column("user_share"), column("user_share_lo"), column("user_share_hi"), column("dumps"), column("ticks"))) with labels offset 0, 2 font ',7' notitle, \
     data using (ok('ipv6') ? x('ipv6') : NaN):(column("user_ms_per_dump") + column("sys_ms_per_dump")):(lab(column("user_share"), column("user_share_lo"), column("user_share_hi"), column("dumps"), column("ticks"))) with labels offset 0, 2 font ',7' notitle
out = rundir.'/routedump/cpu'
@save

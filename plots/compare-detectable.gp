# caption: What the comparison could not see: for each workload, the share of its metrics not found changed (y) whose smallest detectable change (80 % power, alpha 0.05, at their boots' spread) is at most x. A curve far to the right means "no change found" says little: only changes larger than that would have been seen.
# Run by bench/compare.sh:
#	gnuplot -e "rundir='OUTDIR'; workloads='bpfqs routedump'; boots='3 boot(s) in A, 3 in B'" \
#		plots/compare-detectable.gp
# input: OUTDIR/compare-detectable-<workload>.csv (detectable_pct, share)
# output: OUTDIR/compare-detectable.png and .svg
if (!exists("workloads") || !exists("boots")) {
	print "error: compare-detectable.gp needs workloads and boots set with -e"
	exit status 2
}
if (!exists("runid")) runid = 'B against A'
load 'plots/common.gp'

set title 'Smallest change each unchanged metric could have shown ('.boots.')'
set xlabel 'smallest detectable |%change| (80 % power, alpha 0.05 per metric)'
set ylabel 'share of the metrics not found changed'
set logscale x
set yrange [0:1.02]
set format x '%g%%'
set key bottom right
plot for [w in workloads] rundir.'/compare-detectable-'.w.'.csv' using "detectable_pct":"share" \
	with steps lw 2 title w

out = rundir.'/compare-detectable'
@save

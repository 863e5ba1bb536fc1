# Shared settings of the lab's figures; see plots/README.md.
# gnuplot runs from the repository root; a figure script starts with
#	load 'plots/common.gp'
# and ends with
#	out = rundir.'/<workload>/<figure>'
#	@save
# which writes <out>.png (pngcairo) and <out>.svg.

if (!exists("rundir")) {
	print "error: rundir is not set; run gnuplot -e \"rundir='results/RUN'; runid='RUN'\" ".ARG0
	exit status 2
}
if (!exists("runid")) runid = system("basename '".rundir."'")

# draw first into /dev/null; @save then replots into the real files
set terminal pngcairo size 960,600 font 'DejaVu Sans,10' noenhanced background rgb 'white'
set output '/dev/null'
set encoding utf8
set termoption noenhanced
set datafile separator comma
# every input has a header line: columns are read by name (column("name"),
# strcol("name"), using "name"), never by number
set datafile columnheaders
set style line 1 lc rgb '#4477aa' lw 2 pt 7 ps 0.8
set style line 2 lc rgb '#ee6677' lw 2 pt 5 ps 0.8
set style line 3 lc rgb '#228833' lw 2 pt 9 ps 0.8
set style line 4 lc rgb '#ccbb44' lw 2 pt 11 ps 0.8
set style line 5 lc rgb '#66ccee' lw 2 pt 13 ps 0.8
set style line 6 lc rgb '#aa3377' lw 2 pt 3 ps 0.8
set style increment user
set grid ytics lc rgb '#dddddd' lt 1
set border 3
set tics nomirror out
set key top right box opaque Left reverse
set tmargin 3.5
# the run id in the top right corner of every figure
set label 1000 runid at screen 0.99, 0.975 right font ',8' tc rgb '#666666' front

# @save: draw the last plot into out.'.png' and out.'.svg', each written to a
# temporary file first and renamed, so no reader sees half a figure
mvout(ext) = sprintf("mv -f -- '%s.%s.tmp' '%s.%s'", out, ext, out, ext)
# (fig_w, fig_h: the figure's size, 960 x 600 unless a script sets them)
fig_w = 960
fig_h = 600
save = "set terminal pngcairo size fig_w,fig_h font 'DejaVu Sans,10' noenhanced background rgb 'white'; \
set output out.'.png.tmp'; replot; set output; mv_ = system(mvout('png')); \
set terminal svg size fig_w,fig_h font 'DejaVu Sans,10' noenhanced background rgb 'white'; \
set output out.'.svg.tmp'; replot; set output; mv_ = system(mvout('svg'))"

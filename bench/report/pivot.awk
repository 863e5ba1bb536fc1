# The pivoted table (pivot.jq) for people: "(unit)" on the first line, the
# unit picked by the cells' geometric mean, then the table's TSV with every
# cell in that unit (with fmt.awk and scale.awk)
NR == 1 { unit = $0; next }
{
	line[++n] = $0
	if (n > 1) for (i = 2; i <= NF; i++) if ($i != "null" && $i != 0) { lg += log(abs($i)); nl++ }
}
END {
	pick(unit, nl ? exp(lg / nl) : 0)
	print "(" SU ")"
	for (r = 1; r <= n; r++) {
		nf = split(line[r], c, "\t")
		if (r == 1) { c[1] = c[1] == "" ? " " : c[1] }
		else for (i = 2; i <= nf; i++) c[i] = sc(c[i])
		s = c[1]; for (i = 2; i <= nf; i++) s = s "\t" c[i]
		print s
	}
}

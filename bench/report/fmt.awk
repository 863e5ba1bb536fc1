# fmt(x): a number for people: 4 significant digits without exponent
# between 1e-3 and 1e7, integers as such, "-" for null, empty or "-".
# A library of the other programs here (awk -f fmt.awk -f PROGRAM.awk).
function fmt(x,    a, l, d, s) {
	if (x == "" || x == "null" || x == "-") return "-"
	x += 0; a = x < 0 ? -x : x
	if (a == 0) return "0"
	if (x == int(x) && a < 1e15) return sprintf("%d", x)
	if (a >= 1e7 || a < 1e-3) return sprintf("%.4g", x)
	l = log(a) / log(10); d = int(l); if (d > l) d--
	d = 3 - d
	if (d < 0) d = 0
	s = sprintf("%." d "f", x)
	if (s ~ /\./) { sub(/0+$/, "", s); sub(/\.$/, "", s) }
	return s
}

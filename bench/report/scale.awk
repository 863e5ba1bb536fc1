# pick(unit, maxabs) sets SF (the divisor) and SU (the unit) so that a time
# (ns, us, ms, s; also ns/op and the like) reads in the largest unit below
# its size: 123456 ns is 123.5 us. sc(x): x in that unit, by fmt (fmt.awk).
# A library of the other programs here (awk -f fmt.awk -f scale.awk -f ...).
function pick(unit, m,    base, rest, i, u, k) {
	SF = 1; SU = unit; base = unit; rest = ""
	if ((i = index(unit, "/")) > 0) { base = substr(unit, 1, i - 1); rest = substr(unit, i) }
	split("ns us ms s", u, " ")
	for (k = 1; k <= 4 && u[k] != base; k++) ;
	if (k > 4) return
	while (k < 4 && m >= 1000) { m /= 1000; SF *= 1000; k++ }
	SU = u[k] rest
}
function sc(x) { return (x == "null" || x == "" || x == "-") ? "-" : fmt(x / SF) }
function abs(x) { return x < 0 ? -x : x }

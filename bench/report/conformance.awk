# A TAP file (without CR): "passed failed skipped planned results" of its
# top-level results ("-" when it has no plan), then its failing lines at
# any level, "LINE: text"
function directive(s) { return s ~ /#[ \t]*([Ss][Kk][Ii][Pp]|[Tt][Oo][Dd][Oo])/ }
/^[ \t]*(not )?ok([ \t]|$)/ {
	top = $0 !~ /^[ \t]/
	if (directive($0)) { if (top) s++; next }
	if ($0 ~ /^[ \t]*not ok/) { bad[++nb] = NR ": " $0; if (top) f++ }
	else if (top) p++
	next
}
/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
/^[ \t]*Bail out!/ { bad[++nb] = NR ": " $0 }
END {
	printf "%d %d %d %s %d\n", p, f, s, plan == "" ? "-" : plan, p + f + s
	for (i = 1; i <= nb; i++) print bad[i]
}

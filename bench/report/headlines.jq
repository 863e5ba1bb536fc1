# The metrics of a summary.json that one headline of report.conf names
# ($spec: "NAME [KEY=VALUE]..."), as TSV: name, the params the spec did not
# fix, n, median, the 95% interval's ends, unit ("null" for null)
($spec | split(" ") | map(select(length > 0))) as $s
| ($s[1:] | map(split("=") | {key: .[0], value: (.[1:] | join("="))}) | from_entries) as $want
| [.metrics[] | select(.name == $s[0])
   | select(.params as $p | $want | to_entries | all(.value == ($p[.key] // null)))] as $m
# params the spec fixed, or that all matches share, say nothing
| ([$m[].params | to_entries[]] | group_by(.key)
   | map(select(length == ($m | length) and (map(.value) | unique | length) == 1 and ($m | length) > 1))
   | map(.[0].key)) as $same
| $m[]
| [.name, ((.params // {}) | to_entries | map(select($want[.key] == null and (.key | IN($same[]) | not)))
	| sort_by(.key) | map("\(.key)=\(.value)") | join(" ")),
   .n, .median, (.ci95.lo // null), (.ci95.hi // null), .unit]
| map(if . == null then "null" else tostring end) | @tsv

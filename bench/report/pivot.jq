# The metric $name of a summary.json with the values of its parameter $k as
# columns: its unit, then TSV: a header ("$k →" and the values, numbers in
# numeric order), one row per set of the other params with the medians
# ("null" for none)
def kv: to_entries | sort_by(.key) | map("\(.key)=\(.value)") | join(" ");
[.metrics[] | select(.name == $name)
 | . + {row: (.params | del(.[$k]) | kv), col: .params[$k]}] as $m
| ($m | map(.col) | unique
	| sort_by(if test("^[0-9.]+$") then [0, tonumber] else [1, .] end)) as $cols
| ($m | reduce .[].row as $r ([]; if index([$r]) then . else . + [$r] end)) as $rows
| $m[0].unit,
  ([$k + " \u2192"] + $cols | @tsv),
  ($rows[] as $r | [$r] + [$cols[] as $c
	| (first($m[] | select(.row == $r and .col == $c) | .median) // null)]
	| map(if . == null then "null" else tostring end) | @tsv)

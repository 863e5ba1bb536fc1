# The metric names of a summary.json, in order of first appearance, each
# with the first key of $keys (words) that it varies over: every metric of
# that name has the key, with more than one value among them. TSV: name,
# key; a name that varies over none of them is left out.
([$keys | splits("[ \t\n]+") | select(length > 0)]) as $keys
| .metrics as $all
| [$all[].name] | reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end)
| .[] as $n
| [$all[] | select(.name == $n)] as $m
| first($keys[] as $k
	| select($m | all(.params[$k] != null) and (map(.params[$k]) | unique | length > 1))
	| [$n, $k] | @tsv)

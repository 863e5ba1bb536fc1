# The targets of every targets.json given (jq -s), counted by verdict: MET,
# NOT MET, undecided, not judged (TSV); what is not an array is skipped
include "targetlib";
[.[] | arrays | .[] | state] | [(map(select(. == "met")) | length), (map(select(. == "not met")) | length),
	(map(select(. == "undecided")) | length), (map(select(. == "not judged")) | length)] | @tsv

# The targets of every targets.json given (jq -s), counted by verdict: MET,
# NOT MET, not judged (TSV); what is not an array is skipped
[.[] | arrays | .[]] | [(map(select(.met == true)) | length),
	(map(select(.met == false)) | length), (map(select(.met == null)) | length)] | @tsv

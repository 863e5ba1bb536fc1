# targets.json as TSV, NOT MET first, then not judged, then MET: target,
# measured, limit, unit, verdict, why ("null" for null)
sort_by(if .met == false then 0 elif .met == null then 1 else 2 end) | .[]
| [.target, .measured, .limit, .unit,
	(if .met == true then "MET" elif .met == false then "NOT MET"
	 else "not judged" end), .why]
| map(if . == null then "null" else tostring end) | @tsv

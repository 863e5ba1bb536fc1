# targets.json as TSV, NOT MET first, then undecided, not judged, MET:
# target, measured, limit, unit, verdict, why ("null" for null)
include "targetlib";
sort_by(rank) | .[] | row | @tsv

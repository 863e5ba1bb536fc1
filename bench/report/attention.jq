# The targets of one targets.json that need a reader's attention, NOT MET
# first, then undecided, as TSV: verdict, name, detail. Targets of one kind
# with the same verdict share a line, named "KIND (N: PARAMS; PARAMS...)"
# with no detail; a target alone has its name and as detail "MEASURED UNIT
# against LIMIT (WHY)".
include "targetlib";
map(select(attention)) | group_by([rank, kind]) | sort_by(.[0] | rank) | .[]
| if length == 1 then .[0] | [shown, .target, "\(.measured) \(.unit) against \(.limit) (\(.why))"]
  else [(.[0] | shown), "\(.[0] | kind) (\(length): \(map(params) | join("; ")))", ""] end
| @tsv

# targets.json as TSV like targets.jq, but the targets of one kind (the
# same name but for its parameters, e.g. the clock reads of every map and
# op) in one line when there are two or more and none is NOT MET or
# undecided: "64 of 64 MET" (and how many not judged), after the others
include "targetlib";
[.[] | . + {k: kind}] | group_by(.k) as $g
| def folds: length > 1 and all(.[]; attention | not);
  ([$g[] | select(folds | not) | .[]] | sort_by(rank) | .[] | row | @tsv),
  ($g[] | select(folds)
   | (map(select(state == "met")) | length) as $met | (length - $met) as $nj
   | [.[0].k, "-", (.[0].limit // "null" | tostring), .[0].unit,
      "\($met) of \(length) MET" + (if $nj > 0 then ", \($nj) not judged" else "" end),
      "\(length) targets of one kind in one line, none NOT MET or undecided; each in the table of all targets"]
   | @tsv)

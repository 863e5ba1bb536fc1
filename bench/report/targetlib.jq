# Functions on one target of targets.json (jq module: include "targetlib")
# Its verdict: "verdict", or for a targets.json written before targets had
# one, from "met" (true: met, false: not met, null: not judged)
def state: .verdict // (if .met == true then "met" elif .met == false then "not met" else "not judged" end);
# The verdict as the report shows it
def shown: {"met": "MET", "not met": "NOT MET", "undecided": "undecided"}[state] // "not judged";
# The order of the report: NOT MET, undecided, not judged, MET
def rank: {"not met": 0, "undecided": 1, "met": 3}[state] // 2;
# Whether it needs a reader's attention: NOT MET or undecided
def attention: state == "not met" or state == "undecided";
# Its kind: the name without its KEY=VALUE parameters and a closing
# parenthesis, e.g. one clock-read target per map, op and value size
def kind: .target | gsub(" *[^ ()]+=[^ ()]+"; "") | gsub(" *\\([^()]*\\)$"; "");
# What kind leaves out: the KEY=VALUE parameters and the closing parenthesis
def params: [(.target | scan("[^ ()]+=[^ ()]+")), (.target | scan("\\([^()]*\\)$"))] | join(" ");
# Its row of the targets' table: target, measured, limit, unit, verdict,
# why ("null" for null)
def row: [.target, .measured, .limit, .unit, shown, .why] | map(if . == null then "null" else tostring end);

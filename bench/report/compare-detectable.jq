# The smallest changes a comparison could have seen, for one workload ($w):
# the metrics not found changed, each with its detectable %change (80 %
# power, alpha 0.05), in increasing order, as CSV: detectable_pct, share (the
# share of those metrics whose detectable change is at most that), the
# empirical distribution that plots/compare-detectable.gp draws
[.metrics[] | select(.workload == $w and .changed == false and .detectable_pct != null) | .detectable_pct]
| sort | length as $n
| "detectable_pct,share",
  (to_entries[] | "\(.value),\((.key + 1) / $n)")

# The targets' TSV (targets.jq) for people: measured and limit by fmt (fmt.awk)
{ $2 = fmt($2); $3 = fmt($3); print }

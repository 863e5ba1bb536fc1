# meta.json as TSV: key, value (arrays joined by spaces, strings as they
# are, anything else as JSON)
to_entries[] | [.key, (.value | if type == "array" then join(" ")
	elif type == "string" then . else tojson end)] | @tsv

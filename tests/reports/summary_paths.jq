# tests/reports/summary_paths.jq - every key path of a summary.json, one a line: a spike's figures as
# variants.NAME.spikes.N.KEY, any other array's elements as [], variant names as NAME.
[paths | select(.[-1] | type == "string")
 | if .[0] == "variants" and length > 1 then .[1] = "NAME" else . end
 | if .[2] == "spikes" and length > 3 then .[3] = "N" else . end
 | map(if type == "number" then "[]" else . end) | join(".")] | unique[]

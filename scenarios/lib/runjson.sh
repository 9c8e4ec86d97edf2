# scenarios/lib/runjson.sh - run.json (docs/run-folder.md) is written by the run's controller
# (docs/controller.md, "The run folder"): each change a request, the file replaced whole. PATH is
# .key.key, with [N] or a row selector [name=glibc] (the first object whose name is glibc).

# runjson_set PATH JSON : one value, e.g. runjson_set '.variants[name=glibc].version' "$v".
runjson_set() { procs_ask runjson-set "$1" "$2" >/dev/null; }

# runjson_fields PATH KEY=TEXT|KEY:=JSON... : keys of the object at PATH (made when missing), TEXT
# as a string, JSON as the value it is (as the `event` request takes them).
runjson_fields() { procs_ask runjson-fields "$@" >/dev/null; }

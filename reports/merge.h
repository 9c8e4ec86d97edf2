/* reports/merge.h - allocspike-report merge: one run folder from the fragments of sharded
 * generators (docs/run-folder.md, "Fragments and merge"). */
#ifndef ALLOCSPIKE_REPORTS_MERGE_H
#define ALLOCSPIKE_REPORTS_MERGE_H

/* argv: the arguments after "merge" (--out RUN FRAGMENT...). Returns the exit status: 0 merged,
 * 1 a shard did not finish (or writing failed), 2 usage, an unreadable fragment, or fragments that
 * are not the shards of one stream. */
int merge_main(int argc, char **argv);

#endif

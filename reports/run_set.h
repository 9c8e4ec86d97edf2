/* reports/run_set.h - the run folders a path on the command line names: one run folder, or a
 * folder of repeats (`--repeat N` writes DIR/run-1..N and DIR/compare.html). */
#ifndef ALLOCSPIKE_REPORTS_RUN_SET_H
#define ALLOCSPIKE_REPORTS_RUN_SET_H

#include <stddef.h>

struct run_set {
	char **dirs; /* the run folders, in order */
	size_t n;
};

/* The folders path names: itself when it has a run.json (or has no repeats either: reading it then
 * says what is missing), else its run-N folders that have a run.json, by N. */
void run_set_expand(const char *path, struct run_set *set);
void run_set_free(struct run_set *set);

#endif

/* loadgen/summary.h - the closing summary, in dnsperf's words so that dnsperf scripts read it. */
#ifndef ALLOCSPIKE_LOADGEN_SUMMARY_H
#define ALLOCSPIKE_LOADGEN_SUMMARY_H

#include <stdio.h>

#include "pacer.h"
#include "recorder.h"

/* Prints one "Statistics:" block per target, then the generator's own figures (scheduled and
 * achieved rate, CPU per query). */
void summary_print(FILE *out, const struct pacer *p, const struct recorder *r, bool interrupted);

/* The same per target as "summary" events in events.jsonl, for reports. */
void summary_events(struct runfolder_writer *w, const struct pacer *p, double t);

#endif

/* loadgen/progress.h - the one-line live display on a terminal (nothing when stderr is not one). */
#ifndef ALLOCSPIKE_LOADGEN_PROGRESS_H
#define ALLOCSPIKE_LOADGEN_PROGRESS_H

#include <stdbool.h>

struct progress_target {
	const char *name;
	double answered_qps; /* < 0: not a traffic target */
	long rss_kb;         /* < 0: unknown */
};

struct progress_view {
	double t_s, duration_s;
	const char *phase;
	unsigned spike;
	double offered_qps, sent_qps;
	const struct progress_target *targets;
	unsigned count;
};

/* True when stderr is a terminal (and so the display is wanted). */
bool progress_enabled(void);

/* Redraws the line in place. */
void progress_show(const struct progress_view *v);

/* Ends the line so that what follows starts on a fresh one. */
void progress_end(void);

#endif

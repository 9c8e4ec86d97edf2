/* common/schedule.h - the rate schedule (phases, ramps, repeated spikes): parser and clock math. */
#ifndef ALLOCSPIKE_SCHEDULE_H
#define ALLOCSPIKE_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

/* Syntax and meaning: docs/schedule.md. */

enum schedule_kind {
	SCHEDULE_WARMUP,
	SCHEDULE_BASELINE,
	SCHEDULE_SPIKE,
	SCHEDULE_RECOVERY,
	SCHEDULE_CALIBRATE,
	SCHEDULE_ZERO,
};

struct schedule_phase {
	enum schedule_kind kind;
	double start_s;      /* since the schedule started */
	double duration_s;   /* > 0 */
	double rate_from;    /* queries per second at the phase's start */
	double rate_to;      /* ... at its end (== rate_from unless a ramp) */
	unsigned spike;      /* spike number: 0 before the first spike phase */
	double count_before; /* queries scheduled before the phase starts (real number) */
	unsigned clients;    /* '/clients=N': clients the phase's queries are spread over; 0: the
	                      * generator's --clients (a connection spike raises it) */
};

struct schedule {
	struct schedule_phase *phases;
	size_t count;
	double duration_s;
	double total;         /* queries in the whole schedule (real number) */
	unsigned clients_max; /* the largest '/clients=N' of any phase; 0 when none has one */
};

/* Parses text (or, when it starts with '@', the file it names) into *out.
 * On error returns false with "where: what" in err (column, or file:line:column). */
bool schedule_parse(const char *text, struct schedule *out, char *err, size_t err_size);

/* A schedule of one phase: what dnsperf's -Q RATE -l SECONDS means. */
bool schedule_constant(struct schedule *out, enum schedule_kind kind, double seconds, double rate);

void schedule_free(struct schedule *s);

/* The phase running at t seconds (the last one for t past the end, the first for t < 0). */
const struct schedule_phase *schedule_phase_at(const struct schedule *s, double t);

/* The rate at t in queries per second (0 outside the schedule). */
double schedule_rate_at(const struct schedule *s, double t);

/* Queries scheduled in [0, t] as a real number (the integral of the rate). */
double schedule_count_at(const struct schedule *s, double t);

/* Queries due by t: query k (from 0) is due when the count reaches k + 0.5, so queries sit in the
 * middle of their slots and every whole second at a constant integer rate R holds exactly R. */
unsigned long long schedule_due(const struct schedule *s, double t);

/* Total number of queries the schedule sends. */
unsigned long long schedule_total_queries(const struct schedule *s);

/* Seconds since start at which query k is due; a value > duration_s when k is past the end. */
double schedule_time_of(const struct schedule *s, unsigned long long k);

/* "warmup", "baseline", "spike", "recovery", "calibrate", "zero". */
const char *schedule_kind_name(enum schedule_kind kind);

/* Writes a normalised one-line description of the expanded schedule into buf (for logs). */
void schedule_describe(const struct schedule *s, char *buf, size_t buf_size);

#endif

/* upstream/netem.h - simulated network: loss and delay per (seed, server, question, attempt). */
#ifndef ALLOCSPIKE_UPSTREAM_NETEM_H
#define ALLOCSPIKE_UPSTREAM_NETEM_H

#include "servers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct netem_tier {
	double median_ms; /* log-normal delay: median and 99th percentile */
	double p99_ms;
	double loss; /* share of queries never answered */
};

struct netem_config {
	uint64_t seed;
	struct netem_tier tier[TIER_COUNT];
	bool latency;       /* false: answer at once */
	bool loss;          /* false: never drop (dead servers included) */
	double slow_factor; /* delay multiplier of slow servers */
	double window_s;    /* an attempt count is forgotten after this long without a repeat */
	/* worlds with a base RTT per server (server.rtt_ms > 0): the delay is that RTT times a
	 * log-normal jitter of median 1 and this 99th percentile, and late_share of the queries
	 * wait late_min_ms..late_max_ms more; the tier's log-normal is not used */
	double jitter_p99;
	double late_share;
	double late_min_ms, late_max_ms;
};

#define NETEM_MAX_DELAY_MS 8000

struct netem_verdict {
	bool drop;
	uint32_t delay_ms;
	uint32_t attempt; /* 1 for the first time this source asks this server this question */
};

struct netem;

struct netem *netem_new(const struct netem_config *cfg);

/* The treatment of one query; counts the attempt. now_s is monotonic seconds. */
void netem_decide(struct netem *n, uint32_t source, const struct server *s, const char *qname,
                  uint16_t qtype, double now_s, struct netem_verdict *v);

/* The pure part: loss and delay for a given attempt, no state. */
void netem_treatment(const struct netem_config *cfg, const struct server *s, const char *qname,
                     uint16_t qtype, uint32_t attempt, struct netem_verdict *v);

/* Entries in the attempt table (for stats). */
size_t netem_tracked(const struct netem *n);

void netem_free(struct netem *n);

/* The longest median and 99th percentile delay an option may ask for (--latency-ms, --tier). */
#define NETEM_MAX_MEDIAN_S 10.0
#define NETEM_MAX_P99_S 60.0

/* Parses "NAME:MEDIAN_MS:P99_MS:LOSS" (NAME root, tld or sld; the delays in milliseconds or with a
 * unit, a LOSS from 0 to 1, by common/cli_parse) into cfg; false with the reason in err. */
bool netem_parse_tier(struct netem_config *cfg, const char *text, char *err, size_t err_size);

#endif

/* controller/daemon_counters.h - a daemon's own counters, read from what its control tool printed:
 * `NAME=VALUE` lines (unbound-control), values one a line in the order asked (rec_control) or a
 * JSON document (named's statistics channel, kresd's control socket); docs/daemons.md, `stats`. */
#ifndef ALLOCSPIKE_CONTROLLER_DAEMON_COUNTERS_H
#define ALLOCSPIKE_CONTROLLER_DAEMON_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define DAEMON_COUNTERS_MAX_SOURCES 8

/* One output read: its label (what printed it, for messages) and its counters. A JSON document
 * is looked up by dotted path (views._default.resolver.cachestats.CacheNodes), the other two by
 * the whole name (unbound's names have dots of their own). */
struct daemon_source {
	const char *label;
	json_t *counters;
	bool by_path;
};

struct daemon_counters {
	struct daemon_source sources[DAEMON_COUNTERS_MAX_SOURCES];
	size_t n;
};

/* The kinds of output, as the words of `allocspike-run daemon-stats` name them. */
enum daemon_output { DAEMON_OUTPUT_TEXT, DAEMON_OUTPUT_VALUES, DAEMON_OUTPUT_JSON };

/* Reads file ("-": stdin) of the kind into c under label; names is the comma-separated names of
 * the values, in order (DAEMON_OUTPUT_VALUES only). False (with a reason) when it cannot be read
 * or is not of its kind. */
bool daemon_counters_read(struct daemon_counters *c, enum daemon_output kind, const char *label,
                          const char *file, const char *names, char *err, size_t err_size);

void daemon_counters_free(struct daemon_counters *c);

enum daemon_counter_state { DAEMON_COUNTER_FOUND, DAEMON_COUNTER_ABSENT, DAEMON_COUNTER_BAD };

/* name's value from the first source that has it (a JSON null is absent). BAD (with a reason)
 * when it is there but no whole number: never read as 0. */
enum daemon_counter_state daemon_counters_get(const struct daemon_counters *c, const char *name,
                                              unsigned long long *value, char *err,
                                              size_t err_size);

/* The sources' labels, "A or B", for "A printed no NAME". */
void daemon_counters_labels(const struct daemon_counters *c, char *out, size_t size);

#endif

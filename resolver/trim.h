/* resolver/trim.h - --trim-interval: the allocator gives free memory back to the system on a timer,
 * as daemons that call malloc_trim periodically do (glibc and jemalloc only). */
#ifndef ALLOCSPIKE_RESOLVER_TRIM_H
#define ALLOCSPIKE_RESOLVER_TRIM_H

#include <jansson.h>
#include <stddef.h>

struct event_base;

/* The interval from ALLOCSPIKE_TRIM_INTERVAL_MS (how an env row of variants.tsv sets it), 0 when
 * unset; -1 with the reason when it is not a number of milliseconds. */
long trim_interval_from_env(char *err, size_t err_size);

/* Starts the timer (interval_ms > 0). Fails with the reason when the allocator serving malloc has
 * no way to give memory back on demand (tcmalloc, mimalloc and musl are refused, not ignored). */
int trim_start(struct event_base *base, long interval_ms, char *err, size_t err_size);
void trim_stop(void);

/* Adds "ALLOCSPIKE_TRIM_INTERVAL_MS" to --version --json's allocator_settings when the environment
 * sets it and the allocator supports it, so the row's setting check sees it take. */
void trim_settings_json(json_t *settings);

#endif

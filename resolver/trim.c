/* resolver/trim.c - --trim-interval: every interval the allocator returns its free memory to the
 * system with its adapter's trim (common/allocators/; glibc's is malloc_trim(0)). It runs on the
 * timer whether or not queries are in flight: a resolver under a constant baseline is never idle,
 * and the CPU it costs is what the advisor weighs. */
#include "trim.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_info.h"
#include "allocators/allocator.h"

#define TRIM_ENV "ALLOCSPIKE_TRIM_INTERVAL_MS"
#define TRIM_MAX_MS 3600000L

static struct event *trim_timer;
static const struct allocator_adapter *trim_allocator;

/* The allocator serving this process if its adapter can trim on demand, else NULL. */
static const struct allocator_adapter *trim_supported(void)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	const struct allocator_adapter *a = allocator_by_name(info.allocator);
	return a && a->can_trim && a->can_trim() ? a : NULL;
}

long trim_interval_from_env(char *err, size_t err_size)
{
	const char *text = getenv(TRIM_ENV);
	if (!text || !*text)
		return 0;
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || *end || v < 1 || v > TRIM_MAX_MS) {
		snprintf(err, err_size, "%s='%s': expected milliseconds, 1..%ld", TRIM_ENV, text,
		         TRIM_MAX_MS);
		return -1;
	}
	return v;
}

static void on_trim(evutil_socket_t fd, short what, void *arg)
{
	(void)fd, (void)what, (void)arg;
	trim_allocator->trim();
}

int trim_start(struct event_base *base, long interval_ms, char *err, size_t err_size)
{
	if (interval_ms <= 0)
		return 0;
	trim_allocator = trim_supported();
	if (!trim_allocator) {
		struct alloc_info info;
		alloc_info_detect(&info);
		snprintf(
		    err, err_size,
		    "--trim-interval: %s has no call that returns free memory on demand the way "
		    "glibc's malloc_trim or jemalloc's arena purge do; not started",
		    info.allocator);
		return -1;
	}
	struct timeval every = {interval_ms / 1000, (interval_ms % 1000) * 1000};
	trim_timer = event_new(base, -1, EV_PERSIST, on_trim, NULL);
	if (!trim_timer || event_add(trim_timer, &every) < 0) {
		snprintf(err, err_size, "--trim-interval: cannot start the timer");
		return -1;
	}
	return 0;
}

void trim_stop(void)
{
	if (trim_timer)
		event_free(trim_timer);
	trim_timer = NULL;
}

void trim_settings_json(json_t *settings)
{
	char err[128];
	long ms = trim_interval_from_env(err, sizeof(err));
	if (ms > 0 && trim_supported())
		json_object_set_new(settings, TRIM_ENV, json_integer(ms));
}

/* common/control_client.c - asks a resolver for its `stats` over its Unix control socket. */
#include "control_client.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "monotonic.h"

static double control_number(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Waits for fd to be ready for events, within what is left of the deadline. */
static bool control_wait(int fd, short events, uint64_t deadline)
{
	uint64_t now = monotonic_ns();
	if (now >= deadline)
		return false;
	struct pollfd pfd = {.fd = fd, .events = events};
	return poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1) == 1;
}

ssize_t control_ask(const char *path, const char *text, char end, int timeout_ms, char *buf,
                    size_t size, enum control_ask_end *how, char *err, size_t err_size)
{
	uint64_t deadline = monotonic_ns() + (uint64_t)timeout_ms * 1000000;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	ssize_t len = -1;
	size_t got = 0, text_len = strlen(text);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 &&
	    !(errno == EINPROGRESS && control_wait(fd, POLLOUT, deadline))) {
		snprintf(err, err_size, "%s: connect: %s", path, strerror(errno));
		goto out;
	}
	if (send(fd, text, text_len, MSG_NOSIGNAL) != (ssize_t)text_len) {
		snprintf(err, err_size, "%s: send: %s", path, strerror(errno));
		goto out;
	}
	*how = CONTROL_ASK_ENDED;
	while (!memchr(buf, end, got)) {
		if (got == size - 1) {
			snprintf(err, err_size, "%s: answer longer than %zu bytes", path, got);
			goto out;
		}
		if (!control_wait(fd, POLLIN, deadline)) {
			*how = CONTROL_ASK_TIMED_OUT;
			break;
		}
		ssize_t n = recv(fd, buf + got, size - 1 - got, 0);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			*how = CONTROL_ASK_CLOSED;
			break;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	len = (ssize_t)got;
out:
	close(fd);
	return len;
}

json_t *control_stats_object(const char *path, int timeout_ms, char *err, size_t err_size)
{
	char buf[16384]; /* the alloc object makes the line about 1.5 kB */
	enum control_ask_end how;
	ssize_t len =
	    control_ask(path, "stats\n", '\n', timeout_ms, buf, sizeof(buf), &how, err, err_size);
	if (len < 0)
		return NULL;
	if (how == CONTROL_ASK_TIMED_OUT) {
		snprintf(err, err_size, "%s: no answer within %d ms", path, timeout_ms);
		return NULL;
	}
	if (len == 0) {
		snprintf(err, err_size, "%s: closed without an answer", path);
		return NULL;
	}
	/* a last line without its newline is the answer too */
	json_error_t jerr;
	json_t *obj = json_loadb(buf, strcspn(buf, "\n"), 0, &jerr);
	if (!json_is_object(obj)) {
		snprintf(err, err_size, "%s: stats is not a JSON object: %s", path, jerr.text);
		json_decref(obj);
		obj = NULL;
	}
	return obj;
}

bool control_stats(const char *path, int timeout_ms, struct control_stats *out, char *err,
                   size_t err_size)
{
	out->cache_entries = out->cache_bytes = out->inflight = out->upstream_queries = NAN;
	out->alloc_allocated_bytes = out->alloc_resident_bytes = NAN;
	out->live_bytes = out->alloc_heap_bytes = out->alloc_free_trimmable_bytes = NAN;
	out->alloc_free_fragmented_bytes = out->alloc_unmapped_bytes = NAN;
	out->request_list_current = out->request_list_exceeded = out->request_list_overwritten =
	    NAN;
	out->inflight_max = out->live_bytes_max = NAN;
	out->tcp_open = out->tls_open = out->tcp_conn_bytes = NAN;
	json_t *obj = control_stats_object(path, timeout_ms, err, err_size);
	if (!obj)
		return false;
	out->cache_entries = control_number(obj, "cache_entries");
	out->cache_bytes = control_number(obj, "cache_bytes");
	out->inflight = control_number(obj, "inflight");
	out->upstream_queries = control_number(obj, "upstream_queries");
	out->alloc_allocated_bytes = control_number(obj, "alloc_allocated_bytes");
	out->alloc_resident_bytes = control_number(obj, "alloc_resident_bytes");
	/* memory attribution: live bytes and the allocator's generic figures
	 * (docs/allocator-stats.md) */
	out->live_bytes = control_number(obj, "live_bytes");
	json_t *alloc = json_object_get(obj, "alloc");
	out->alloc_heap_bytes = control_number(alloc, "heap_bytes");
	out->alloc_free_trimmable_bytes = control_number(alloc, "free_trimmable_bytes");
	out->alloc_free_fragmented_bytes = control_number(alloc, "free_fragmented_bytes");
	out->alloc_unmapped_bytes = control_number(alloc, "unmapped_bytes");
	/* the overload policy's request list (docs/resolver.md, "Overload") */
	out->request_list_current = control_number(obj, "request_list_current");
	out->request_list_exceeded = control_number(obj, "request_list_exceeded");
	out->request_list_overwritten = control_number(obj, "request_list_overwritten");
	/* the high-water marks since the previous read (docs/resolver.md): a spike's true peak
	 * falls between two reads */
	out->inflight_max = control_number(obj, "inflight_max");
	out->live_bytes_max = control_number(obj, "live_bytes_max");
	out->tcp_open = control_number(obj, "tcp_open");
	out->tls_open = control_number(obj, "tls_open");
	out->tcp_conn_bytes = control_number(obj, "tcp_conn_bytes");
	json_decref(obj);
	return true;
}

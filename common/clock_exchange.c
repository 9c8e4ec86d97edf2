/* common/clock_exchange.c - the four-timestamp clock exchange: the agent's reply and the measuring
 * side (clock_exchange.h). */
#define _GNU_SOURCE /* memmem, strcasestr */
#include "clock_exchange.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "monotonic.h"

#define CLOCK_IO_TIMEOUT_S 2

int clock_format_reply(char *buf, size_t size, uint64_t t2_ns, uint64_t t3_ns, const char *host)
{
	bool named = host && identifier_valid(host, NULL, 0);
	return snprintf(buf, size, "%" PRIu64 " %" PRIu64 "%s%s\n", t2_ns, t3_ns, named ? " " : "",
	                named ? host : "");
}

/* The host label after the two timestamps, when it is an identifier (the agent's own check made
 * again: the reply is the agent's word, untrusted). */
static void clock_reply_host(const char *body, char *host, size_t host_size)
{
	char word[IDENTIFIER_MAX_LEN + 2] = "";
	host[0] = '\0';
	if (sscanf(body, "%*s %*s %65s", word) == 1 && identifier_valid(word, NULL, 0))
		snprintf(host, host_size, "%s", word);
}

/* Reads one HTTP/1.1 reply with a Content-Length body from fd; the body into body. */
static bool clock_read_reply(int fd, char *body, size_t body_size, char *err, size_t err_size)
{
	char buf[2048];
	size_t len = 0;
	char *end = NULL;
	long content_length = -1;
	for (;;) {
		if (!end && (end = memmem(buf, len, "\r\n\r\n", 4))) {
			buf[end - buf] = '\0';
			if (strncmp(buf, "HTTP/1.1 200", 12) != 0) {
				snprintf(err, err_size, "GET /time: %.40s", buf);
				return false;
			}
			const char *cl = strcasestr(buf, "\r\nContent-Length:");
			content_length = cl ? strtol(cl + 17, NULL, 10) : -1;
			if (content_length < 0 || (size_t)content_length >= body_size) {
				snprintf(err, err_size, "GET /time: no usable Content-Length");
				return false;
			}
			end += 4;
		}
		if (end && (size_t)(buf + len - end) >= (size_t)content_length) {
			memcpy(body, end, (size_t)content_length);
			body[content_length] = '\0';
			return true;
		}
		if (len == sizeof(buf)) {
			snprintf(err, err_size, "GET /time: reply too long");
			return false;
		}
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);
		if (n <= 0) {
			snprintf(err, err_size, "GET /time: %s",
			         n == 0 ? "connection closed" : strerror(errno));
			return false;
		}
		len += (size_t)n;
	}
}

bool clock_measure(const struct sockaddr *addr, socklen_t addr_len, unsigned count,
                   const char *token, struct clock_offset *out, char *err, size_t err_size)
{
	int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct timeval tv = {CLOCK_IO_TIMEOUT_S, 0};
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0 ||
	    connect(fd, addr, addr_len) != 0) {
		snprintf(err, err_size, "connect: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	char request[512];
	int request_len = snprintf(
	    request, sizeof(request), "GET /time HTTP/1.1\r\nHost: agent\r\n%s%s%s\r\n",
	    token ? "Authorization: Bearer " : "", token ? token : "", token ? "\r\n" : "");
	if (request_len <= 0 || (size_t)request_len >= sizeof(request)) {
		snprintf(err, err_size, "the token is too long");
		close(fd);
		return false;
	}
	out->exchanges = 0;
	out->rtt_ms = out->offset_ms = 0;
	out->host[0] = '\0';
	bool ok = true;
	for (unsigned i = 0; ok && i < count; i++) {
		char body[128];
		uint64_t t1 = realtime_ns(), t2, t3;
		ok = write(fd, request, (size_t)request_len) == (ssize_t)request_len;
		if (!ok)
			snprintf(err, err_size, "GET /time: %s", strerror(errno));
		ok = ok && clock_read_reply(fd, body, sizeof(body), err, err_size);
		uint64_t t4 = realtime_ns();
		if (ok && sscanf(body, "%" SCNu64 " %" SCNu64, &t2, &t3) != 2) {
			snprintf(err, err_size, "GET /time: not two timestamps");
			ok = false;
		}
		if (!ok)
			break;
		/* signed: the agent's clock may be behind ours */
		double offset = (((double)t2 - (double)t1) + ((double)t3 - (double)t4)) / 2e6;
		double rtt = ((double)(t4 - t1) - ((double)t3 - (double)t2)) / 1e6;
		if (out->exchanges == 0 || rtt < out->rtt_ms) {
			out->rtt_ms = rtt;
			out->offset_ms = offset;
			clock_reply_host(body, out->host, sizeof(out->host));
		}
		out->exchanges++;
	}
	close(fd);
	return ok && out->exchanges > 0;
}

bool clock_offset_within(const struct clock_offset *off, double bound_ms, char *err,
                         size_t err_size)
{
	if (off->rtt_ms / 2 <= bound_ms)
		return true;
	snprintf(err, err_size,
	         "offset %.3f ms known only within +-%.3f ms (half the best round trip), over the "
	         "bound of %.3f ms",
	         off->offset_ms, off->rtt_ms / 2, bound_ms);
	return false;
}

/* common/clock_exchange.h - how far an agent's clock is from ours: an NTP-style four-timestamp
 * exchange over the agent's HTTP listener (GET /time), the best of several by round trip. The
 * agent answers it, `allocspike-agent clock` and the controller measure with it (docs/agent.md). */
#ifndef ALLOCSPIKE_CLOCK_EXCHANGE_H
#define ALLOCSPIKE_CLOCK_EXCHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "identifier.h"

struct clock_offset {
	double offset_ms; /* the agent's CLOCK_REALTIME minus ours */
	double rtt_ms; /* the round trip of the exchange it comes from, the agent's time excluded */
	unsigned exchanges;
	/* the agent's host label (its --host) as its reply names it; "" when it names none (an
	 * older agent, or a label that is no identifier) */
	char host[IDENTIFIER_MAX_LEN + 1];
};

/* The body of GET /time: the agent's realtime when the request reached the handler (t2) and when
 * the reply left it (t3), in ns, then its host label when host is an identifier (a controller
 * records each row's host by it; docs/agent.md, "The clock"). */
int clock_format_reply(char *buf, size_t size, uint64_t t2_ns, uint64_t t3_ns, const char *host);

/* Makes count exchanges over one connection to addr and keeps the one with the shortest round
 * trip: its offset is wrong by at most half that round trip. token: sent as a bearer token, or
 * NULL. False with the reason in err when the agent cannot be reached or answers nonsense (an
 * agent refusing the token: "GET /time: HTTP/1.1 401 ..."). */
bool clock_measure(const struct sockaddr *addr, socklen_t addr_len, unsigned count,
                   const char *token, struct clock_offset *out, char *err, size_t err_size);

/* True when the offset is known within bound_ms (half the best round trip at most); otherwise
 * false with "offset X ms known only within +-Y ms ..." in err. */
bool clock_offset_within(const struct clock_offset *off, double bound_ms, char *err,
                         size_t err_size);

#endif

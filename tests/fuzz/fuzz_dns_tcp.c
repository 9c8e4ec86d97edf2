/* tests/fuzz/fuzz_dns_tcp.c - libFuzzer target over DNS-over-TCP framing (common/dns_tcp): a byte
 * stream arriving in pieces is cut into messages, and every message written back with
 * dns_tcp_write must come out of the other end of a connection whole and unchanged.
 *
 * Input: byte 0 is the size of the pieces the rest arrives in (0 means 1). */
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "dns_tcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct event_base *fuzz_base;

/* Sends msg through a connected pair with dns_tcp_write and checks that it arrives unchanged. */
static void fuzz_roundtrip(struct bufferevent *pair[2], const uint8_t *msg, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, msg, len);
	dns_tcp_write(pair[0], copy, len);
	event_base_loop(fuzz_base, EVLOOP_NONBLOCK);
	struct evbuffer *in = bufferevent_get_input(pair[1]);
	uint8_t *got;
	size_t got_len;
	if (!dns_tcp_next(in, &got, &got_len) || got_len != len || memcmp(got, copy, len) != 0)
		abort(); /* what one side framed, the other must read back as it was */
	evbuffer_drain(in, got_len);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (!fuzz_base && !(fuzz_base = event_base_new()))
		abort();
	size_t piece = data[0] ? data[0] : 1;
	data++;
	size--;
	struct bufferevent *pair[2];
	if (bufferevent_pair_new(fuzz_base, 0, pair) != 0)
		abort();
	bufferevent_enable(pair[0], EV_READ | EV_WRITE);
	bufferevent_enable(pair[1], EV_READ | EV_WRITE);
	struct evbuffer *in = evbuffer_new();
	if (!in)
		abort();
	size_t off = 0;
	while (off < size) {
		size_t n = size - off < piece ? size - off : piece;
		evbuffer_add(in, data + off, n);
		off += n;
		uint8_t *msg;
		size_t len;
		while (dns_tcp_next(in, &msg, &len)) {
			fuzz_roundtrip(pair, msg, len);
			evbuffer_drain(in, len);
		}
	}
	evbuffer_free(in);
	bufferevent_free(pair[0]);
	bufferevent_free(pair[1]);
	return 0;
}

/* common/dns_tcp.c - DNS over TCP framing on libevent buffers. */
#include "dns_tcp.h"

#include <string.h>

bool dns_tcp_next(struct evbuffer *in, uint8_t **msg, size_t *len)
{
	uint8_t hdr[2];
	if (evbuffer_copyout(in, hdr, 2) < 2)
		return false;
	*len = (size_t)hdr[0] << 8 | hdr[1];
	if (evbuffer_get_length(in) < *len + 2)
		return false;
	evbuffer_drain(in, 2);
	/* evbuffer_pullup of 0 bytes gives NULL, which callers would have to special-case */
	static uint8_t empty[1];
	*msg = *len ? evbuffer_pullup(in, (ev_ssize_t)*len) : empty;
	return true;
}

void dns_tcp_write(struct bufferevent *bev, const uint8_t *wire, size_t len)
{
	/* one write: under TLS (common/tls_bev) each write becomes a record of its own */
	uint8_t frame[2 + UINT16_MAX];
	frame[0] = (uint8_t)(len >> 8);
	frame[1] = (uint8_t)len;
	memcpy(frame + 2, wire, len);
	bufferevent_write(bev, frame, 2 + len);
}

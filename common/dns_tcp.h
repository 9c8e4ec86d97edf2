/* common/dns_tcp.h - DNS over TCP framing (RFC 1035 4.2.2: a 2-byte length before each message) on
 * libevent buffers, for the servers that answer TCP (the hierarchy, the test responder). */
#ifndef ALLOCSPIKE_DNS_TCP_H
#define ALLOCSPIKE_DNS_TCP_H

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when `in` holds a whole message: its length prefix is consumed and *msg points at the
 * message (contiguous; a non-NULL pointer even when it is empty). The caller drains *len bytes
 * once it is done with it. False: wait for more bytes. */
bool dns_tcp_next(struct evbuffer *in, uint8_t **msg, size_t *len);

/* Queues one message with its length prefix. */
void dns_tcp_write(struct bufferevent *bev, const uint8_t *wire, size_t len);

#endif

/* querydata/capture_tcp.c - DNS over TCP in a capture: each client-to-server byte stream put back
 * together from its in-order segments and cut into messages at their 2-byte length prefixes. */
#include "capture_tcp.h"

#include <stdlib.h>
#include <string.h>

#define CAPTURE_TCP_BUCKETS 65536
/* A whole message and its prefix: the most a stream holds before it is cut. */
#define CAPTURE_TCP_BUFFER_MAX (2 + 65535)

struct capture_tcp_flow {
	struct capture_tcp_flow *next;
	uint8_t src[16], dst[16];
	uint16_t src_port, dst_port;
	int family;
	uint32_t next_seq; /* the next stream byte expected */
	bool desynced;     /* a segment went missing: ignored until a new SYN */
	uint64_t syn_ns;   /* the SYN's time until the first message is out; 0 without a SYN */
	uint8_t *buffer;   /* the partial message */
	size_t have, room;
};

bool capture_tcp_init(struct capture_tcp *t)
{
	memset(t, 0, sizeof(*t));
	t->bucket_count = CAPTURE_TCP_BUCKETS;
	t->buckets = calloc(t->bucket_count, sizeof(*t->buckets));
	return t->buckets != NULL;
}

static void capture_tcp_flow_free(struct capture_tcp_flow *f)
{
	free(f->buffer);
	free(f);
}

void capture_tcp_free(struct capture_tcp *t)
{
	for (size_t i = 0; t->buckets && i < t->bucket_count; i++)
		for (struct capture_tcp_flow *f = t->buckets[i], *next; f; f = next) {
			next = f->next;
			capture_tcp_flow_free(f);
		}
	free(t->buckets);
	memset(t, 0, sizeof(*t));
}

static size_t capture_tcp_hash(const struct capture_packet *p)
{
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; i < 16; i++)
		h = (h ^ p->src[i] ^ (uint64_t)p->dst[i] << 8) * 1099511628211ull;
	h = (h ^ p->src_port ^ (uint64_t)p->dst_port << 16) * 1099511628211ull;
	return (size_t)(h ^ h >> 32);
}

static bool capture_tcp_same(const struct capture_tcp_flow *f, const struct capture_packet *p)
{
	return f->family == p->family && f->src_port == p->src_port && f->dst_port == p->dst_port &&
	       memcmp(f->src, p->src, 16) == 0 && memcmp(f->dst, p->dst, 16) == 0;
}

/* The flow's slot in its bucket's chain (*slot is NULL when there is none). */
static struct capture_tcp_flow **capture_tcp_find(struct capture_tcp *t,
                                                  const struct capture_packet *p)
{
	struct capture_tcp_flow **slot = &t->buckets[capture_tcp_hash(p) % t->bucket_count];
	while (*slot && !capture_tcp_same(*slot, p))
		slot = &(*slot)->next;
	return slot;
}

static void capture_tcp_remove(struct capture_tcp *t, struct capture_tcp_flow **slot)
{
	struct capture_tcp_flow *f = *slot;
	*slot = f->next;
	capture_tcp_flow_free(f);
	t->flows--;
}

/* Appends data to the flow's stream and hands over every message it completes. */
static bool capture_tcp_append(struct capture_tcp_flow *f, const struct capture_packet *p,
                               uint64_t frame_ns, const uint8_t *data, size_t len,
                               capture_tcp_message_fn on_message, void *ctx)
{
	while (len > 0) {
		size_t need = 2;
		if (f->have >= 2)
			need = 2 + (size_t)(f->buffer[0] << 8 | f->buffer[1]);
		size_t take = need - f->have < len ? need - f->have : len;
		if (f->have + take > f->room) {
			size_t room = f->room ? f->room * 2 : 512;
			while (room < f->have + take)
				room *= 2;
			if (room > CAPTURE_TCP_BUFFER_MAX)
				room = CAPTURE_TCP_BUFFER_MAX;
			uint8_t *b = realloc(f->buffer, room);
			if (!b)
				return false;
			f->buffer = b;
			f->room = room;
		}
		memcpy(f->buffer + f->have, data, take);
		f->have += take;
		data += take;
		len -= take;
		if (f->have >= 2 && f->have == 2 + (size_t)(f->buffer[0] << 8 | f->buffer[1])) {
			on_message(ctx, p, f->buffer + 2, f->have - 2,
			           f->syn_ns ? f->syn_ns : frame_ns);
			f->syn_ns = 0;
			f->have = 0;
		}
	}
	return true;
}

bool capture_tcp_segment(struct capture_tcp *t, const struct capture_packet *p, uint64_t frame_ns,
                         capture_tcp_message_fn on_message, void *ctx)
{
	struct capture_tcp_flow **slot = capture_tcp_find(t, p);
	struct capture_tcp_flow *f = *slot;
	bool syn = p->tcp_flags & CAPTURE_TCP_SYN;
	if (f && syn) { /* a new connection on the same ports: start over */
		capture_tcp_remove(t, slot);
		f = NULL;
	}
	if (!f) {
		if (p->tcp_flags & (CAPTURE_TCP_FIN | CAPTURE_TCP_RST) && p->payload_len == 0)
			return true;
		f = calloc(1, sizeof(*f));
		if (!f)
			return false;
		memcpy(f->src, p->src, 16);
		memcpy(f->dst, p->dst, 16);
		f->src_port = p->src_port;
		f->dst_port = p->dst_port;
		f->family = p->family;
		f->next_seq = p->tcp_seq + (syn ? 1 : 0);
		f->syn_ns = syn ? frame_ns : 0;
		f->next = *slot;
		*slot = f;
		t->flows++;
	}
	uint32_t seq = p->tcp_seq + (syn ? 1 : 0);
	const uint8_t *data = p->payload;
	size_t len = p->payload_len;
	if (!f->desynced && len > 0) {
		int32_t ahead = (int32_t)(seq - f->next_seq);
		if (ahead > 0 || p->payload_cut) { /* bytes missing before this one, or in it */
			f->desynced = true;
			f->syn_ns = 0; /* the first message is lost with the stream */
			f->have = 0;
			t->gaps++;
		} else {
			size_t old = (size_t) - (int64_t)ahead;
			if (old > 0)
				t->retransmissions++;
			if (old < len) {
				f->next_seq += (uint32_t)(len - old);
				if (!capture_tcp_append(f, p, frame_ns, data + old, len - old,
				                        on_message, ctx))
					return false;
			}
		}
	}
	if (p->tcp_flags & (CAPTURE_TCP_FIN | CAPTURE_TCP_RST))
		capture_tcp_remove(t, capture_tcp_find(t, p));
	return true;
}

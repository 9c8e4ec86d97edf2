/* loadgen/queryfeed.h - a query file too large to hold, streamed: a thread reads it again and
 * again into a ring, a little ahead of the sending. */
#ifndef ALLOCSPIKE_LOADGEN_QUERYFEED_H
#define ALLOCSPIKE_LOADGEN_QUERYFEED_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Queries read ahead of the sending: 16384 * 288 bytes (under 5 MB); at 500k queries per second,
 * 33 ms of sending. Larger than any batch (--batch is at most 1024). */
#define QUERYFEED_RING 16384
/* A query message: header, a name of at most 255 octets, type, class, an OPT record. */
#define QUERYFEED_MESSAGE_MAX (12 + 255 + 4 + 11)

struct queryfeed_entry {
	uint16_t length;
	uint32_t question;
	uint8_t message[QUERYFEED_MESSAGE_MAX];
};

struct queryfeed {
	char *path;
	bool allow_meta;
	uint16_t edns_size;
	struct queryfeed_entry *ring; /* query k is ring[k % QUERYFEED_RING] */
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* under lock, and read without it with atomics */
	uint64_t produced; /* queries [.., produced) are in the ring */
	uint64_t released; /* queries [.., released) are sent: their room may be reused */
	bool closing;
	char failure[1400]; /* "" while the file reads as in the first pass */
};

/* Starts reading path (already read once and found to hold queries) from its start. */
bool queryfeed_start(struct queryfeed *f, const char *path, bool allow_meta, uint16_t edns_size,
                     char *err, size_t err_size);
void queryfeed_stop(struct queryfeed *f);

bool queryfeed_wait(struct queryfeed *f, uint64_t until);
void queryfeed_release(struct queryfeed *f, uint64_t upto);
const char *queryfeed_failure(struct queryfeed *f);

static inline const uint8_t *queryfeed_message(const struct queryfeed *f, uint64_t k, size_t *len)
{
	const struct queryfeed_entry *e = &f->ring[k % QUERYFEED_RING];
	*len = e->length;
	return e->message;
}

static inline uint32_t queryfeed_question(const struct queryfeed *f, uint64_t k)
{
	return f->ring[k % QUERYFEED_RING].question;
}

#endif

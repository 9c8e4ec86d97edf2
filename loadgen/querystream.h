/* loadgen/querystream.h - the query file as ready-made DNS messages, replayed in order and
 * wrapping: held in memory, or streamed from the file when it is larger than the cap. */
#ifndef ALLOCSPIKE_LOADGEN_QUERYSTREAM_H
#define ALLOCSPIKE_LOADGEN_QUERYSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "queryfeed.h"

struct querystream_options {
	bool strict;         /* the first malformed line is fatal */
	bool allow_meta;     /* meta and transfer types are queries too (queryfile_allow_meta) */
	uint16_t edns_size;  /* > 0: an OPT record advertising it */
	unsigned report_max; /* malformed lines reported on stderr; the rest only counted */
	size_t memory_cap;   /* most bytes the file may take held in memory; beyond: streamed */
};

/* Every message is stored with ID 0; the sender puts each query's ID in front of bytes 2.. */
struct querystream {
	uint8_t *data;
	size_t *offset; /* message i is data[offset[i] .. offset[i] + length[i]) */
	uint16_t *length;
	uint32_t *question; /* question_hash of message i */
	size_t count;
	unsigned long malformed; /* lines skipped */
	struct queryfeed *feed;  /* non-NULL: streamed, none of the above arrays held */
	size_t data_len, data_cap, offset_cap, length_cap,
	    question_cap; /* the arrays' fill and room */
};

/* Appends one message (stored with ID 0) to a stream held in memory; false when out of memory.
 * querystream_load and the replay plan (replay.h) fill a stream through it. */
bool querystream_push(struct querystream *qs, const uint8_t *msg, size_t len, uint32_t question);

/* Reads path ("-" is stdin, .xz/.gz by content) through common/queryfile. Malformed lines are
 * reported as "path:line: reason" on stderr (the first report_max of them) and skipped. A file
 * whose messages take more than memory_cap is counted in a first pass and then streamed (a thread
 * reads it again and again, a little ahead of the sending); stdin, which cannot be read twice, is
 * then an error. */
bool querystream_load(struct querystream *qs, const char *path, const struct querystream_options *o,
                      char *err, size_t err_size);
void querystream_free(struct querystream *qs);

/* Queries [.., until) ready to be read (a streamed file may make the sender wait); false when the
 * streaming failed (querystream_failure). */
static inline bool querystream_wait(struct querystream *qs, uint64_t until)
{
	return !qs->feed || queryfeed_wait(qs->feed, until);
}

/* Queries before upto are sent: a streamed file may reuse their room. */
static inline void querystream_release(struct querystream *qs, uint64_t upto)
{
	if (qs->feed)
		queryfeed_release(qs->feed, upto);
}

/* Why streaming failed, or NULL. */
static inline const char *querystream_failure(const struct querystream *qs)
{
	return qs->feed ? queryfeed_failure(qs->feed) : NULL;
}

static inline const uint8_t *querystream_message(const struct querystream *qs, uint64_t k,
                                                 size_t *len)
{
	if (qs->feed)
		return queryfeed_message(qs->feed, k, len);
	size_t i = (size_t)(k % qs->count);
	*len = qs->length[i];
	return qs->data + qs->offset[i];
}

static inline uint32_t querystream_question(const struct querystream *qs, uint64_t k)
{
	if (qs->feed)
		return queryfeed_question(qs->feed, k);
	return qs->question[k % qs->count];
}

#endif

/* loadgen/querystream.h - the query file as ready-made DNS messages, replayed in order and
 * wrapping. */
#ifndef ALLOCSPIKE_LOADGEN_QUERYSTREAM_H
#define ALLOCSPIKE_LOADGEN_QUERYSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every message is stored with ID 0; the sender puts each query's ID in front of bytes 2.. */
struct querystream {
	uint8_t *data;
	size_t *offset; /* message i is data[offset[i] .. offset[i] + length[i]) */
	uint16_t *length;
	size_t count;
	unsigned long malformed; /* lines skipped */
};

/* Reads path ("-" is stdin, .xz/.gz by content) through common/queryfile. Malformed lines are
 * reported as "path:line: reason" on stderr (the first report_max of them) and skipped; with
 * strict the first one is fatal. edns_size > 0 adds an OPT record. */
bool querystream_load(struct querystream *qs, const char *path, bool strict, uint16_t edns_size,
                      unsigned report_max, char *err, size_t err_size);
void querystream_free(struct querystream *qs);

static inline const uint8_t *querystream_message(const struct querystream *qs, uint64_t k,
                                                 size_t *len)
{
	size_t i = (size_t)(k % qs->count);
	*len = qs->length[i];
	return qs->data + qs->offset[i];
}

#endif

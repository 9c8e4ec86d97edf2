/* loadgen/querystream.c - the query file as ready-made DNS messages, replayed in order and
 * wrapping. */
#include "querystream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queryfile.h"

struct report_state {
	unsigned long seen;
	unsigned max;
};

static void querystream_report(void *ctx, const char *path, unsigned long line, const char *reason)
{
	struct report_state *r = ctx;
	if (r->seen++ < r->max)
		fprintf(stderr, "%s:%lu: %s (line skipped)\n", path, line, reason);
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 4096;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

bool querystream_load(struct querystream *qs, const char *path, bool strict, uint16_t edns_size,
                      unsigned report_max, char *err, size_t err_size)
{
	memset(qs, 0, sizeof(*qs));
	struct report_state rs = {.max = strict ? 0 : report_max};
	struct queryfile *qf = queryfile_open(path, strict, querystream_report, &rs, err, err_size);
	if (!qf)
		return false;
	size_t data_cap = 0, data_len = 0, offset_cap = 0, length_cap = 0;
	struct queryfile_entry e;
	int rc;
	uint8_t msg[512];
	while ((rc = queryfile_next(qf, &e)) == 1) {
		size_t len = queryfile_wire_query(e.name, e.name_len, e.qtype, 0, edns_size, msg,
		                                  sizeof(msg));
		if (len == 0) { /* the parser checked the name already; this is only a guard */
			querystream_report(&rs, path, e.line, "name does not fit a query");
			continue;
		}
		if (!grow((void **)&qs->offset, &offset_cap, qs->count + 1, sizeof(*qs->offset)) ||
		    !grow((void **)&qs->length, &length_cap, qs->count + 1, sizeof(*qs->length)) ||
		    !grow((void **)&qs->data, &data_cap, data_len + len, 1)) {
			snprintf(err, err_size, "%s: out of memory after %zu queries", path,
			         qs->count);
			queryfile_close(qf);
			querystream_free(qs);
			return false;
		}
		memcpy(qs->data + data_len, msg, len);
		qs->offset[qs->count] = data_len;
		qs->length[qs->count] = (uint16_t)len;
		qs->count++;
		data_len += len;
	}
	if (rc < 0) {
		snprintf(err, err_size, "%s", queryfile_error(qf));
		queryfile_close(qf);
		querystream_free(qs);
		return false;
	}
	qs->malformed = queryfile_skipped(qf);
	queryfile_close(qf);
	if (rs.seen > rs.max)
		fprintf(stderr, "%s: %lu more malformed lines skipped\n", path, rs.seen - rs.max);
	if (qs->count == 0) {
		snprintf(err, err_size, "%s: no valid query in the file", path);
		querystream_free(qs);
		return false;
	}
	return true;
}

void querystream_free(struct querystream *qs)
{
	free(qs->data);
	free(qs->offset);
	free(qs->length);
	memset(qs, 0, sizeof(*qs));
}

/* loadgen/querystream.c - the query file as ready-made DNS messages, replayed in order and
 * wrapping: held in memory, or streamed from the file when it is larger than the cap. */
#include "querystream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "question.h"
#include "queryfile.h"

/* Bytes one query takes in memory besides its message: offset, length, question hash. */
#define QUERYSTREAM_PER_QUERY (sizeof(size_t) + sizeof(uint16_t) + sizeof(uint32_t))

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

bool querystream_push(struct querystream *qs, const uint8_t *msg, size_t len, uint32_t question)
{
	size_t n = qs->count + 1;
	if (!grow((void **)&qs->offset, &qs->offset_cap, n, sizeof(*qs->offset)) ||
	    !grow((void **)&qs->length, &qs->length_cap, n, sizeof(*qs->length)) ||
	    !grow((void **)&qs->question, &qs->question_cap, n, sizeof(*qs->question)) ||
	    !grow((void **)&qs->data, &qs->data_cap, qs->data_len + len, 1))
		return false;
	memcpy(qs->data + qs->data_len, msg, len);
	qs->offset[qs->count] = qs->data_len;
	qs->length[qs->count] = (uint16_t)len;
	qs->question[qs->count] = question;
	qs->data_len += len;
	qs->count++;
	return true;
}

/* The arrays of a stream held in memory (kept while it fits under the cap). */
static void querystream_drop_arrays(struct querystream *qs)
{
	free(qs->data);
	free(qs->offset);
	free(qs->length);
	free(qs->question);
	qs->data = NULL;
	qs->offset = NULL;
	qs->length = NULL;
	qs->question = NULL;
	qs->data_len = qs->data_cap = qs->offset_cap = qs->length_cap = qs->question_cap = 0;
}

bool querystream_load(struct querystream *qs, const char *path, const struct querystream_options *o,
                      char *err, size_t err_size)
{
	memset(qs, 0, sizeof(*qs));
	struct report_state rs = {.max = o->strict ? 0 : o->report_max};
	struct queryfile *qf =
	    queryfile_open(path, o->strict, querystream_report, &rs, err, err_size);
	if (!qf)
		return false;
	queryfile_allow_meta(qf, o->allow_meta);
	bool held = true; /* false once past the cap: only counted */
	bool is_stdin = strcmp(path, "-") == 0;
	struct queryfile_entry e;
	int rc;
	uint8_t msg[QUERYFEED_MESSAGE_MAX];
	while ((rc = queryfile_next(qf, &e)) == 1) {
		size_t len = queryfile_wire_query(e.name, e.name_len, e.qtype, 0, o->edns_size, msg,
		                                  sizeof(msg));
		uint32_t question;
		if (len == 0 || !question_hash(msg, len, &question)) {
			/* the parser checked the name already; this is only a guard */
			querystream_report(&rs, path, e.line, "name does not fit a query");
			continue;
		}
		if (held &&
		    qs->data_len + len + (qs->count + 1) * QUERYSTREAM_PER_QUERY > o->memory_cap) {
			if (is_stdin) {
				snprintf(
				    err, err_size,
				    "-: the queries take more than the %.1f MiB allowed in memory "
				    "(--queries-memory-mb); stdin cannot be streamed (read twice): "
				    "give the file's path",
				    (double)o->memory_cap / (1 << 20));
				goto fail;
			}
			held = false;
			querystream_drop_arrays(qs);
		}
		if (!held) {
			qs->count++;
		} else if (!querystream_push(qs, msg, len, question)) {
			snprintf(err, err_size, "%s: out of memory after %zu queries", path,
			         qs->count);
			goto fail;
		}
	}
	if (rc < 0) {
		snprintf(err, err_size, "%s", queryfile_error(qf));
		goto fail;
	}
	qs->malformed = queryfile_skipped(qf);
	queryfile_close(qf);
	qf = NULL;
	if (rs.seen > rs.max)
		fprintf(stderr, "%s: %lu more malformed lines skipped\n", path, rs.seen - rs.max);
	if (qs->count == 0) {
		snprintf(err, err_size, "%s: no valid query in the file", path);
		goto fail;
	}
	if (!held) {
		fprintf(stderr,
		        "%s: %zu queries, more than the %.1f MiB allowed in memory "
		        "(--queries-memory-mb): streamed from the file\n",
		        path, qs->count, (double)o->memory_cap / (1 << 20));
		qs->feed = malloc(sizeof(*qs->feed));
		if (!qs->feed) {
			snprintf(err, err_size, "%s: out of memory", path);
			goto fail;
		}
		if (!queryfeed_start(qs->feed, path, o->allow_meta, o->edns_size, err, err_size)) {
			free(qs->feed);
			qs->feed = NULL;
			goto fail;
		}
	}
	return true;
fail:
	if (qf)
		queryfile_close(qf);
	querystream_free(qs);
	return false;
}

void querystream_free(struct querystream *qs)
{
	if (qs->feed) {
		queryfeed_stop(qs->feed);
		free(qs->feed);
	}
	querystream_drop_arrays(qs);
	memset(qs, 0, sizeof(*qs));
}

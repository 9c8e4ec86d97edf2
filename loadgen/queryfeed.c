/* loadgen/queryfeed.c - a query file too large to hold, streamed: a thread reads it again and
 * again into a ring, a little ahead of the sending. */
#include "queryfeed.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "question.h"
#include "queryfile.h"
#include "threads.h"

/* How long either side sleeps before it looks again (the other side does not signal every
 * change: publishing each query would cost a lock per query). */
#define QUERYFEED_POLL_NS 1000000

static void queryfeed_nap(struct queryfeed *f)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += QUERYFEED_POLL_NS;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&f->changed, &f->lock, &ts);
}

static void queryfeed_fail(struct queryfeed *f, const char *what)
{
	pthread_mutex_lock(&f->lock);
	snprintf(f->failure, sizeof(f->failure), "%s", what);
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
}

/* Reads the file round and round, the same queries as the first pass (malformed lines skipped
 * silently: they were reported then), never more than the ring ahead of what was sent. */
static void *queryfeed_main(void *arg)
{
	struct queryfeed *f = arg;
	struct queryfile *qf = NULL;
	uint64_t k = 0, pass_start = 0;
	char err[1024];
	for (;;) {
		pthread_mutex_lock(&f->lock);
		__atomic_store_n(&f->produced, k, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&f->changed);
		while (!f->closing &&
		       k >= __atomic_load_n(&f->released, __ATOMIC_ACQUIRE) + QUERYFEED_RING)
			queryfeed_nap(f);
		bool closing = f->closing;
		pthread_mutex_unlock(&f->lock);
		if (closing)
			break;
		/* fill the room there is, then publish */
		uint64_t room = __atomic_load_n(&f->released, __ATOMIC_ACQUIRE) + QUERYFEED_RING;
		while (k < room) {
			if (!qf) {
				qf = queryfile_open(f->path, false, NULL, NULL, err, sizeof(err));
				if (!qf) {
					queryfeed_fail(f, err);
					return NULL;
				}
				queryfile_allow_meta(qf, f->allow_meta);
				pass_start = k;
			}
			struct queryfile_entry e;
			int rc = queryfile_next(qf, &e);
			if (rc < 0) {
				queryfeed_fail(f, queryfile_error(qf));
				queryfile_close(qf);
				return NULL;
			}
			if (rc == 0) {
				queryfile_close(qf);
				qf = NULL;
				if (k == pass_start) {
					snprintf(err, sizeof(err),
					         "%s: no query left on reading it again", f->path);
					queryfeed_fail(f, err);
					return NULL;
				}
				continue;
			}
			struct queryfeed_entry *slot = &f->ring[k % QUERYFEED_RING];
			size_t len =
			    queryfile_wire_query(e.name, e.name_len, e.qtype, 0, f->edns_size,
			                         slot->message, sizeof(slot->message));
			if (len == 0 || !question_hash(slot->message, len, &slot->question))
				continue; /* skipped in the first pass as well */
			slot->length = (uint16_t)len;
			k++;
		}
	}
	if (qf)
		queryfile_close(qf);
	return NULL;
}

bool queryfeed_start(struct queryfeed *f, const char *path, bool allow_meta, uint16_t edns_size,
                     char *err, size_t err_size)
{
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	f->allow_meta = allow_meta;
	f->edns_size = edns_size;
	f->ring = calloc(QUERYFEED_RING, sizeof(*f->ring));
	if (!f->path || !f->ring) {
		snprintf(err, err_size, "%s: out of memory", path);
		queryfeed_stop(f);
		return false;
	}
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->changed, NULL);
	int rc = threads_start(&f->thread, queryfeed_main, f);
	if (rc != 0) {
		snprintf(err, err_size, "query reader thread: %s", strerror(rc));
		queryfeed_stop(f);
		return false;
	}
	f->started = true;
	return true;
}

void queryfeed_stop(struct queryfeed *f)
{
	if (f->started) {
		pthread_mutex_lock(&f->lock);
		f->closing = true;
		pthread_cond_broadcast(&f->changed);
		pthread_mutex_unlock(&f->lock);
		pthread_join(f->thread, NULL);
		pthread_mutex_destroy(&f->lock);
		pthread_cond_destroy(&f->changed);
	}
	free(f->path);
	free(f->ring);
	f->path = NULL;
	f->ring = NULL;
	f->started = false;
}

bool queryfeed_wait(struct queryfeed *f, uint64_t until)
{
	if (__atomic_load_n(&f->produced, __ATOMIC_ACQUIRE) >= until)
		return true;
	pthread_mutex_lock(&f->lock);
	while (__atomic_load_n(&f->produced, __ATOMIC_ACQUIRE) < until && !f->failure[0])
		queryfeed_nap(f);
	bool ok = !f->failure[0];
	pthread_mutex_unlock(&f->lock);
	return ok;
}

void queryfeed_release(struct queryfeed *f, uint64_t upto)
{
	__atomic_store_n(&f->released, upto, __ATOMIC_RELEASE);
}

const char *queryfeed_failure(struct queryfeed *f)
{
	pthread_mutex_lock(&f->lock);
	bool failed = f->failure[0] != '\0';
	pthread_mutex_unlock(&f->lock);
	return failed ? f->failure : NULL;
}

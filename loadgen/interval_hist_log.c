/* loadgen/interval_hist_log.c - interval_hist.csv of a shard: each interval's latency buckets. */
#include "interval_hist_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"

static const char interval_hist_header[] = "variant,phase,spike,t_s,upper_us,count\n";

bool interval_hist_log_open(struct interval_hist_log *log, const char *dir, char *err,
                            size_t err_size)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	if (!dir)
		return true;
	snprintf(log->path, sizeof(log->path), "%s/interval_hist.csv", dir);
	int fd = file_open_for_writing(log->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
	size_t n = strlen(interval_hist_header);
	if (fd < 0 || write(fd, interval_hist_header, n) != (ssize_t)n) {
		snprintf(err, err_size, "%s: %s", log->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	log->fd = fd;
	return true;
}

static void interval_hist_log_printf(struct interval_hist_log *log, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(log->text ? log->text + log->len : NULL,
		                  log->text ? log->cap - log->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (log->text && log->len + (size_t)n < log->cap) {
			log->len += (size_t)n;
			return;
		}
		size_t cap = log->cap ? log->cap * 2 : 16384;
		while (cap <= log->len + (size_t)n)
			cap *= 2;
		char *text = realloc(log->text, cap);
		if (!text) {
			log->failed = true; /* a row lost: the fragment is incomplete */
			return;
		}
		log->text = text;
		log->cap = cap;
	}
}

void interval_hist_log_rows(struct interval_hist_log *log, double t_s, const char *variant,
                            const char *phase, unsigned spike, const struct latency_hist *h)
{
	if (log->fd < 0)
		return;
	for (unsigned i = 0; i < LATENCY_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		uint64_t low, high;
		latency_hist_bucket_range(i, &low, &high);
		interval_hist_log_printf(log, "%s,%s,%u,%.3f,%.3f,%llu\n", variant, phase, spike,
		                         t_s, (double)high / 1e3,
		                         (unsigned long long)h->buckets[i]);
	}
}

void interval_hist_log_flush(struct interval_hist_log *log)
{
	if (log->fd < 0 || log->len == 0)
		return;
	ssize_t w = write(log->fd, log->text, log->len);
	if (w != (ssize_t)log->len) {
		fprintf(stderr, "allocspike-loadgen: %s: %s; no more interval histograms\n",
		        log->path, w < 0 ? strerror(errno) : "short write");
		log->failed = true;
		close(log->fd);
		log->fd = -1;
	}
	log->len = 0;
}

void interval_hist_log_close(struct interval_hist_log *log)
{
	if (log->fd >= 0 && close(log->fd) != 0)
		log->failed = true;
	log->fd = -1;
	free(log->text);
	log->text = NULL;
}

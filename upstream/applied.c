/* upstream/applied.c - the applied-loss/delay log and its per-second summary, for the run folder.
 */
#include "applied.h"

#include <errno.h>
#include <fcntl.h>
#include <ldns/ldns.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"

static FILE *applied_open_file(const char *path, const char *header, char *err, size_t err_size)
{
	/* never through a link planted in the run folder (a fresh file, or the old one emptied) */
	int fd = file_open_for_writing(path, O_CREAT | O_TRUNC);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	fputs(header, f);
	return f;
}

static void applied_reset(struct applied *a)
{
	for (int t = 0; t < TIER_COUNT; t++) {
		a->tier[t].queries = a->tier[t].dropped = 0;
		latency_hist_init(&a->tier[t].delay);
	}
}

bool applied_open(struct applied *a, const char *log_path, const char *summary_path, double start_s,
                  char *err, size_t err_size)
{
	memset(a, 0, sizeof(*a));
	a->start_s = start_s;
	a->second = -1;
	applied_reset(a);
	if (log_path &&
	    !(a->log = applied_open_file(
	          log_path, "t_s\tsource\tserver\ttier\tqname\tqtype\tattempt\tverdict\tdelay_ms\n",
	          err, err_size)))
		return false;
	if (summary_path &&
	    !(a->summary = applied_open_file(summary_path,
	                                     "t_s\ttier\tqueries\tanswered\tdropped\tloss\t"
	                                     "delay_p50_ms\tdelay_p99_ms\tdelay_mean_ms\n",
	                                     err, err_size)))
		return false;
	return true;
}

static void applied_write_second(struct applied *a)
{
	if (!a->summary || a->second < 0)
		return;
	for (int t = 0; t < TIER_COUNT; t++) {
		struct applied_second *s = &a->tier[t];
		if (!s->queries)
			continue;
		uint64_t answered = s->queries - s->dropped;
		double p50 = answered ? latency_hist_quantile(&s->delay, 0.5) / 1e6 : 0;
		double p99 = answered ? latency_hist_quantile(&s->delay, 0.99) / 1e6 : 0;
		fprintf(a->summary, "%ld\t%s\t%llu\t%llu\t%llu\t%.4f\t%.1f\t%.1f\t%.1f\n",
		        a->second, tier_names[t], (unsigned long long)s->queries,
		        (unsigned long long)answered, (unsigned long long)s->dropped,
		        (double)s->dropped / (double)s->queries, p50, p99,
		        latency_hist_mean(&s->delay) / 1e6);
	}
	applied_reset(a);
}

void applied_note(struct applied *a, double now_s, uint32_t source, uint16_t port,
                  const struct server *s, const char *qname, uint16_t qtype,
                  const struct netem_verdict *v)
{
	if (a->log) {
		char src[16], srv[16], type[32];
		const ldns_rr_descriptor *d = ldns_rr_descript(qtype);
		if (d && d->_name)
			snprintf(type, sizeof(type), "%s", d->_name);
		else
			snprintf(type, sizeof(type), "TYPE%u", qtype);
		fprintf(a->log, "%.3f\t%s:%u\t%s\t%s\t%s\t%s\t%u\t%s\t%u\n", now_s - a->start_s,
		        servers_addr_text(source, src), port, servers_addr_text(s->addr, srv),
		        tier_names[s->tier], qname, type, v->attempt, v->drop ? "drop" : "answer",
		        v->delay_ms);
	}
	if (!a->summary)
		return;
	long second = (long)(now_s - a->start_s);
	if (second != a->second) {
		applied_write_second(a);
		a->second = second;
	}
	struct applied_second *t = &a->tier[s->tier];
	t->queries++;
	if (v->drop)
		t->dropped++;
	else
		latency_hist_add(&t->delay, (uint64_t)v->delay_ms * 1000000u);
}

void applied_flush(struct applied *a, double now_s)
{
	if (a->summary && a->second >= 0 && (long)(now_s - a->start_s) > a->second) {
		applied_write_second(a);
		a->second = -1;
	}
	if (a->log)
		fflush(a->log);
	if (a->summary)
		fflush(a->summary);
}

void applied_close(struct applied *a, double now_s)
{
	applied_write_second(a);
	if (a->log)
		fclose(a->log);
	if (a->summary)
		fclose(a->summary);
	a->log = a->summary = NULL;
}

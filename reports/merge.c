/* reports/merge.c - allocspike-report merge: one run folder from the fragments of sharded
 * generators. Counts are summed, latency histograms added bucket by bucket and the quantiles taken
 * from the sums: a quantile of several shards is never an average of theirs. */
#include "merge.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_file.h"
#include "latency_hist.h"
#include "runfolder_reader.h"
#include "runfolder_writer.h"
#include "terminal_text.h"

enum { MERGE_OK = 0, MERGE_FAILED = 1, MERGE_BAD_INPUT = 2 };

/* Most shards merged at once: each shard's generator becomes a harness row of the merged run
 * (_loadgen_I), and a run folder holds at most RUNFOLDER_MAX_HARNESS (65) of them, one left for
 * _upstream. */
#define MERGE_MAX_SHARDS (RUNFOLDER_MAX_HARNESS - 1)

struct merge_fragment {
	const char *dir;
	json_t *doc; /* fragment.json */
	int shard, shards;
	struct runfolder rf;
};

/* One timeline row of the merged run: interval index x target. */
struct merge_cell {
	bool present;
	double t_s;
	char phase[16];
	int spike;
	double v[TIMELINE_COLUMN_COUNT];
};

/* One phase instance of one target, summed over the shards. */
struct merge_instance {
	const char *target;
	char phase[16];
	int spike;
	uint64_t
	    counts[PHASES_COL_rcode_other + 1]; /* sent .. rcode_other, by enum phases_column */
	uint64_t max_ns;
	struct latency_hist *latency;
};

struct merge {
	struct merge_fragment *frags; /* in shard order once checked */
	size_t n_frags;
	double interval_s;
	char **targets; /* merged names (a shard's _loadgen is _loadgen_I) */
	size_t n_targets;
	struct merge_cell *cells; /* n_intervals x n_targets */
	size_t n_intervals;
	struct merge_instance *instances;
	size_t n_instances;
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("allocspike-report merge: ", stderr);
	terminal_text_fputs(msg, stderr); /* paths and names come from the fragments */
	fputc('\n', stderr);
}

static void merge_usage(FILE *f)
{
	fputs("usage: allocspike-report merge --out RUN | --into RUN FRAGMENT...\n"
	      "  one run folder RUN (new or empty; with --into, a run folder that has no\n"
	      "  generator's files yet, its events added to, its run.json kept) from the run\n"
	      "  folders of the shards of one\n"
	      "  stream (allocspike-loadgen --shard I/N --out FRAGMENT): counts summed per\n"
	      "  interval, latency histograms added and their quantiles computed from the sums\n"
	      "  (docs/run-folder.md, \"Fragments and merge\"). Exit 1 when a shard did not\n"
	      "  finish, 2 when the fragments are not the N shards of one stream\n",
	      f);
}

/* A shard's own rows and events as the merged run names them: its generator is _loadgen_I. */
static const char *merge_name(const char *name, int shard, char *buf, size_t size)
{
	if (strcmp(name, "_loadgen") != 0)
		return name;
	snprintf(buf, size, "_loadgen_%d", shard);
	return buf;
}

static bool merge_load_doc(struct merge_fragment *f)
{
	char path[4224], err[1024];
	snprintf(path, sizeof(path), "%s/fragment.json", f->dir);
	f->doc = json_file_load(path, err, sizeof(err));
	if (!f->doc) {
		say("%s: not a shard's run folder (allocspike-loadgen --shard I/N --out): %s",
		    f->dir, err);
		return false;
	}
	json_int_t shard = json_integer_value(json_object_get(f->doc, "shard"));
	json_int_t shards = json_integer_value(json_object_get(f->doc, "shards"));
	if (json_integer_value(json_object_get(f->doc, "format")) != 1 || shards < 1 ||
	    shards > MERGE_MAX_SHARDS || shard < 1 || shard > shards ||
	    !json_is_object(json_object_get(f->doc, "stream")) ||
	    !json_is_string(json_object_get(f->doc, "start_realtime")) ||
	    !json_is_string(json_object_get(f->doc, "status"))) {
		say("%s: not a fragment.json of format 1 (format, shard, shards up to %d, status, "
		    "start_realtime, stream)",
		    path, MERGE_MAX_SHARDS);
		return false;
	}
	f->shard = (int)shard;
	f->shards = (int)shards;
	return true;
}

/* The first key of the stream identity on which a and b differ, or NULL. */
static const char *merge_stream_difference(const json_t *a, const json_t *b)
{
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)a, key,
	                    value) if (!json_equal(value, json_object_get(b, key))) return key;
	json_object_foreach((json_t *)b, key, value) if (!json_object_get(a, key)) return key;
	return NULL;
}

static int merge_by_shard(const void *a, const void *b)
{
	return ((const struct merge_fragment *)a)->shard -
	       ((const struct merge_fragment *)b)->shard;
}

/* The fragments are the N shards of one stream, each once, each finished: else the reason, naming
 * the fragment or the shard, and the exit status. */
static int merge_check(struct merge *m)
{
	const struct merge_fragment *first = &m->frags[0];
	const json_t *stream = json_object_get(first->doc, "stream");
	const char *start = json_string_value(json_object_get(first->doc, "start_realtime"));
	for (size_t i = 1; i < m->n_frags; i++) {
		const struct merge_fragment *f = &m->frags[i];
		if (f->shards != first->shards) {
			say("%s is shard %d of %d, %s shard %d of %d: not shards of one stream",
			    f->dir, f->shard, f->shards, first->dir, first->shard, first->shards);
			return MERGE_BAD_INPUT;
		}
		const char *key =
		    merge_stream_difference(stream, json_object_get(f->doc, "stream"));
		if (key) {
			say("%s and %s differ in \"%s\" (fragment.json stream): not shards of one "
			    "stream",
			    f->dir, first->dir, key);
			return MERGE_BAD_INPUT;
		}
		const char *f_start = json_string_value(json_object_get(f->doc, "start_realtime"));
		if (strcmp(f_start, start) != 0) {
			say("%s started its schedule at %s, %s at %s: shards must start together "
			    "(allocspike-loadgen --start-at)",
			    f->dir, f_start, first->dir, start);
			return MERGE_BAD_INPUT;
		}
	}
	qsort(m->frags, m->n_frags, sizeof(*m->frags), merge_by_shard);
	for (size_t i = 1; i < m->n_frags; i++)
		if (m->frags[i].shard == m->frags[i - 1].shard) {
			say("%s and %s are both shard %d of %d", m->frags[i - 1].dir,
			    m->frags[i].dir, m->frags[i].shard, m->frags[i].shards);
			return MERGE_BAD_INPUT;
		}
	for (int shard = 1, i = 0; shard <= first->shards; shard++) {
		if ((size_t)i < m->n_frags && m->frags[i].shard == shard) {
			i++;
			continue;
		}
		say("shard %d of %d is missing: give the run folders of all %d shards", shard,
		    first->shards, first->shards);
		return MERGE_BAD_INPUT;
	}
	for (size_t i = 0; i < m->n_frags; i++) {
		const struct merge_fragment *f = &m->frags[i];
		const char *status = json_string_value(json_object_get(f->doc, "status"));
		json_t *code = json_object_get(f->doc, "exit_code");
		if (strcmp(status, "completed") != 0 || json_integer_value(code) != 0) {
			say("shard %d of %d (%s) did not finish: status %s%s%s; the merged run "
			    "would "
			    "miss its queries",
			    f->shard, f->shards, f->dir, status,
			    strcmp(status, "running") == 0
			        ? " (its generator was killed, or still runs)"
			        : "",
			    code && json_integer_value(code) != 0 ? ", exit status not 0" : "");
			return MERGE_FAILED;
		}
	}
	return MERGE_OK;
}

static int merge_target(struct merge *m, const char *name)
{
	for (size_t i = 0; i < m->n_targets; i++)
		if (strcmp(m->targets[i], name) == 0)
			return (int)i;
	char **t = realloc(m->targets, (m->n_targets + 1) * sizeof(*t));
	if (!t)
		return -1;
	m->targets = t;
	if (!(t[m->n_targets] = strdup(name)))
		return -1;
	return (int)m->n_targets++;
}

/* Counts over the interval are summed; the interval's latency quantiles are computed afterwards
 * (merge_interval_latency), never averaged; process and resolver columns are samples of the same
 * process, taken from the lowest shard that has them. */
static void merge_cell_add(struct merge_cell *c, const struct runfolder_row *row)
{
	static const enum timeline_column summed[] = {
	    TIMELINE_COL_offered,  TIMELINE_COL_sent,        TIMELINE_COL_answered,
	    TIMELINE_COL_timeouts, TIMELINE_COL_noerror,     TIMELINE_COL_nxdomain,
	    TIMELINE_COL_servfail, TIMELINE_COL_rcode_other, TIMELINE_COL_late_or_foreign};
	if (!c->present) {
		c->present = true;
		for (int col = 0; col < TIMELINE_COLUMN_COUNT; col++)
			c->v[col] = NAN;
		snprintf(c->phase, sizeof(c->phase), "%s", row->phase);
		c->spike = row->spike;
		c->t_s = row->t_s;
	}
	if (row->t_s > c->t_s) /* a shard's last, partial interval ends earlier */
		c->t_s = row->t_s;
	bool is_summed[TIMELINE_COLUMN_COUNT] = {false};
	for (size_t i = 0; i < sizeof(summed) / sizeof(*summed); i++) {
		enum timeline_column col = summed[i];
		is_summed[col] = true;
		if (!isnan(row->v[col]))
			c->v[col] = isnan(c->v[col]) ? row->v[col] : c->v[col] + row->v[col];
	}
	for (int col = TIMELINE_COL_offered; col < TIMELINE_COLUMN_COUNT; col++) {
		bool latency = col == TIMELINE_COL_lat_p50_ms || col == TIMELINE_COL_lat_p90_ms ||
		               col == TIMELINE_COL_lat_p99_ms;
		if (!is_summed[col] && !latency && isnan(c->v[col]))
			c->v[col] = row->v[col];
	}
}

static bool merge_timeline(struct merge *m)
{
	for (size_t f = 0; f < m->n_frags; f++) { /* the size: highest interval, names */
		const struct runfolder *rf = &m->frags[f].rf;
		for (size_t t = 0; t < rf->n_targets; t++) {
			char buf[80];
			if (merge_target(m, merge_name(rf->targets[t], m->frags[f].shard, buf,
			                               sizeof(buf))) < 0)
				return false;
		}
		for (size_t r = 0; r < rf->n_rows; r++) {
			double idx = ceil(rf->rows[r].t_s / m->interval_s - 1e-6);
			if (idx + 1 > (double)m->n_intervals)
				m->n_intervals = idx < 0 ? 1 : (size_t)idx + 1;
		}
	}
	m->cells = calloc(m->n_intervals * m->n_targets + 1, sizeof(*m->cells));
	if (!m->cells)
		return false;
	for (size_t f = 0; f < m->n_frags; f++) {
		const struct runfolder *rf = &m->frags[f].rf;
		for (size_t r = 0; r < rf->n_rows; r++) {
			const struct runfolder_row *row = &rf->rows[r];
			double idx = ceil(row->t_s / m->interval_s - 1e-6);
			char buf[80];
			int t = merge_target(m, merge_name(rf->targets[row->target],
			                                   m->frags[f].shard, buf, sizeof(buf)));
			if (t < 0)
				return false;
			merge_cell_add(&m->cells[(idx < 0 ? 0 : (size_t)idx) * m->n_targets + t],
			               row);
		}
	}
	return true;
}

/* The merged timeline's latency quantiles, from each interval's histograms added over the shards
 * (interval_hist.csv: rows in time order, each interval's t_s its timeline row's). Without that
 * file in every fragment the cells stay empty: an average of the shards' quantiles is none. */
static bool merge_interval_latency(struct merge *m)
{
	for (size_t f = 0; f < m->n_frags; f++)
		if (!m->frags[f].rf.has_interval_hist)
			return true;
	struct latency_hist *h = calloc(m->n_targets + 1, sizeof(*h));
	size_t *cursor = calloc(m->n_frags, sizeof(*cursor));
	if (!h || !cursor) {
		free(h);
		free(cursor);
		return false;
	}
	bool ok = true;
	for (size_t i = 0; ok && i < m->n_intervals; i++) {
		memset(h, 0, m->n_targets * sizeof(*h));
		for (size_t f = 0; f < m->n_frags; f++) {
			const struct runfolder *rf = &m->frags[f].rf;
			for (; cursor[f] < rf->n_interval_hist_rows; cursor[f]++) {
				const struct runfolder_instance_row *row =
				    &rf->interval_hist_rows[cursor[f]];
				double idx = ceil(row->v[IHIST_COL_t_s] / m->interval_s - 1e-6);
				if (idx > (double)i)
					break;
				int t = merge_target(m, rf->targets[row->target]);
				if (t < 0) {
					ok = false;
					break;
				}
				uint64_t upper_ns =
				    (uint64_t)llround(row->v[IHIST_COL_upper_us] * 1e3);
				uint64_t count = (uint64_t)row->v[IHIST_COL_count];
				h[t].buckets[latency_hist_bucket(upper_ns - 1)] += count;
				h[t].count += count;
			}
		}
		for (size_t t = 0; t < m->n_targets; t++) {
			struct merge_cell *c = &m->cells[i * m->n_targets + t];
			if (!c->present || runfolder_is_harness(m->targets[t]))
				continue;
			static const struct {
				enum timeline_column col;
				double q;
			} quantiles[] = {{TIMELINE_COL_lat_p50_ms, 0.5},
			                 {TIMELINE_COL_lat_p90_ms, 0.9},
			                 {TIMELINE_COL_lat_p99_ms, 0.99}};
			for (size_t q = 0; q < sizeof(quantiles) / sizeof(*quantiles); q++) {
				double ns = latency_hist_quantile(&h[t], quantiles[q].q);
				c->v[quantiles[q].col] = ns < 0 ? NAN : ns / 1e6;
			}
		}
	}
	free(h);
	free(cursor);
	return ok;
}

static struct merge_instance *merge_instance_of(struct merge *m, const char *target,
                                                const char *phase, int spike)
{
	for (size_t i = 0; i < m->n_instances; i++)
		if (m->instances[i].spike == spike && strcmp(m->instances[i].target, target) == 0 &&
		    strcmp(m->instances[i].phase, phase) == 0)
			return &m->instances[i];
	struct merge_instance *in =
	    realloc(m->instances, (m->n_instances + 1) * sizeof(*m->instances));
	if (!in)
		return NULL;
	m->instances = in;
	struct merge_instance *n = &in[m->n_instances];
	*n = (struct merge_instance){.spike = spike, .latency = calloc(1, sizeof(*n->latency))};
	if (!n->latency)
		return NULL;
	int t = merge_target(m, target);
	if (t < 0)
		return NULL;
	n->target = m->targets[t];
	snprintf(n->phase, sizeof(n->phase), "%s", phase);
	m->n_instances++;
	return n;
}

/* phases.csv's counts summed, latency_hist.csv's buckets added (each bucket found again from its
 * upper edge: its last nanosecond lies in it), the slowest answer the slowest of all. */
static bool merge_instances(struct merge *m)
{
	for (size_t f = 0; f < m->n_frags; f++) {
		const struct runfolder *rf = &m->frags[f].rf;
		for (size_t r = 0; r < rf->n_phase_rows; r++) {
			const struct runfolder_instance_row *row = &rf->phase_rows[r];
			struct merge_instance *in =
			    merge_instance_of(m, rf->targets[row->target], row->phase, row->spike);
			if (!in)
				return false;
			for (int col = 0; col <= PHASES_COL_rcode_other; col++)
				if (!isnan(row->v[col]))
					in->counts[col] += (uint64_t)row->v[col];
			double max_ms = row->v[PHASES_COL_lat_max_ms];
			if (!isnan(max_ms) && (uint64_t)llround(max_ms * 1e6) > in->max_ns)
				in->max_ns = (uint64_t)llround(max_ms * 1e6);
		}
		for (size_t r = 0; r < rf->n_hist_rows; r++) {
			const struct runfolder_instance_row *row = &rf->hist_rows[r];
			struct merge_instance *in =
			    merge_instance_of(m, rf->targets[row->target], row->phase, row->spike);
			if (!in)
				return false;
			uint64_t upper_ns = (uint64_t)llround(row->v[HIST_COL_upper_us] * 1e3);
			uint64_t count = (uint64_t)row->v[HIST_COL_count];
			in->latency->buckets[latency_hist_bucket(upper_ns - 1)] += count;
			in->latency->count += count;
		}
	}
	return true;
}

/* Every shard's events, in time order (ties: shard order), each with its shard; the schedule's
 * phase events once (the first shard's), since every shard runs the same schedule. */
struct merge_event {
	double t_s;
	size_t order;
	int shard;
	const struct runfolder_event *e;
};

static int merge_event_cmp(const void *a, const void *b)
{
	const struct merge_event *x = a, *y = b;
	if (x->t_s != y->t_s)
		return x->t_s < y->t_s ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool merge_events(struct merge *m, struct runfolder_writer *w)
{
	size_t n = 0;
	for (size_t f = 0; f < m->n_frags; f++)
		n += m->frags[f].rf.n_events;
	struct merge_event *all = calloc(n + 1, sizeof(*all));
	if (!all)
		return false;
	n = 0;
	for (size_t f = 0; f < m->n_frags; f++)
		for (size_t i = 0; i < m->frags[f].rf.n_events; i++) {
			const struct runfolder_event *e = &m->frags[f].rf.events[i];
			if (f > 0 && strcmp(e->event, "phase") == 0)
				continue;
			all[n] = (struct merge_event){e->t_s, n, m->frags[f].shard, e};
			n++;
		}
	qsort(all, n, sizeof(*all), merge_event_cmp);
	for (size_t i = 0; i < n; i++) {
		json_t *extra = json_deep_copy(all[i].e->obj);
		json_object_del(extra, "t_s");
		json_object_del(extra, "variant");
		json_object_del(extra, "event");
		json_object_set_new(extra, "shard", json_integer(all[i].shard));
		char buf[80];
		runfolder_writer_event(
		    w, all[i].t_s, merge_name(all[i].e->variant, all[i].shard, buf, sizeof(buf)),
		    all[i].e->event, extra);
	}
	free(all);
	return true;
}

static void merge_write_rows(struct merge *m, struct runfolder_writer *w)
{
	for (size_t i = 0; i < m->n_intervals; i++) {
		for (size_t t = 0; t < m->n_targets; t++) {
			const struct merge_cell *c = &m->cells[i * m->n_targets + t];
			if (!c->present)
				continue;
			struct timeline_row row = {.t_s = c->t_s,
			                           .variant = m->targets[t],
			                           .phase = c->phase,
			                           .spike = (unsigned)c->spike};
			memcpy(row.cells, c->v, sizeof(row.cells));
			runfolder_writer_row(w, &row);
		}
		runfolder_writer_flush(w);
	}
}

static void merge_write_instances(struct merge *m, struct runfolder_writer *w)
{
	const char **variants = calloc(m->n_targets + 1, sizeof(*variants));
	if (!variants)
		return;
	for (size_t t = 0; t < m->n_targets; t++)
		variants[t] = m->targets[t];
	struct runfolder_phases ph;
	runfolder_phases_begin(w, &ph, variants, (unsigned)m->n_targets);
	for (size_t i = 0; i < m->n_instances; i++) {
		const struct merge_instance *in = &m->instances[i];
		struct phase_row row = {.variant = in->target,
		                        .phase = in->phase,
		                        .spike = (unsigned)in->spike,
		                        .sent = in->counts[PHASES_COL_sent],
		                        .answered = in->counts[PHASES_COL_answered],
		                        .timeouts = in->counts[PHASES_COL_timeouts],
		                        .pending = in->counts[PHASES_COL_pending],
		                        .late_or_foreign = in->counts[PHASES_COL_late_or_foreign],
		                        .noerror = in->counts[PHASES_COL_noerror],
		                        .nxdomain = in->counts[PHASES_COL_nxdomain],
		                        .servfail = in->counts[PHASES_COL_servfail],
		                        .rcode_other = in->counts[PHASES_COL_rcode_other],
		                        .max_ns = in->max_ns,
		                        .latency = in->latency};
		runfolder_phases_row(&ph, &row);
	}
	runfolder_phases_commit(&ph);
	free(variants);
}

/* run.json of the merged run: the scenario's from the first shard when it wrote one, else the
 * little the fragments say; either way with the shards it came from. */
static bool merge_run_json(struct merge *m, const char *out)
{
	char path[4224], err[1024];
	snprintf(path, sizeof(path), "%s/run.json", m->frags[0].dir);
	struct stat st;
	json_t *run = stat(path, &st) == 0 ? json_file_load(path, err, sizeof(err)) : NULL;
	const json_t *stream = json_object_get(m->frags[0].doc, "stream");
	if (!json_is_object(run)) {
		json_decref(run);
		json_t *variants = json_array();
		for (size_t t = 0; t < m->n_targets; t++)
			if (!runfolder_is_harness(m->targets[t]))
				json_array_append_new(variants,
				                      json_pack("{s:s}", "name", m->targets[t]));
		run = json_pack("{s:i,s:s,s:s,s:{s:O?,s:O},s:o}", "format", 1, "status",
		                "completed", "scenario", "loadgen-shards", "parameters", "schedule",
		                json_object_get(stream, "schedule"), "interval_ms",
		                json_object_get(stream, "interval_ms"), "variants", variants);
	}
	json_t *shards = json_array();
	for (size_t f = 0; f < m->n_frags; f++)
		json_array_append_new(
		    shards, json_pack("{s:i,s:s,s:O?}", "shard", m->frags[f].shard, "fragment",
		                      m->frags[f].dir, "first_send_realtime",
		                      json_object_get(m->frags[f].doc, "first_send_realtime")));
	json_object_set_new(run, "shards", shards);
	json_object_set(run, "start_realtime", json_object_get(m->frags[0].doc, "start_realtime"));
	snprintf(path, sizeof(path), "%s/run.json", out);
	bool ok = json_file_write_atomic(path, run, err, sizeof(err));
	if (!ok)
		say("%s", err);
	json_decref(run);
	return ok;
}

/* Whether dir/name holds a row past its header line (a header alone is what the run folder's
 * writer puts in a timeline.csv it opens for events). */
static bool merge_file_has_rows(const char *dir, const char *name)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "re");
	int c, lines = 0;
	while (f && lines < 2 && (c = getc(f)) != EOF)
		lines += c == '\n';
	bool rows = f && (lines >= 2 || (lines == 1 && !feof(f)));
	if (f)
		fclose(f);
	return rows;
}

/* --out: a new folder or an empty one, so no earlier run's rows mix with the merged ones; --into:
 * a run folder whose generator files have no rows yet (a run across hosts: its placement's and
 * collector's events, its agents' reads). */
static bool merge_out_empty(const char *out, bool into)
{
	static const char *const generator_files[] = {"timeline.csv", "phases.csv",
	                                              "latency_hist.csv"};
	DIR *d = opendir(out);
	if (!d)
		return errno == ENOENT;
	struct dirent *e;
	bool empty = true;
	while (!into && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(d);
	for (size_t i = 0; into && i < sizeof(generator_files) / sizeof(*generator_files); i++)
		empty = empty && !merge_file_has_rows(out, generator_files[i]);
	return empty;
}

static void merge_free(struct merge *m)
{
	for (size_t f = 0; f < m->n_frags; f++) {
		json_decref(m->frags[f].doc);
		runfolder_free(&m->frags[f].rf);
	}
	free(m->frags);
	for (size_t t = 0; t < m->n_targets; t++)
		free(m->targets[t]);
	free(m->targets);
	free(m->cells);
	for (size_t i = 0; i < m->n_instances; i++)
		free(m->instances[i].latency);
	free(m->instances);
}

static int merge_run(struct merge *m, const char *out, bool into)
{
	for (size_t f = 0; f < m->n_frags; f++)
		if (!merge_load_doc(&m->frags[f]))
			return MERGE_BAD_INPUT;
	int rc = merge_check(m);
	if (rc != MERGE_OK)
		return rc;
	char err[2048];
	for (size_t f = 0; f < m->n_frags; f++)
		if (!runfolder_read_fragment(m->frags[f].dir, &m->frags[f].rf, err, sizeof(err))) {
			say("shard %d: %s", m->frags[f].shard, err);
			return MERGE_BAD_INPUT;
		}
	json_t *interval =
	    json_object_get(json_object_get(m->frags[0].doc, "stream"), "interval_ms");
	m->interval_s = (double)json_integer_value(interval) / 1000;
	if (m->interval_s <= 0) {
		say("%s/fragment.json: stream.interval_ms is not a whole number above 0",
		    m->frags[0].dir);
		return MERGE_BAD_INPUT;
	}
	if (!merge_out_empty(out, into)) {
		say(into ? "--into %s: holds a generator's rows already"
		         : "--out %s: not a new or empty folder",
		    out);
		return MERGE_BAD_INPUT;
	}
	if (!merge_timeline(m) || !merge_interval_latency(m) || !merge_instances(m)) {
		say("out of memory");
		return MERGE_FAILED;
	}
	struct runfolder_writer w;
	if (!runfolder_writer_open(&w, out, err, sizeof(err))) {
		say("--out: %s", err);
		return MERGE_FAILED;
	}
	merge_write_rows(m, &w);
	merge_write_instances(m, &w);
	bool ok = merge_events(m, &w);
	ok = runfolder_writer_close(&w) && ok;
	if (!ok)
		say("%s: %s", out,
		    runfolder_writer_failure(&w) ? runfolder_writer_failure(&w) : "out of memory");
	/* --into: the run's own run.json (its controller's) is kept; written when there is none */
	char run_json[4224];
	struct stat st;
	snprintf(run_json, sizeof(run_json), "%s/run.json", out);
	if (!into || stat(run_json, &st) != 0)
		ok = merge_run_json(m, out) && ok;
	if (ok)
		printf("%s: %zu shards merged\n", out, m->n_frags);
	return ok ? MERGE_OK : MERGE_FAILED;
}

int merge_main(int argc, char **argv)
{
	const char *out = NULL;
	bool into = false;
	static struct merge m;
	m = (struct merge){.frags = calloc((size_t)argc + 1, sizeof(*m.frags))};
	if (!m.frags)
		return MERGE_FAILED;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "-o") == 0 ||
		    strcmp(argv[i], "--into") == 0) {
			into = strcmp(argv[i], "--into") == 0;
			if (i + 1 == argc) {
				merge_usage(stderr);
				free(m.frags);
				return MERGE_BAD_INPUT;
			}
			out = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			merge_usage(stdout);
			free(m.frags);
			return MERGE_OK;
		} else if (argv[i][0] == '-') {
			say("unknown option %s", argv[i]);
			merge_usage(stderr);
			free(m.frags);
			return MERGE_BAD_INPUT;
		} else if (m.n_frags == MERGE_MAX_SHARDS) {
			say("at most %d fragments", MERGE_MAX_SHARDS);
			free(m.frags);
			return MERGE_BAD_INPUT;
		} else {
			m.frags[m.n_frags++].dir = argv[i];
		}
	}
	if (!out || m.n_frags == 0) {
		merge_usage(stderr);
		free(m.frags);
		return MERGE_BAD_INPUT;
	}
	int rc = merge_run(&m, out, into);
	merge_free(&m);
	return rc;
}

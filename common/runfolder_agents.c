/* common/runfolder_agents.c - agents' reads placed on the timeline (runfolder_agents.h). */
#include "runfolder_agents.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An agent's key (docs/agent.md, "Every read") and the timeline column it fills. */
struct agent_key {
	const char *key;
	enum timeline_column column;
	double scale; /* bytes to kB for the /proc figures, which the timeline keeps in kB */
};

static const struct agent_key agent_keys[] = {
    {"rss_bytes", TIMELINE_COL_rss_kb, 1.0 / 1024},
    {"anon_bytes", TIMELINE_COL_anon_kb, 1.0 / 1024},
    {"cpu_user_s", TIMELINE_COL_cpu_user_s, 1},
    {"cpu_sys_s", TIMELINE_COL_cpu_sys_s, 1},
    {"live_bytes", TIMELINE_COL_live_bytes, 1},
    {"live_bytes_max", TIMELINE_COL_live_bytes_max, 1},
    {"alloc_heap_bytes", TIMELINE_COL_alloc_heap_bytes, 1},
    {"alloc_free_trimmable_bytes", TIMELINE_COL_alloc_free_trimmable_bytes, 1},
    {"alloc_free_fragmented_bytes", TIMELINE_COL_alloc_free_fragmented_bytes, 1},
    {"alloc_unmapped_bytes", TIMELINE_COL_alloc_unmapped_bytes, 1},
    {"inflight", TIMELINE_COL_inflight, 1},
    {"inflight_max", TIMELINE_COL_inflight_max, 1},
    {"cache_bytes", TIMELINE_COL_cache_bytes, 1},
    {"cache_entries", TIMELINE_COL_cache_entries, 1},
    {"upstream_queries", TIMELINE_COL_upstream_queries, 1},
};
#define N_AGENT_KEYS (sizeof(agent_keys) / sizeof(agent_keys[0]))

/* One row of the variant: where it is, the interval it closes, which cells were empty before any
 * read (a bit per agent_keys entry) and the start of the read that filled it (NAN: none yet). */
struct slot {
	size_t row;
	double lo, hi;
	uint16_t empty;
	double read_at;
	double values[N_AGENT_KEYS]; /* the read's figures, put into the row once the whole file
	                              * was read without a fault */
};

/* The schedule's start on CLOCK_REALTIME: the generator's started event, or run.json's (a merged
 * run: allocspike-report merge copies the shards' one). */
static bool schedule_start_ns(const struct runfolder *rf, int64_t *ns)
{
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		if (runfolder_is_generator(e->variant) && strcmp(e->event, "started") == 0 &&
		    runfolder_realtime_ns(
		        json_string_value(json_object_get(e->obj, "start_realtime")), ns))
			return true;
	}
	return runfolder_realtime_ns(json_string_value(json_object_get(rf->run, "start_realtime")),
	                             ns);
}

static int slot_by_time(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	return x->hi < y->hi ? -1 : x->hi > y->hi ? 1 : (x->row > y->row) - (x->row < y->row);
}

/* The variant's rows in time order, each with the interval it closes: from the row before (the
 * first: one interval earlier, *step: run.json's interval_ms or the next row's spacing). NULL: out
 * of memory (or no rows, *n 0). */
static struct slot *slots_build(const struct runfolder *rf, int target, size_t *n, double *step)
{
	*n = 0;
	for (size_t r = 0; r < rf->n_rows; r++)
		*n += rf->rows[r].target == target;
	if (*n == 0)
		return NULL;
	struct slot *s = calloc(*n, sizeof(*s));
	if (!s)
		return NULL;
	size_t k = 0;
	for (size_t r = 0; r < rf->n_rows; r++) {
		if (rf->rows[r].target != target)
			continue;
		s[k] = (struct slot){.row = r, .hi = rf->rows[r].t_s, .read_at = NAN};
		for (size_t c = 0; c < N_AGENT_KEYS; c++)
			if (isnan(rf->rows[r].v[agent_keys[c].column]))
				s[k].empty |= (uint16_t)(1u << c);
		k++;
	}
	qsort(s, *n, sizeof(*s), slot_by_time);
	*step = json_number_value(
	            json_object_get(json_object_get(rf->run, "parameters"), "interval_ms")) /
	        1000;
	if (!(*step > 0))
		*step = *n > 1 ? s[1].hi - s[0].hi : 0.1;
	for (size_t i = 0; i < *n; i++)
		s[i].lo = i ? s[i - 1].hi : s[i].hi - *step;
	return s;
}

/* The slot whose interval (lo, hi] holds t, or NULL. */
static struct slot *slot_find(struct slot *s, size_t n, double t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first slot ending at or after t */
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].hi < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && t > s[lo].lo ? &s[lo] : NULL;
}

/* One line of the file: a read placed into its slot, or false with why. */
static bool read_place(struct runfolder *rf, struct runfolder_agent *a, const char *line,
                       int64_t start_ns, struct slot *s, size_t n, char *why, size_t why_size)
{
	json_error_t jerr;
	json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(o)) {
		snprintf(why, why_size, "not a JSON object (%s)", o ? "another value" : jerr.text);
		json_decref(o);
		return false;
	}
	json_t *t = json_object_get(o, "t_start_ns");
	if (!json_is_integer(t) || json_integer_value(t) < 0) {
		snprintf(why, why_size, "t_start_ns is not a whole number of ns since the epoch");
		json_decref(o);
		return false;
	}
	double values[N_AGENT_KEYS];
	for (size_t c = 0; c < N_AGENT_KEYS; c++) {
		json_t *v = json_object_get(o, agent_keys[c].key);
		values[c] = NAN;
		if (!v)
			continue;
		double x = json_number_value(v);
		if (!json_is_number(v) || !(x >= 0 && x <= RUNFOLDER_MAX_MAGNITUDE)) {
			snprintf(why, why_size,
			         "%s is not a number from 0 to %g (docs/run-folder.md, \"Limits\")",
			         agent_keys[c].key, RUNFOLDER_MAX_MAGNITUDE);
			json_decref(o);
			return false;
		}
		values[c] = x * agent_keys[c].scale;
	}
	json_t *up = json_object_get(o, "up");
	bool running = !json_is_number(up) || json_number_value(up) != 0;
	double at = (double)(json_integer_value(t) - start_ns) / 1e9;
	json_decref(o);
	if (!running) /* the target was not there: no figures, a gap */
		return true;
	a->reads++;
	struct slot *sl = slot_find(s, n, at);
	if (!sl || at < sl->read_at) /* outside the timeline, or an earlier read of its interval */
		return true;
	sl->read_at = at;
	memcpy(sl->values, values, sizeof(values));
	return true;
}

/* The placed reads into the cells of the rows the local sampler left empty. */
static void slots_commit(struct runfolder *rf, const struct slot *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (isnan(s[i].read_at))
			continue;
		for (size_t c = 0; c < N_AGENT_KEYS; c++)
			if (s[i].empty & (1u << c))
				rf->rows[s[i].row].v[agent_keys[c].column] = s[i].values[c];
	}
}

/* The counts and the longest gap of a placed file. A row cut short, under half the run's
 * interval step (the generator's last, written at its exit), can fall between two reads with
 * nothing lost: without a read it is neither expected nor part of a gap. */
static void coverage_count(struct runfolder_agent *a, const struct slot *s, size_t n, double step)
{
	size_t run_from = 0, last = 0; /* last: the latest row counted */
	bool in_gap = false;
	for (size_t i = 0; i <= n; i++) {
		bool filled = i < n && !isnan(s[i].read_at);
		if (i < n && !filled && s[i].hi - s[i].lo < step / 2)
			continue;
		a->intervals += i < n;
		a->with_read += filled;
		if (i < n && !filled && !in_gap) {
			in_gap = true;
			run_from = i;
		} else if ((i == n || filled) && in_gap) {
			in_gap = false;
			double len = s[last].hi - s[run_from].lo;
			if (len > a->gap_s) {
				a->gap_s = len;
				a->gap_start_s = s[run_from].lo;
			}
		}
		last = i;
	}
}

/* Reads one agent's file into the variant's rows. False only when out of memory. */
static bool agent_file_place(struct runfolder *rf, struct runfolder_agent *a, FILE *f,
                             const char *name, int64_t start_ns, bool have_start, char *err,
                             size_t err_size)
{
	size_t n;
	double step = 0.1;
	struct slot *s = slots_build(rf, a->target, &n, &step);
	if (!s && n)
		return snprintf(err, err_size, "agents/%s.jsonl: out of memory", name), false;
	if (!have_start)
		snprintf(a->error, sizeof(a->error),
		         "agents/%s.jsonl: the run records no start_realtime (the generator's "
		         "started event) to place its reads by",
		         name);
	char *buf = NULL, why[256], path[300];
	snprintf(path, sizeof(path), "agents/%s.jsonl", name);
	size_t cap = 0, lineno = 0;
	bool had_newline;
	enum line_fault fault;
	ssize_t len;
	while (have_start &&
	       (len = runfolder_line_read(f, &buf, &cap, &had_newline, &fault)) != -1) {
		lineno++;
		if (len == -2) {
			snprintf(err, err_size, "%s:%zu: out of memory", path, lineno);
			free(buf);
			free(s);
			return false;
		}
		if (lineno > RUNFOLDER_MAX_ROWS) {
			snprintf(
			    a->error, sizeof(a->error),
			    "%s:%zu: more than %d lines (docs/run-folder.md, \"Limits\"); the file "
			    "is refused",
			    path, lineno, RUNFOLDER_MAX_ROWS);
			break;
		}
		if (strspn(buf, " \t") == (size_t)len)
			continue;
		char bad[640] = "";
		if (runfolder_line_refused(len, fault, path, lineno, bad, sizeof(bad)))
			; /* said in bad */
		else if (!read_place(rf, a, buf, start_ns, s, n, why, sizeof(why))) {
			if (!had_newline) /* the controller was stopped mid-line */
				break;
			snprintf(bad, sizeof(bad), "%s:%zu: %s", path, lineno, why);
		}
		/* refused whole, as every damaged file of a run folder: a read that cannot be
		 * trusted makes the file's others no more trustworthy */
		if (bad[0]) {
			snprintf(a->error, sizeof(a->error), "%.600s; the file is refused", bad);
			break;
		}
	}
	free(buf);
	if (a->error[0])
		for (size_t i = 0; i < n; i++)
			s[i].read_at = NAN;
	else
		slots_commit(rf, s, n);
	coverage_count(a, s, n, step);
	free(s);
	return true;
}

/* The file at path, read-only, when it is a regular file: a FIFO planted in the folder would hold
 * the reader forever, a link may point anywhere. NULL with errno (ENOENT: no file). */
static FILE *agent_file_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

bool runfolder_agents_place(struct runfolder *rf, char *err, size_t err_size)
{
	int64_t start_ns = 0;
	bool have_start = schedule_start_ns(rf, &start_ns);
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (runfolder_is_harness(rf->targets[t]))
			continue;
		/* names are identifiers (checked where the timeline was read): no '/' or ".." */
		char path[4400];
		snprintf(path, sizeof(path), "%s/agents/%s.jsonl", rf->dir, rf->targets[t]);
		FILE *f = agent_file_open(path);
		if (!f && errno == ENOENT)
			continue;
		struct runfolder_agent *more =
		    realloc(rf->agents, (rf->n_agents + 1) * sizeof(*rf->agents));
		if (!more) {
			if (f)
				fclose(f);
			return snprintf(err, err_size, "agents/: out of memory"), false;
		}
		rf->agents = more;
		struct runfolder_agent *a = &rf->agents[rf->n_agents++];
		*a = (struct runfolder_agent){.target = (int)t};
		if (!f) {
			snprintf(a->error, sizeof(a->error), "agents/%s.jsonl: cannot open: %s",
			         rf->targets[t],
			         errno == EINVAL ? "not a regular file" : strerror(errno));
			continue;
		}
		bool ok =
		    agent_file_place(rf, a, f, rf->targets[t], start_ns, have_start, err, err_size);
		fclose(f);
		if (!ok)
			return false;
	}
	return true;
}

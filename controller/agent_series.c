/* controller/agent_series.c - the reads collected from one agent (agent_series.h). */
#include "agent_series.h"
#include "grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write_file.h"

static int series_read_compare(const void *a, const void *b)
{
	const struct series_read *x = a, *y = b;
	if (x->agent_start_ns != y->agent_start_ns)
		return x->agent_start_ns < y->agent_start_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void series_sort(struct agent_series *s)
{
	if (!s->sorted && s->n > 1)
		qsort(s->reads, s->n, sizeof(*s->reads), series_read_compare);
	s->sorted = true;
}

enum series_add_result agent_series_add(struct agent_series *s, const char *line, size_t len,
                                        enum series_source source)
{
	json_t *o = json_loadb(line, len, 0, NULL);
	json_t *seq = json_object_get(o, "seq"), *start = json_object_get(o, "t_start_ns");
	if (!json_is_integer(seq) || !json_is_integer(start) || json_integer_value(seq) < 0 ||
	    json_integer_value(start) <= 0 || !json_is_integer(json_object_get(o, "t_end_ns"))) {
		json_decref(o);
		return SERIES_NOT_A_READ;
	}
	struct series_read r = {(uint64_t)json_integer_value(seq),
	                        (uint64_t)json_integer_value(start), source, o};
	series_sort(s);
	if (s->n > 0 && bsearch(&r, s->reads, s->n, sizeof(r), series_read_compare)) {
		json_decref(o);
		return SERIES_ALREADY_THERE;
	}
	struct series_read *p = grow_room(s->reads, &s->cap, s->n, sizeof(*p), 1024);
	if (!p) {
		json_decref(o);
		return SERIES_NOT_A_READ;
	}
	s->reads = p;
	s->sorted = s->n == 0 || series_read_compare(&s->reads[s->n - 1], &r) < 0;
	s->reads[s->n++] = r;
	return SERIES_ADDED;
}

char *agent_series_place(const struct series_read *r, const struct clock_point *p)
{
	json_int_t shift = (json_int_t)llround(p->offset.offset_ms * 1e6);
	json_int_t start = json_integer_value(json_object_get(r->line, "t_start_ns"));
	json_int_t end = json_integer_value(json_object_get(r->line, "t_end_ns"));
	json_t *placed = json_object();
	json_object_set_new(placed, "seq", json_integer((json_int_t)r->seq));
	json_object_set_new(placed, "t_start_ns", json_integer(start - shift));
	json_object_set_new(placed, "t_end_ns", json_integer(end - shift));
	json_object_set_new(placed, "agent_t_start_ns", json_integer(start));
	json_object_set_new(placed, "agent_t_end_ns", json_integer(end));
	json_object_set_new(placed, "offset_ms", json_real(p->offset.offset_ms));
	json_object_set_new(placed, "source",
	                    json_string(r->source == SERIES_FROM_RECORD ? "record" : "stream"));
	const char *key;
	json_t *value;
	json_object_foreach(r->line, key, value)
	{
		if (!json_object_get(placed, key))
			json_object_set(placed, key, value);
	}
	char *text = json_dumps(placed, JSON_REAL_PRECISION(15));
	json_decref(placed);
	size_t len = text ? strlen(text) : 0;
	char *line = text ? realloc(text, len + 2) : NULL;
	if (!line) {
		free(text);
		return NULL;
	}
	memcpy(line + len, "\n", 2);
	return line;
}

bool agent_series_write(struct agent_series *s, const struct clock_history *h, const char *path,
                        char *err, size_t err_size)
{
	series_sort(s);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	bool ok = out != NULL;
	for (size_t i = 0; ok && i < s->n; i++) {
		const struct clock_point *p = clock_history_nearest(h, s->reads[i].agent_start_ns);
		char *line = p ? agent_series_place(&s->reads[i], p) : NULL;
		ok = line && fputs(line, out) >= 0;
		free(line);
	}
	if (out && fclose(out) != 0)
		ok = false;
	if (!ok)
		snprintf(err, err_size, "%s: out of memory placing the reads", path);
	ok = ok && atomic_write_file(path, text, len, err, err_size);
	free(text);
	return ok;
}

size_t agent_series_count(const struct agent_series *s, enum series_source source)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += s->reads[i].source == source;
	return n;
}

void agent_series_free(struct agent_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		json_decref(s->reads[i].line);
	free(s->reads);
	*s = (struct agent_series){0};
}

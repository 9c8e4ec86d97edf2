/* tests/tools/responder_count.c - per-second query counts, for the load generator's rate tests. */
#include "responder_count.h"

#include <stdio.h>
#include <stdlib.h>

#include "atomic_write_file.h"

void responder_count_note(struct responder_count *c, double now_s)
{
	if (!c->started) {
		c->started = true;
		c->first_s = now_s;
	}
	double since = now_s - c->first_s;
	size_t sec = since < 0 ? 0 : (size_t)since;
	if (sec >= c->seconds) {
		size_t n = sec + 1;
		uint64_t *grown = realloc(c->per_second, n * sizeof(*grown));
		if (!grown)
			return;
		for (size_t i = c->seconds; i < n; i++)
			grown[i] = 0;
		c->per_second = grown;
		c->seconds = n;
	}
	c->per_second[sec]++;
	c->dirty = true;
}

bool responder_count_write(struct responder_count *c, const char *path)
{
	struct atomic_file af;
	char err[256];
	if (!atomic_file_open(&af, path, err, sizeof(err)))
		return false;
	for (size_t i = 0; i < c->seconds; i++)
		fprintf(af.f, "%zu %llu\n", i, (unsigned long long)c->per_second[i]);
	bool ok = atomic_file_commit(&af, !ferror(af.f), err, sizeof(err));
	if (ok)
		c->dirty = false;
	return ok;
}

void responder_count_free(struct responder_count *c)
{
	free(c->per_second);
	c->per_second = NULL;
	c->seconds = 0;
}
